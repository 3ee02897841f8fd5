// Expressions checked against a resource's CheckModel before any request: the field is known, the
// symbol was asked for, the value is a decimal for a decimal field and a duration for a duration
// field. Whatever is wrong is a UsageError (exit 2) naming the flag and the expression.
import Big from 'big.js';
import { parseDuration } from '../../shared/duration.js';
import { UsageError } from '../../shared/errors.js';
import { pairSpelling, pairSpellingNote } from '../../shared/pair-spelling.js';
import type { CheckField, CheckKind, CheckModel } from './check-model.js';
import { parseCheckExpression, quoteForMessage, quoteSymbol, type CheckExpression, type CheckOperator } from './parse-check-expression.js';

/** The value compared against: an exact decimal, or whole milliseconds. */
export type CheckBound = { kind: 'decimal'; value: Big } | { kind: 'duration'; ms: number };

interface CheckBase {
  /** As typed, trimmed. */
  expression: string;
  /** Upper-cased; undefined: every row. */
  symbol: string | undefined;
  op: CheckOperator;
  /** The value as typed (`1.0`, `30s`). */
  expected: string;
  bound: CheckBound;
}

interface RowCheck<T> extends CheckBase {
  scope: 'row';
  field: CheckField<T>;
}

interface DocumentCheck<D> extends CheckBase {
  scope: 'document';
  field: CheckField<D>;
  symbol: undefined;
}

export type Check<T, D = never> = RowCheck<T> | DocumentCheck<D>;

/** Checks ready to evaluate, with the model they were compiled against. */
export interface CheckSet<T, D = never> {
  model: CheckModel<T, D>;
  checks: readonly Check<T, D>[];
}

export interface CompileOptions {
  /** The flag named in errors: `--check`, `--until`. */
  flag: string;
  /** The symbols asked for, upper-cased; a check naming another is refused. Undefined: any symbol. */
  keys?: readonly string[];
}

/** Decimal text as big.js reads it, with an optional `+`; at most a three-digit exponent, as the service's numbers. */
const DECIMAL_VALUE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,3})?$/;
/** A duration with its unit: a bare number is a decimal, refused for a duration field. */
const DURATION_VALUE = /^\d+(?:\.\d+)?\s*(?:ms|s|m|h)$/;

export function compileChecks<T, D = never>(expressions: readonly string[], model: CheckModel<T, D>, options: CompileOptions): CheckSet<T, D> {
  const keys = options.keys === undefined ? undefined : new Set(options.keys);
  const checks = expressions.map((input): Check<T, D> => {
    const parsed = parseCheckExpression(input, options.flag, model.examples);
    const where = `${options.flag} ${quoteForMessage(parsed.text)}`;
    const rowField = model.fields.find((field) => field.name === parsed.field);
    const documentField = model.documentFields?.find((field) => field.name === parsed.field);
    if (rowField === undefined && documentField === undefined) {
      throw new UsageError(`${where}: unknown field "${parsed.field}"; ${fieldList(model)}`, unknownFieldHint(parsed, model, keys));
    }
    if (parsed.symbol !== undefined && keys !== undefined && !keys.has(parsed.symbol)) {
      const asked = [...keys];
      // EUR/USD in the check and EURUSD asked for, or the other way round: the one spelling meant.
      const spelt = pairSpelling(parsed.symbol);
      const askedAsPair = asked.find((key) => pairSpelling(key) === parsed.symbol);
      const pairWords = spelt !== undefined && keys.has(spelt)
        ? `did you mean ${spelt}? ${pairSpellingNote([parsed.symbol])}; `
        : askedAsPair === undefined ? '' : `ask for ${parsed.symbol}: ${pairSpellingNote([askedAsPair])}; `;
      throw new UsageError(`${where}: ${parsed.symbol} is not among the symbols asked for`,
        `${pairWords}the symbols asked for: ${asked.slice(0, 10).join(', ')}${asked.length > 10 ? ` and ${asked.length - 10} more` : ''}; add it, or leave the symbol out to check every row`);
    }
    const base = { expression: parsed.text, op: parsed.op, expected: parsed.value };
    if (documentField !== undefined) {
      if (parsed.symbol !== undefined) {
        throw new UsageError(`${where}: ${documentField.name} belongs to the whole result, not to a symbol`, `write it without a symbol: ${documentField.name} ${parsed.op} ${parsed.value}`);
      }
      return { ...base, scope: 'document', symbol: undefined, field: documentField, bound: boundFor(documentField.name, documentField.kind, parsed.value, where) };
    }
    return { ...base, scope: 'row', symbol: parsed.symbol, field: rowField!, bound: boundFor(rowField!.name, rowField!.kind, parsed.value, where) };
  });
  return { model, checks };
}

function boundFor(name: string, kind: CheckKind, value: string, where: string): CheckBound {
  const isDecimal = DECIMAL_VALUE.test(value);
  const isDuration = DURATION_VALUE.test(value);
  if (kind === 'decimal') {
    if (isDuration) throw new UsageError(`${where}: ${name} is a decimal, not a duration`, `compare it with a number: ${name} > 1.0842`);
    if (!isDecimal) throw new UsageError(`${where}: "${value}" is not a decimal`, 'a decimal such as 1.0842, -0.5 or 1e-7');
    return { kind, value: new Big(value.replace(/^\+/, '')) };
  }
  if (isDecimal) throw new UsageError(`${where}: ${name} is a duration: give its unit, as in 30s, 500ms, 2m or 1h, not ${value}`, `for example ${name} < ${value}s`);
  if (!isDuration) throw new UsageError(`${where}: "${value}" is not a duration`, 'a duration such as 30s, 500ms, 2m or 1h');
  return { kind, ms: parseDuration(value, where) };
}

/**
 * The hint for an unknown field: an example with the model's own field, and the expression's symbol,
 * operator and value. A name without a symbol that looks like one (`EURUSD > 1`: upper case, or one
 * of the symbols asked for) is taken for a symbol where a field goes, and the hint says so.
 */
function unknownFieldHint<T, D>(parsed: CheckExpression, model: CheckModel<T, D>, keys: ReadonlySet<string> | undefined): string {
  const field = model.exampleField ?? model.fields.find((candidate) => candidate.kind === 'decimal')?.name ?? model.fields[0]?.name ?? 'value';
  const value = DECIMAL_VALUE.test(parsed.value) ? parsed.value : '1';
  if (parsed.symbol !== undefined) return `for example ${quoteSymbol(parsed.symbol)}.${field} ${parsed.op} ${value}`;
  // Without a symbol the expression is unquoted, and the name as typed is all before the operator.
  const typed = parsed.text.slice(0, parsed.text.search(/[<>=!]/)).trim();
  const symbolLike = keys?.has(typed.toUpperCase()) === true || (/[A-Z]/.test(typed) && !/[a-z]/.test(typed));
  return symbolLike
    ? `a check on one symbol names a field after the symbol: ${typed.toUpperCase()}.${field} ${parsed.op} ${value}`
    : `for example ${field} ${parsed.op} ${value}`;
}

/** `fields: bid, ask (of each row) ; total_base (of the whole result)` for the hint. */
function fieldList<T, D>(model: CheckModel<T, D>): string {
  const rows = model.fields.map((field) => field.name).join(', ');
  const document = model.documentFields?.map((field) => field.name) ?? [];
  return document.length === 0 ? `the fields: ${rows}` : `the fields of each row: ${rows}; of the whole result: ${document.join(', ')}`;
}
