// Positions: what valuePositions takes, and how records (a CSV row, a JSON object, an MCP tool's
// argument) become positions. Every number stays the decimal text it was written as: a quantity
// or cost is never a float.
import { currencyProblem, isCurrency } from './currencies.js';
import { DECIMAL, JsonNumber } from './json.js';
import { PositionsError, shownValue, type PositionsErrorInit } from './positions-error.js';
import { FORMULA_RULE, FORMULA_START, SYMBOL_PATTERN, symbolRule } from '../shared/patterns.js';

/** One lot: several positions may hold one symbol. */
export interface Position {
  /** The instrument as the service names it; a symbol equal to `currency` is cash (price 1, no quote). */
  symbol: string;
  /** Decimal text; negative for a short. */
  quantity: string;
  /** The currency the instrument is quoted in: an ISO 4217 code or a minor unit such as GBX. */
  currency: string;
  /** Average cost per unit, in `currency`, as decimal text. */
  cost?: string;
  /** The line of the positions file the position came from, for messages. */
  line?: number;
}

/** The fields a position has; anything else in a file is refused. */
export const POSITION_FIELDS = ['symbol', 'quantity', 'currency', 'cost'] as const;
export type PositionField = (typeof POSITION_FIELDS)[number];

export interface PositionsOptions {
  /** Names the input in errors: a file name, "standard input". */
  source?: string;
  /** The currency of positions that name none; without it, such a position is an error. */
  defaultCurrency?: string;
}

/** A position's fields as read, and where from. */
export interface PositionRecord {
  values: Partial<Record<PositionField, unknown>>;
  line?: number;
  item?: number;
}

/** A column or member name as a position field: case and surrounding spaces do not count. */
export function fieldName(name: string): PositionField | undefined {
  const key = name.trim().toLowerCase();
  return (POSITION_FIELDS as readonly string[]).includes(key) ? (key as PositionField) : undefined;
}

/**
 * Positions from objects such as a JSON array's: `{symbol, quantity, currency?, cost?}`. Numbers
 * are decimal strings or JsonNumbers (parseJsonExact); a JavaScript number only when it is a safe
 * integer, since any other may already have lost digits to a double.
 */
export function positionsFromObjects(items: readonly unknown[], options: PositionsOptions = {}): Position[] {
  if (!Array.isArray(items)) {
    throw new PositionsError('positions must be an array of objects such as {"symbol": "AAPL", "quantity": "10"}', { reason: 'syntax', source: options.source });
  }
  return positionsFromRecords(items.map((item, index) => recordOf(item, index + 1, options.source)), options);
}

function recordOf(item: unknown, index: number, source: string | undefined): PositionRecord {
  if (item === null || typeof item !== 'object' || Array.isArray(item) || item instanceof JsonNumber) {
    throw new PositionsError('is not an object such as {"symbol": "AAPL", "quantity": "10"}', { reason: 'syntax', source, item: index });
  }
  const values: PositionRecord['values'] = {};
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(item)) {
    const field = fieldName(name);
    if (field === undefined) {
      throw new PositionsError(`has a member ${shownValue(name)} that is not a position's; a position has ${POSITION_FIELDS.join(', ')}`, {
        reason: 'header', source, item: index, field: name,
      });
    }
    if (seen.has(field)) throw new PositionsError(`names ${field} twice`, { reason: 'header', source, item: index, field });
    seen.add(field);
    values[field] = value;
  }
  return { values, item: index };
}

/** Records to positions, each checked; `defaultCurrency` fills a missing currency. */
export function positionsFromRecords(records: readonly PositionRecord[], options: PositionsOptions = {}): Position[] {
  const { source, defaultCurrency } = options;
  if (defaultCurrency !== undefined && !isCurrency(defaultCurrency)) {
    throw new PositionsError(`the default currency ${shownValue(String(defaultCurrency))} ${currencyProblem(String(defaultCurrency))}`, {
      reason: 'value', field: 'currency', value: String(defaultCurrency),
    });
  }
  if (records.length === 0) throw new PositionsError('holds no positions', { reason: 'empty', source });
  const positions: Position[] = new Array(records.length);
  for (let i = 0; i < records.length; i++) positions[i] = positionOf(records[i]!, source, defaultCurrency);
  return positions;
}

