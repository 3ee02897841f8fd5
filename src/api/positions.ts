// Positions: what valuePositions takes, and how records (a CSV row, a JSON object, an MCP tool's
// argument) become positions. Every number stays the decimal text it was written as: a quantity
// or cost is never a float. Every problem of the records is found before any is thrown, so that a
// file with three mistakes is refused once, naming the three.
import { checkType, describe, invalid } from './check-options.js';
import { currencyProblem, isCurrency } from './currencies.js';
import { JsonNumber } from './json.js';
import { POSITION_FIELDS, type PositionField } from './position-fields.js';
import { checkColumnMapping, planColumns, type ColumnMapping } from './positions-columns.js';
import { ProblemList, PositionsError, shownValue, type PositionsProblem } from './positions-error.js';
import { isPlaceholder, readNumber, type NumberStyle } from './positions-number.js';
import { DECIMAL_SYNTAX, decimalBoundsProblem } from '../shared/decimal-bounds.js';
import { FORMULA_RULE, FORMULA_START, SYMBOL_PATTERN, symbolRule } from '../shared/patterns.js';

export type { PositionField };
export type { ColumnMapping };

/** One lot: several positions may hold one symbol. */
export interface Position {
  /** The instrument as the service names it; a symbol equal to `currency` is cash (price 1, no quote). */
  symbol: string;
  /** Decimal text; negative for a short. */
  quantity: string;
  /** The currency the instrument is quoted in: an ISO 4217 code or a minor unit such as GBX. */
  currency: string;
  /** Average cost per unit, in `currency`, as decimal text. A position has this or `cost_total`, not both. */
  cost?: string;
  /** The lot's total cost, in `currency`, as decimal text: the per-unit cost is cost_total / quantity, exactly. */
  cost_total?: string;
  /** The line of the positions file the position came from, for messages. */
  line?: number;
}

/** What the reader skipped or left out, said once, for the caller to show: `ignored columns: Account, Price`. */
export interface PositionsWarning {
  /** Stable: `ignored_columns`, `skipped_lines` (before the header), `skipped_rows` (totals and notes). */
  code: PositionsWarningCode;
  /** In words, with the names and lines as the file has them (not yet made safe for a terminal). */
  message: string;
  hint?: string;
  /** ignored_columns: the columns (or JSON members) ignored, as named. */
  columns?: string[];
  /** ignored_columns: those of them named like a cost (per unit or total), which are read once mapped. */
  costColumns?: string[];
  /** The lines skipped: those before the header (skipped_lines), or the rows (skipped_rows). */
  lines?: number[];
  /** skipped_rows: what each row holds where a symbol would be (`Account Total`), or its first cell. */
  labels?: string[];
}

export type PositionsWarningCode = 'ignored_columns' | 'skipped_lines' | 'skipped_rows';

export interface PositionsOptions {
  /** Names the input in errors: a file name, "standard input". */
  source?: string;
  /** The currency of positions that name none; without it, such a position is an error. */
  defaultCurrency?: string;
  /**
   * The column (CSV, TSV) or member (JSON) of a field, by name, matched without regard to case:
   * `{ symbol: 'Ticker', cost: 'Avg Cost' }`; '' for none (a column of the field's own name is then ignored).
   */
  columns?: ColumnMapping;
  /** Told of what was ignored or skipped: columns, lines before the header, total and note rows. */
  onWarning?: (warning: PositionsWarning) => void;
}

/** A position's fields as read, and where from; or why it could not be read as one (its problems, said in the text's order). */
export interface PositionRecord {
  values: Partial<Record<PositionField, unknown>>;
  line?: number;
  item?: number;
  problems?: PositionsProblem[];
}

/**
 * Positions from objects such as a JSON array's: `{symbol, quantity, currency?, cost?, cost_total?}`.
 * Numbers are decimal strings or JsonNumbers (parseJsonExact); a JavaScript number only when it is a
 * safe integer, since any other may already have lost digits to a double. Other members are ignored
 * (`onWarning` names them); `columns` maps members onto fields as it maps a file's columns.
 */
