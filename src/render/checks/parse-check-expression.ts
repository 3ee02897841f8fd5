// The text of one check, `[SYMBOL.]FIELD OP VALUE`, read into its parts; what the parts mean (is the
// field known, is the value a decimal or a duration, was the symbol asked for) is compile-checks.ts'.
//
// The field is after the last dot, so symbols with dots need nothing special (`VOD.L.bid > 100`). A
// symbol may hold any visible ASCII character; one that holds an operator character (< > = !) or
// starts with a double quote is written in double quotes, a quote inside doubled, as SQL quotes a
// name: `"A<B".bid > 1`, `"SAY""HI".ask < 2`. Spaces around the operator are optional.
import { UsageError } from '../../shared/errors.js';
import { SYMBOL_PATTERN, symbolRule } from '../../shared/patterns.js';
import { printable } from '../../shared/text.js';

const CHECK_OPERATORS = ['<', '<=', '>', '>=', '==', '!='] as const;
export type CheckOperator = (typeof CHECK_OPERATORS)[number];

export interface CheckExpression {
  /** The expression as typed, trimmed: how messages and the JSON report name it. */
  text: string;
  /** Upper-cased, as mkt quotes upper-cases symbols; undefined: the check applies to every row. */
  symbol: string | undefined;
  /** Lower-cased: field names are case-insensitive. */
  field: string;
  op: CheckOperator;
  /** As typed, trimmed: a decimal or a duration, which compile-checks.ts decides by the field. */
  value: string;
}

/** Longer than any sensible check (a 32-character symbol, a field, a long decimal) and short enough to quote whole. */
const MAX_EXPRESSION_LENGTH = 200;
const OPERATOR_CHARACTERS = /[<>=!]/;
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What a check looks like, with a resource's own `examples`. */
function checkForm(examples: readonly string[]): string {
  return `a check is [SYMBOL.]FIELD OP VALUE, e.g. ${examples.join(' or ')}, with OP one of < <= > >= == !=`;
}

/** Suggestions for operators people write from other languages. */
const DID_YOU_MEAN: Readonly<Record<string, CheckOperator>> = { '=': '==', '===': '==', '!==': '!=', '<>': '!=', '=>': '>=', '=<': '<=' };

/** `flag` (`--check`, `--until`) is named in every error, with the expression; `examples`: the resource's (CheckModel.examples). */
export function parseCheckExpression(input: string, flag: string, examples: readonly string[] = ['EURUSD.bid > 1.08', 'spread <= 0.0002']): CheckExpression {
  const text = input.trim();
  const fail = (problem: string, hint: string = checkForm(examples)): never => {
    throw new UsageError(`${flag} ${quoteForMessage(text)}: ${problem}`, hint);
  };
  if (text === '') fail('the check is empty');
  if (text.length > MAX_EXPRESSION_LENGTH) fail(`the check is longer than ${MAX_EXPRESSION_LENGTH} characters`);
  const other = /[^\x20-\x7e]/u.exec(text);
  // Named by its code point: shown as it is, it may be invisible (a control character, dropped from
  // the message) or look like ASCII (a no-break space, a fullwidth dot).
  if (other !== null) fail(`a check is visible ASCII characters and spaces only; character ${[...text.slice(0, other.index)].length + 1} is ${codePoint(other[0])}`);

  let symbol: string | undefined;
  let field: string;
  let rest: string;
  if (text.startsWith('"')) {
    const quoted = readQuoted(text);
    if (quoted === undefined) return fail('the quoted symbol has no closing quote', 'a quote inside a quoted symbol is doubled: "SAY""HI".bid > 1');
    symbol = quoted.symbol;
    const after = /^\.([A-Za-z0-9_]*)/.exec(text.slice(quoted.end));
    if (after === null) return fail(`a quoted symbol is followed by a dot and a field: ${quoteSymbol(symbol)}.bid`);
    field = after[1]!;
    rest = text.slice(quoted.end + after[0].length);
  } else {
    const at = text.search(OPERATOR_CHARACTERS);
    if (at === -1) return fail('it has no operator');
    const left = text.slice(0, at).trim();
    if (left === '') return fail('it names no field before the operator');
    if (/\s/.test(left)) return fail(`"${left}" has a space in it: a symbol or a field has none`);
    const dot = left.lastIndexOf('.');
    symbol = dot === -1 ? undefined : left.slice(0, dot);
    field = left.slice(dot + 1);
    if (symbol === '') fail('it names no symbol before the dot');
    rest = text.slice(at);
  }
  if (field === '') fail('it names no field after the dot');
  if (!FIELD_NAME.test(field)) fail(`"${field}" is not a field name`);
  if (symbol !== undefined && !SYMBOL_PATTERN.test(symbol)) fail(`"${symbol}" is not a symbol: ${symbolRule(symbol)}`);

  const operator = /^\s*([<>=!]+)/.exec(rest);
  if (operator === null) return fail(`an operator comes after ${field}`);
  const op = operator[1]!;
  if (!isOperator(op)) {
    const suggestion = DID_YOU_MEAN[op];
    return fail(`unknown operator "${op}"${suggestion === undefined ? '' : `; did you mean ${suggestion}?`}`);
  }
  const value = rest.slice(operator[0].length).trim();
  if (value === '') fail(`it has no value after ${op}`);
  return { text, symbol: symbol?.toUpperCase(), field: field.toLowerCase(), op, value };
}

function isOperator(text: string): text is CheckOperator {
  return (CHECK_OPERATORS as readonly string[]).includes(text);
}

/** The symbol between the opening quote at 0 and its closing quote (`""` is one quote), and the index after it. */
function readQuoted(text: string): { symbol: string; end: number } | undefined {
  let symbol = '';
  for (let index = 1; index < text.length; index++) {
    if (text[index] !== '"') {
      symbol += text[index];
    } else if (text[index + 1] === '"') {
      symbol += '"';
      index++;
    } else {
      return { symbol, end: index + 1 };
    }
  }
  return undefined;
}

/** A symbol as an expression writes it: in double quotes when it holds an operator character, a space or a leading quote. */
export function quoteSymbol(symbol: string): string {
  return /[<>=!\s]/.test(symbol) || symbol.startsWith('"') ? `"${symbol.replaceAll('"', '""')}"` : symbol;
}

/** The expression in double quotes for a message, made printable and shortened to 80 characters. */
export function quoteForMessage(text: string): string {
  return printable(text, { max: 80, quote: true });
}

/** `U+00A0`: a character as Unicode names it. */
function codePoint(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