function positionOf(record: PositionRecord, source: string | undefined, defaultCurrency: string | undefined): Position {
  const { values, line, item } = record;
  const where = { source, line, item };
  const symbol = stringField(values.symbol, 'symbol', where);
  if (symbol === undefined) throw missing('symbol', where);
  if (!SYMBOL_PATTERN.test(symbol)) {
    throw new PositionsError(`symbol ${shownValue(symbol)} is not a symbol: ${symbolRule(symbol)}`, { reason: 'value', ...where, field: 'symbol', value: symbol });
  }
  const quantity = decimal(values.quantity, 'quantity', where);
  if (quantity === undefined) throw missing('quantity', where);
  const cost = decimal(values.cost, 'cost', where);
  const written = stringField(values.currency, 'currency', where);
  const currency = written ?? defaultCurrency;
  if (currency === undefined) {
    throw new PositionsError(`${symbol} has no currency, and no default currency was given`, {
      reason: 'no-currency', ...where, field: 'currency', hint: 'give each position a currency (a currency column), or a default currency for those without one',
    });
  }
  if (written !== undefined && !isCurrency(written)) {
    throw new PositionsError(`currency ${shownValue(written)} ${currencyProblem(written)}`, { reason: 'value', ...where, field: 'currency', value: written });
  }
  const position: Position = { symbol, quantity, currency };
  if (cost !== undefined) position.cost = cost;
  if (line !== undefined) position.line = line;
  return position;
}

type Where = Pick<PositionsErrorInit, 'source' | 'line' | 'item'>;

function missing(field: PositionField, where: Where): PositionsError {
  return new PositionsError(`no ${field}`, { reason: 'value', ...where, field });
}

/** A string's text, trimmed; undefined for null, undefined or an empty string. */
function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const trimmed = (value instanceof JsonNumber ? value.source : String(value)).trim();
  return trimmed === '' ? undefined : trimmed;
}

function stringField(value: unknown, field: PositionField, where: Where): string | undefined {
  if (value !== undefined && value !== null && typeof value !== 'string') {
    throw new PositionsError(`${field} must be a string, not ${Array.isArray(value) ? 'an array' : value instanceof JsonNumber ? 'a number' : typeof value}`, { reason: 'value', ...where, field });
  }
  return text(value);
}

/** The decimal text of a field; undefined when it is empty or absent. */
function decimal(value: unknown, field: PositionField, where: Where): string | undefined {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return String(value);
    throw new PositionsError(`${field} ${Number.isFinite(value) ? value : String(value)} is a JavaScript number that is not a safe integer: its digits may already be lost to a double`, {
      reason: 'value', ...where, field, value: String(value), hint: 'give it as a decimal string ("0.1"), or parse JSON with parseJsonExact',
    });
  }
  if (value !== undefined && value !== null && typeof value !== 'string' && !(value instanceof JsonNumber)) {
    throw new PositionsError(`${field} must be a decimal number or a string holding one, not ${Array.isArray(value) ? 'an array' : typeof value}`, { reason: 'value', ...where, field });
  }
  const written = text(value);
  if (written === undefined) return undefined;
  if (!DECIMAL.test(written)) {
    throw new PositionsError(`${field} ${shownValue(written)} is not a decimal number`, {
      reason: 'value', ...where, field, value: written, hint: 'write it as JSON writes numbers: 1500, -20, 0.25, 1e6 (no thousands separators, no + sign)',
    });
  }
  return written;
}

/**
 * Positions a program passes to valuePositions, checked as a file's are: a PositionsError naming
 * the position (1-based) and the field, before anything is valued.
 */
export function checkPositions(positions: unknown): asserts positions is readonly Position[] {
  if (!Array.isArray(positions)) {
    throw new PositionsError('positions must be an array of {symbol, quantity, currency, cost?}', { reason: 'syntax' });
  }
  for (let i = 0; i < positions.length; i++) {
    const position = positions[i] as Partial<Record<keyof Position, unknown>> | null;
    if (position === null || typeof position !== 'object') throw new PositionsError('is not a position object', { reason: 'syntax', item: i + 1 });
    const item = i + 1;
    const { symbol, quantity, currency, cost } = position;
    if (typeof symbol !== 'string' || !SYMBOL_PATTERN.test(symbol)) {
      throw new PositionsError(typeof symbol === 'string' && FORMULA_START.test(symbol) ? `symbol ${shownValue(symbol)} is not a symbol: ${FORMULA_RULE}` : 'symbol must be 1 to 32 visible ASCII characters', { reason: 'value', item, field: 'symbol', value: typeof symbol === 'string' ? symbol : undefined });
    }
    // No array per position: this runs for every lot, before anything is fetched.
    if (typeof quantity !== 'string' || !DECIMAL.test(quantity)) throw notDecimal('quantity', quantity, item);
    if (cost !== undefined && (typeof cost !== 'string' || !DECIMAL.test(cost))) throw notDecimal('cost', cost, item);
    if (!isCurrency(currency)) {
      const text = typeof currency === 'string' ? currency : undefined;
      throw new PositionsError(text === undefined ? 'currency must be a currency code such as "USD"' : `currency ${shownValue(text)} ${currencyProblem(text)}`, {
        reason: currency === undefined ? 'no-currency' : 'value', item, field: 'currency', value: text,
      });
    }
  }
}

function notDecimal(field: 'quantity' | 'cost', value: unknown, item: number): PositionsError {
  return new PositionsError(`${field} must be a string holding a decimal number, such as "10" or "-2.5"`, {
    reason: 'value', item, field, value: typeof value === 'string' ? value : undefined,
  });
}