export function positionsFromObjects(items: readonly unknown[], options: PositionsOptions = {}): Position[] {
  checkPositionsOptions(options, 'positionsFromObjects');
  return positionsFromItems(items, options);
}

/**
 * The options every reader of positions takes, checked once, before anything is read: a program may
 * pass anything, and a wrong type would otherwise be a TypeError from deep inside, or from halfway
 * through a file, where onWarning is first called. `operation` names the call they were given to.
 */
export function checkPositionsOptions(options: unknown, operation: string): void {
  if (options === undefined) return;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw invalid(`${operation}'s options must be an object, not ${describe(options)}`, { option: 'options', operation, expected: 'an object' });
  }
  const { source, defaultCurrency, columns, onWarning } = options as Partial<Record<keyof PositionsOptions, unknown>>;
  checkType('source', source, 'string', 'a string (the input\'s name)', operation);
  // Only its type: whether it names a currency is positionReader's to say, as a PositionsError.
  checkType('defaultCurrency', defaultCurrency, 'string', 'a string (a currency code such as "USD")', operation);
  checkColumnMapping(columns);
  checkType('onWarning', onWarning, 'function', 'a function', operation);
}

/** positionsFromObjects, with the line each item starts on where the text is known. */
export function positionsFromItems(items: readonly unknown[], options: PositionsOptions, lines?: readonly number[]): Position[] {
  if (!Array.isArray(items)) {
    throw new PositionsError('positions must be an array of objects such as {"symbol": "AAPL", "quantity": "10"}', { reason: 'syntax', source: options.source });
  }
  const mapping = checkColumnMapping(options.columns);
  const problems = new ProblemList(options.source);
  const records: PositionRecord[] = [];
  const ignored = new Set<string>();
  const costLike = new Set<string>();
  const found = new Set<PositionField>();
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    const where = { item: index + 1, line: lines?.[index] };
    if (item === null || typeof item !== 'object' || Array.isArray(item) || item instanceof JsonNumber) {
      records.push({ values: {}, ...where, problems: [{ reason: 'syntax', ...where, message: 'is not an object such as {"symbol": "AAPL", "quantity": "10"}' }] });
      continue;
    }
    const entries = Object.entries(item);
    const plan = planColumns(entries.map(([name]) => name), mapping);
    for (const name of plan.ignored) ignored.add(name);
    for (const name of plan.costLike) costLike.add(name);
    const values: PositionRecord['values'] = {};
    for (const field of POSITION_FIELDS) {
      const at = plan.at[field];
      if (at === undefined) continue;
      found.add(field);
      values[field] = entries[at]![1];
    }
    const twice = plan.twice.map(({ field, names }) => ({ reason: 'header' as const, ...where, field, message: `names ${field} twice: ${names.map(shownValue).join(' and ')}`, option: 'columns' as const }));
    records.push({ values, ...where, ...(twice.length === 0 ? {} : { problems: twice }) });
  }
  const unmapped = [...mapping].filter(([field, key]) => key !== '' && !found.has(field));
  if (items.length > 0 && unmapped.length > 0) {
    problems.add({
      reason: 'header', field: unmapped[0]![0], option: 'columns',
      message: `no position has ${unmapped.map(([field, key]) => `the member ${shownValue(key)} that columns maps to ${field}`).join(', or ')}`,
    });
  }
  if (ignored.size > 0) warnIgnored(options, [...ignored], [...costLike], 'members');
  return positionsFromRecords(records, options, { problems });
}

