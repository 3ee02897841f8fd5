// What a valuation's checks can compare (`--check`, `--until` on `mkt value`): each position's
// figures, exact (the exact valuation's, never a rounded one: a check decides on the exact value,
// and a failure shows it at `full`), and the totals of the whole valuation: in the base currency,
// and in each currency the positions are in (`total_eur`). A figure that cannot be known (no quote,
// no rate to the base, no cost, a quote that cannot be right) is no value, and a check on it fails
// saying why; so does a check on a total that leaves positions out: an incomplete sum compared as
// if whole would be silently wrong. An --exec program gets the figures at `full`.
import type { ExactCurrencyTotal, ExactPosition, ExactValuation } from '../../api/valuation.js';
import { FULL, roundFigure } from '../../shared/figure.js';
import type { CheckField, CheckModel } from './check-model.js';

type PositionFigure = 'quantity' | 'price' | 'value' | 'rate' | 'value_base' | 'cost' | 'pnl' | 'pnl_base';

/** Why a position has no `figure`. */
function whyNot(position: ExactPosition, figure: PositionFigure): string {
  if ((figure === 'cost' || figure === 'pnl' || figure === 'pnl_base') && position.cost === undefined) return 'it has no cost';
  if (position.status === 'missing' && figure !== 'rate') return 'its symbol has no quote';
  if (position.status === 'unusable') return position.reason ?? 'its quote cannot be right';
  return `its currency ${position.currency} has no rate to the base currency`;
}

function positionField(name: PositionFigure, description: string): CheckField<ExactPosition> {
  return {
    name,
    kind: 'decimal',
    description,
    value: (position) => position[name] ?? undefined,
    unavailable: (position) => whyNot(position, name),
  };
}

const POSITION_FIELDS: readonly CheckField<ExactPosition>[] = [
  positionField('quantity', 'the quantity, as written in the positions file'),
  positionField('price', 'the price used: the mid, bid or ask as --price says (1 for cash)'),
  positionField('value', 'price × quantity, in the position\'s currency'),
  positionField('rate', 'one unit of the position\'s currency in the base currency'),
  positionField('value_base', 'value × rate, in the base currency'),
  positionField('cost', 'the cost per unit, as written'),
  positionField('pnl', '(price - cost) × quantity, in the position\'s currency'),
  positionField('pnl_base', 'pnl × rate, in the base currency'),
];

/** Why a total has no value: it leaves positions out, or there is nothing to sum. */
function incompleteWords(valuation: ExactValuation): string {
  const count = (status: string) => valuation.positions.filter((position) => position.status === status).length;
  const parts = [
    [count('missing'), 'without a quote'], [count('no_route'), `without a rate to ${valuation.base}`], [count('unusable'), 'with a quote that cannot be right'],
  ].filter(([n]) => (n as number) > 0).map(([n, what], i) => `${n}${i === 0 ? ` position${n === 1 ? '' : 's'}` : ''} ${what}`);
  return `the valuation is incomplete: ${parts.join(', ')}`;
}

const DOCUMENT_FIELDS: readonly CheckField<ExactValuation>[] = [
  {
    name: 'total_base',
    kind: 'decimal',
    description: 'the sum of every value_base, in the base currency',
    value: (valuation) => (valuation.incomplete ? undefined : valuation.total_base),
    unavailable: incompleteWords,
  },
  {
    name: 'total_pnl_base',
    kind: 'decimal',
    description: 'the sum of every pnl_base, where positions have a cost',
    value: (valuation) => (valuation.incomplete ? undefined : valuation.total_pnl_base ?? undefined),
    unavailable: (valuation) => (valuation.incomplete ? incompleteWords(valuation) : 'no position has a cost'),
  },
];

/** `total_eur`: the value of the positions in one currency, in that currency. */
function currencyField(currency: string): CheckField<ExactValuation> {
  const totalOf = (valuation: ExactValuation): ExactCurrencyTotal | undefined => valuation.totals.find((total) => total.currency === currency);
  return {
    name: `total_${currency.toLowerCase()}`,
    kind: 'decimal',
    description: `the sum of the values of the positions in ${currency}, in ${currency}`,
    value: (valuation) => {
      const total = totalOf(valuation);
      return total === undefined || unvaluedIn(valuation, currency) ? undefined : total.value;
    },
    unavailable: (valuation) => {
      if (totalOf(valuation) === undefined) return `no position is in ${currency}`;
      const unusable = valuation.positions.some((position) => position.currency === currency && position.status === 'unusable' && position.value === null);
      return `a position in ${currency} has ${unusable ? 'a quote that cannot be right' : 'no quote'}`;
    },
  };
}

function unvaluedIn(valuation: ExactValuation, currency: string): boolean {
  return valuation.positions.some((position) => position.currency === currency && position.value === null);
}

/** Every name the environment of an --exec program gets from a position (MKT_ prefixed). */
const ENVIRONMENT_NAMES = ['SYMBOL', 'QUANTITY', 'CURRENCY', 'PRICE', 'VALUE', 'RATE', 'VALUE_BASE', 'COST', 'PNL', 'PNL_BASE', 'STATUS'];

/**
 * A valuation's checks, for positions in `currencies` (the currencies of the positions file, read
 * before any request, so that `total_<currency>` is known when the checks are compiled). Two
 * currencies whose names differ only in case (GBP, GBp) have no per-currency field: it would be ambiguous.
 */
export function valueCheckModel(currencies: readonly string[] = []): CheckModel<ExactPosition, ExactValuation> {
  const byName = new Map<string, string[]>();
  for (const currency of new Set(currencies)) {
    const name = currency.toLowerCase();
    byName.set(name, [...(byName.get(name) ?? []), currency]);
  }
  const perCurrency = [...byName.values()].filter((same) => same.length === 1).map(([currency]) => currencyField(currency!));
  return {
    rowNoun: 'position',
    rowKey: (position) => position.symbol.toUpperCase(),
    fields: POSITION_FIELDS,
    exampleField: 'value_base',
    examples: ['total_base >= 10000', 'AAPL.pnl > 0'],
    documentFields: [...DOCUMENT_FIELDS, ...perCurrency],
    rowEnvironment: (position) => {
      const environment: Record<string, string> = { SYMBOL: position.symbol, QUANTITY: position.quantity, CURRENCY: position.currency, STATUS: position.status };
      const figures = { PRICE: position.price, VALUE: position.value, RATE: position.rate, VALUE_BASE: position.value_base, COST: position.cost, PNL: position.pnl, PNL_BASE: position.pnl_base };
      for (const [name, value] of Object.entries(figures)) {
        if (typeof value === 'string') environment[name] = value;
        else if (value !== null && value !== undefined) environment[name] = roundFigure(value, FULL).text;
      }
      return environment;
    },
    rowEnvironmentNames: ENVIRONMENT_NAMES,
  };
}
