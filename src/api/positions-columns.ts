// Which column of a positions file (or member of a JSON position) holds which field: the field's
// own name, a synonym that can mean nothing else, or the caller's mapping (`columns`, the CLI's
// --columns), each matched without regard to case. Any other column is ignored, and named in a
// warning; a column named like a cost (Cost Basis, Avg Cost, Book Cost) is never guessed to be per
// unit or the lot's total: it is ignored until it is mapped, and the warning says how.
import { OptionsError } from './errors.js';
import { POSITION_FIELDS, type PositionField } from './position-fields.js';

/** The caller's mapping: a field to the name of its column, or '' for none (a column that would be read as it is ignored). */
export type ColumnMapping = Partial<Record<PositionField, string>>;

/**
 * The names read as each field without a mapping, after the field's own: unambiguous synonyms as
 * brokers' exports write them. Only names that can mean one thing: "Cost" alone is mkt's per-unit
 * cost, but "Cost Basis", "Avg Cost" and "Book Cost" are per unit in one export and totals in
 * another, so they are ignored until mapped.
 */
export const COLUMN_SYNONYMS: Readonly<Record<PositionField, readonly string[]>> = {
  symbol: ['ticker', 'ticker symbol'],
  quantity: ['qty', 'shares', 'units', 'qty (quantity)'],
  currency: ['ccy', 'currency code'],
  cost: ['unit cost', 'cost per unit', 'cost per share', 'cost/share', 'average cost per share', 'avg cost per share'],
  cost_total: ['total cost', 'cost basis total', 'total cost basis'],
};

/** A column's name as a mapping matches it: trimmed, runs of white space and underscores as one space (JSON's avg_cost), lower case. */
function columnKey(name: string): string {
  return name.trim().replace(/[\s_]+/g, ' ').toLowerCase();
}

/** As the names and synonyms match it, a camelCase name's words apart too (a Flex Query's CostBasisPrice). */
function wordsKey(name: string): string {
  return columnKey(name.replace(/([a-z])([A-Z])/g, '$1 $2'));
}

const BY_NAME = new Map<string, PositionField>();
for (const field of POSITION_FIELDS) {
  BY_NAME.set(columnKey(field), field);
  for (const synonym of COLUMN_SYNONYMS[field]) BY_NAME.set(columnKey(synonym), field);
}

/** Named like a cost, per unit or total, and not one the names above settle: ignored, with a word on mapping it. */
const COST_LIKE = /\b(?:costs?|basis)\b|\b(?:avg|average|purchase|entry)\b.*\bprice\b|\bprice paid\b|\bbook value\b/;

/** A mapping checked before anything is read: known fields, names as strings, no name given to two fields. */
export function checkColumnMapping(columns: unknown): Map<PositionField, string> {
  const mapping = new Map<PositionField, string>();
  if (columns === undefined) return mapping;
  const example = 'e.g. { symbol: "Ticker", quantity: "Shares", cost: "Avg Cost" }';
  if (columns === null || typeof columns !== 'object' || Array.isArray(columns)) {
    throw new OptionsError('INVALID_OPTIONS', `columns must map fields to column names, ${example}`, { option: 'columns' });
  }
  const owner = new Map<string, PositionField>();
  for (const [field, name] of Object.entries(columns)) {
    if (!(POSITION_FIELDS as readonly string[]).includes(field)) {
      throw new OptionsError('INVALID_OPTIONS', `columns names a field ${JSON.stringify(field.slice(0, 40))} that a position does not have; the fields are ${POSITION_FIELDS.join(', ')}`, { option: 'columns' });
    }
    if (name === undefined) continue;
    if (typeof name !== 'string') throw new OptionsError('INVALID_OPTIONS', `columns.${field} must be a column's name (a string), ${example}`, { option: 'columns' });
    const key = columnKey(name);
    const other = owner.get(key);
    if (key !== '' && other !== undefined) {
      throw new OptionsError('INVALID_OPTIONS', `columns maps both ${other} and ${field} to ${JSON.stringify(name.trim().slice(0, 40))}; a column holds one field`, { option: 'columns' });
    }
    owner.set(key, field as PositionField);
    mapping.set(field as PositionField, key);
  }
  return mapping;
}

/** What a header (or a JSON object's members) holds: each field's column, and the columns ignored. */
export interface ColumnPlan {
  /** The index of each field's column. */
  at: Partial<Record<PositionField, number>>;
  /** The columns no field is read from, as named (an unnamed one as `column 5 (no name)`). */
  ignored: string[];
  /** Those of them named like a cost, when no column gives a cost already: mapped, they would be read. */
  costLike: string[];
  /** Fields two columns claim (`Symbol` and `Ticker`), each with the names: a problem of the header. */
  twice: Array<{ field: PositionField; names: string[] }>;
  /** Fields the mapping names a column for that is not there. */
  unmapped: PositionField[];
}

/** Each field's column among `names`: the mapping's first, then the fields' names and synonyms. */
export function planColumns(names: readonly string[], mapping: ReadonlyMap<PositionField, string>): ColumnPlan {
  const at: ColumnPlan['at'] = {};
  const taken = new Array<boolean>(names.length).fill(false);
  const twice = new Map<PositionField, string[]>();
  const claim = (field: PositionField, index: number) => {
    const held = at[field];
    if (held === undefined) at[field] = index;
    else twice.set(field, [...(twice.get(field) ?? [names[held]!.trim()]), names[index]!.trim()]);
    taken[index] = true;
  };
  const keys = names.map(columnKey);
  const words = names.map(wordsKey);
  for (const [field, key] of mapping) {
    if (key === '') continue;
    for (let i = 0; i < keys.length; i++) if (keys[i] === key) claim(field, i);
  }
  for (let i = 0; i < keys.length; i++) {
    if (taken[i]) continue;
    const field = BY_NAME.get(words[i]!);
    // A field the mapping places (or leaves out, with '') is not read from a column of its name too.
    if (field !== undefined && !mapping.has(field)) claim(field, i);
  }
  const ignored: string[] = [];
  const costLike: string[] = [];
  // Once a column gives the cost, per unit or total, the others named like one are only ignored.
  const costSettled = at.cost !== undefined || at.cost_total !== undefined;
  for (let i = 0; i < names.length; i++) {
    if (taken[i]) continue;
    const name = names[i]!.trim();
    ignored.push(name === '' ? `column ${i + 1} (no name)` : name);
    // Not a column the mapping left out on purpose (cost_total= for a Cost Basis Total with $ signs).
    if (!costSettled && COST_LIKE.test(words[i]!) && BY_NAME.get(words[i]!) === undefined) costLike.push(name);
  }
  const unmapped = [...mapping].filter(([field, key]) => key !== '' && at[field] === undefined).map(([field]) => field);
  return { at, ignored, costLike, twice: [...twice].map(([field, both]) => ({ field, names: both })), unmapped };
}