/** The ignored_columns warning, with a word on mapping the ones named like a cost. */
export function warnIgnored(options: PositionsOptions, columns: string[], costColumns: string[], noun: 'columns' | 'members'): void {
  if (options.onWarning === undefined) return;
  const shown = columns.slice(0, 20).join(', ') + (columns.length > 20 ? ` and ${columns.length - 20} more` : '');
  const [cost] = costColumns;
  options.onWarning({
    code: 'ignored_columns',
    message: `ignored ${noun}: ${shown}`,
    columns,
    costColumns,
    ...(cost === undefined ? {} : {
      hint: `${costColumns.map((name) => JSON.stringify(name)).join(', ')} may be a cost per unit or the lot's total, which is never guessed: map one with columns: { cost: ${JSON.stringify(cost)} } (per unit) or { cost_total: ${JSON.stringify(cost)} } (the total)`,
    }),
  });
}

/** How records are read: the numbers' style, the problems found so far, and whether a missing currency has been said once for all. */
export interface ReadContext {
  style?: NumberStyle;
  problems?: ProblemList;
  /** A header with no currency column, and no default currency: said once, not for each row. */
  noCurrencySaid?: boolean;
}

/**
 * Records to positions, each checked; `defaultCurrency` fills a missing currency. Every problem is
 * found, then thrown together (`problems`, which may hold some of the header's already).
 */
function positionsFromRecords(records: readonly PositionRecord[], options: PositionsOptions = {}, context: ReadContext = {}): Position[] {
  const reader = positionReader(options, context);
  for (const record of records) reader.add(record);
  return reader.finish();
}

/** positionsFromRecords a record at a time: a file's rows become positions as they are read. */
export interface PositionReader {
  add(record: PositionRecord): void;
  /** A position read already (plainPosition's). */
  push(position: Position): void;
  /** The positions; or a PositionsError with every problem found, or for no record at all. */
  finish(): Position[];
}

export function positionReader(options: PositionsOptions = {}, context: ReadContext = {}): PositionReader {
  const { style = { cell: false }, problems = new ProblemList(options.source) } = context;
  const { source, defaultCurrency } = options;
  if (defaultCurrency !== undefined && !isCurrency(defaultCurrency)) {
    throw new PositionsError(`the default currency ${shownValue(String(defaultCurrency))} ${currencyProblem(String(defaultCurrency))}`, {
      reason: 'value', field: 'currency', value: String(defaultCurrency),
    });
  }
  const positions: Position[] = [];
  let records = 0;
  return {
    add(record) {
      records++;
      const position = positionOf(record, defaultCurrency, style, problems, context.noCurrencySaid === true);
      if (position !== undefined) positions.push(position);
    },
    push(position) {
      records++;
      positions.push(position);
    },
    finish() {
      if (records === 0 && problems.count === 0) throw new PositionsError('holds no positions', { reason: 'empty', source });
      problems.fail();
      return positions;
    },
  };
}

/**
 * The position of a delimited row whose trimmed cells read as they are, as most rows of most files
 * do: a symbol, a quantity and a cost that readNumber takes, a currency or the default one; undefined
 * for any other row, which positionOf reads and says what is wrong with. It reads no row otherwise
 * than positionOf: it spares the common one the record and positionOf's checks of values of any
 * type (4 ms of the 18 that 10,000 rows take; docs/benchmarks.md, target 7).
 */
export function plainPosition(symbol: string | undefined, quantity: string | undefined, currency: string | undefined, cost: string | undefined, costTotal: string | undefined, line: number, style: NumberStyle, defaultCurrency: string | undefined): Position | undefined {
  if (symbol === undefined || quantity === undefined || !SYMBOL_PATTERN.test(symbol) || isPlaceholder(symbol)) return undefined;
  const amount = readNumber(quantity, style);
  const perUnit = cost === undefined ? undefined : readNumber(cost, style);
  const total = costTotal === undefined ? undefined : readNumber(costTotal, style);
  if (typeof amount !== 'string' || typeof perUnit === 'object' || typeof total === 'object' || (perUnit !== undefined && total !== undefined)) return undefined;
  const code = currency === undefined || isPlaceholder(currency) ? defaultCurrency : currency;
  if (code === undefined || !isCurrency(code)) return undefined;
  const position: Position = { symbol, quantity: amount, currency: code };
  if (perUnit !== undefined) position.cost = perUnit;
  if (total !== undefined) position.cost_total = total;
  position.line = line;
  return position;
}

type Where = Pick<PositionsProblem, 'line' | 'item'>;

/** The record's position, or undefined when it has problems (each added to `problems`). */
function positionOf(record: PositionRecord, defaultCurrency: string | undefined, style: NumberStyle, problems: ProblemList, noCurrencySaid: boolean): Position | undefined {
  const { values, line, item } = record;
  if (record.problems !== undefined) {
    for (const problem of record.problems) problems.add(problem);
    return undefined;
  }
  const where: Where = { line, item };
  const before = problems.count;
  const symbol = stringField(values.symbol, 'symbol', where, problems);
  if (symbol === undefined) {
    if (problems.count === before) problems.add(missing('symbol', where));
  } else if (!SYMBOL_PATTERN.test(symbol)) {
    problems.add({ reason: 'value', ...where, field: 'symbol', value: symbol, message: `symbol ${shownValue(symbol)} is not a symbol: ${symbolRule(symbol)}` });
  }
  const counted = problems.count;
  const quantity = decimal(values.quantity, 'quantity', where, style, problems);
  if (quantity === undefined && problems.count === counted) problems.add(missing('quantity', where));
  const cost = decimal(values.cost, 'cost', where, style, problems);
  const costTotal = decimal(values.cost_total, 'cost_total', where, style, problems);
  if (cost !== undefined && costTotal !== undefined) {
    problems.add({
      reason: 'value', ...where, field: 'cost_total', value: costTotal, option: 'columns',
      message: `gives both a cost per unit (${cost}) and a total cost (${costTotal}); a position has one`,
      hint: 'leave one of them empty, or read one column only',
    });
  }
  const written = stringField(values.currency, 'currency', where, problems);
  const currency = written ?? defaultCurrency;
  if (currency === undefined) {
    if (!noCurrencySaid) problems.add({
      reason: 'no-currency', ...where, field: 'currency', option: 'defaultCurrency',
      message: `${symbol ?? 'the position'} has no currency, and no default currency was given`,
      hint: 'give each position a currency (a currency column), or a default currency for those without one',
    });
  } else if (written !== undefined && !isCurrency(written)) {
    problems.add({ reason: 'value', ...where, field: 'currency', value: written, message: `currency ${shownValue(written)} ${currencyProblem(written)}` });
  }
  if (problems.count > before || currency === undefined) return undefined;
  const position: Position = { symbol: symbol!, quantity: quantity!, currency: currency! };
  if (cost !== undefined) position.cost = cost;
  if (costTotal !== undefined) position.cost_total = costTotal;
  if (line !== undefined) position.line = line;
  return position;
}

function missing(field: PositionField, where: Where): PositionsProblem {
  return { reason: 'value', ...where, field, message: `no ${field}` };
}

/** A string's text, trimmed; undefined for null, undefined, or a placeholder (an empty string, `--`, `N/A`). */
function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const trimmed = (value instanceof JsonNumber ? value.source : String(value)).trim();
  return isPlaceholder(trimmed) ? undefined : trimmed;
}

function stringField(value: unknown, field: PositionField, where: Where, problems: ProblemList): string | undefined {
  if (value !== undefined && value !== null && typeof value !== 'string') {
    problems.add({ reason: 'value', ...where, field, message: `${field} must be a string, not ${Array.isArray(value) ? 'an array' : value instanceof JsonNumber ? 'a number' : typeof value}` });
    return undefined;
  }
  return text(value);
}

/** The decimal text of a field; undefined when it is empty or absent, or refused (a problem added). */
function decimal(value: unknown, field: PositionField, where: Where, style: NumberStyle, problems: ProblemList): string | undefined {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return String(value);
    problems.add({
      reason: 'value', ...where, field, value: String(value),
      message: `${field} ${Number.isFinite(value) ? value : String(value)} is a JavaScript number that is not a safe integer: its digits may already be lost to a double`,
      hint: 'give it as a decimal string ("0.1"), or parse JSON with parseJsonExact',
    });
    return undefined;
  }
  if (value !== undefined && value !== null && typeof value !== 'string' && !(value instanceof JsonNumber)) {
    problems.add({ reason: 'value', ...where, field, message: `${field} must be a decimal number or a string holding one, not ${Array.isArray(value) ? 'an array' : typeof value}` });
    return undefined;
  }
  if (value === undefined || value === null) return undefined;
  const written = (value instanceof JsonNumber ? value.source : value).trim();
  const reading = readNumber(written, style);
  if (typeof reading !== 'object') return reading;
  problems.add({ reason: 'value', ...where, field, value: written, message: `${field} ${shownValue(written)} ${reading.message}`, hint: reading.hint, option: reading.option });
  return undefined;
}

/**
 * Positions a program passes to valuePositions, checked as a file's are: a PositionsError naming
 * the position (1-based) and the field, before anything is valued.
 */
export function checkPositions(positions: unknown): asserts positions is readonly Position[] {
  if (!Array.isArray(positions)) {
    throw new PositionsError('positions must be an array of {symbol, quantity, currency, cost?, cost_total?}', { reason: 'syntax' });
  }
  for (let i = 0; i < positions.length; i++) {
    const position = positions[i] as Partial<Record<keyof Position, unknown>> | null;
    if (position === null || typeof position !== 'object') throw new PositionsError('is not a position object', { reason: 'syntax', item: i + 1 });
    const item = i + 1;
    const { symbol, quantity, currency, cost, cost_total: costTotal } = position;
    if (typeof symbol !== 'string' || !SYMBOL_PATTERN.test(symbol)) {
      throw new PositionsError(typeof symbol === 'string' && FORMULA_START.test(symbol) ? `symbol ${shownValue(symbol)} is not a symbol: ${FORMULA_RULE}` : 'symbol must be 1 to 32 visible ASCII characters', { reason: 'value', item, field: 'symbol', value: typeof symbol === 'string' ? symbol : undefined });
    }
    // No array per position: this runs for every lot, before anything is fetched.
    checkDecimal('quantity', quantity, item);
    if (cost !== undefined) checkDecimal('cost', cost, item);
    if (costTotal !== undefined) checkDecimal('cost_total', costTotal, item);
    if (cost !== undefined && costTotal !== undefined) {
      throw new PositionsError('has both cost and cost_total; a position has one', { reason: 'value', item, field: 'cost_total' });
    }
    if (!isCurrency(currency)) {
      const text = typeof currency === 'string' ? currency : undefined;
      throw new PositionsError(text === undefined ? 'currency must be a currency code such as "USD"' : `currency ${shownValue(text)} ${currencyProblem(text)}`, {
        reason: currency === undefined ? 'no-currency' : 'value', item, field: 'currency', value: text,
      });
    }
  }
}

function checkDecimal(field: 'quantity' | 'cost' | 'cost_total', value: unknown, item: number): void {
  if (typeof value !== 'string' || !DECIMAL_SYNTAX.test(value)) {
    throw new PositionsError(`${field} must be a string holding a decimal number, such as "10" or "-2.5"`, {
      reason: 'value', item, field, value: typeof value === 'string' ? value : undefined,
    });
  }
  const bounds = decimalBoundsProblem(value);
  if (bounds !== undefined) throw new PositionsError(`${field} ${shownValue(value)} ${bounds.message}`, { reason: 'value', item, field, value });
}
