// JSON parsing that keeps every digit of every number: prices arrive as JSON numbers, and a float
// round trip turns 1.084150000000000001 into 1.08415 and 227.10 into 227.1. One parser on every
// Node: lossless-json hands each number over as its source text, and refuses a member name that
// appears twice with different values, which JSON.parse would settle silently by keeping the last
// (a quote with "symbol" twice). JSON.parse with a reviver reading `context.source` is ~20% faster
// at 10,000 quotes, but exists only from Node 21 and cannot see duplicates (docs/benchmarks.md).
import { parse } from 'lossless-json';

/** A JSON number as the exact text the service sent. */
export class JsonNumber {
  readonly source: string;

  constructor(source: string) {
    this.source = source;
  }

  toString(): string {
    return this.source;
  }
}

// JSON's number grammar: what a decimal (a price) may look like, as a number or a numeric string.
// The exponent is capped at three digits: 1e600000000 is valid JSON, and writing it out in plain
// notation for the table would take all the memory there is.
const DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d{1,3})?$/;

/**
 * The exact text of a decimal sent as a JSON number (already checked by the parser) or a numeric
 * string; undefined for anything else.
 */
export function decimalText(value: unknown): string | undefined {
  const text = value instanceof JsonNumber ? value.source : typeof value === 'string' ? value.trim() : undefined;
  return text !== undefined && DECIMAL.test(text) ? text : undefined;
}

const options = {
  parseNumber: (source: string) => new JsonNumber(source),
  onDuplicateKey: ({ position }: { position: number }): never => {
    throw new SyntaxError(`a member name appears twice in one object, at position ${position}`);
  },
};

/**
 * The value of `text`, numbers as JsonNumber. Throws a SyntaxError whose message gives a position,
 * never a piece of the text: a body can hold a secret.
 */
export function parseJsonExact(text: string): unknown {
  try {
    // A byte-order mark before the JSON is one a parser may ignore (RFC 8259 §8.1); so it is.
    return parse(withoutBom(text), null, options);
  } catch (error) {
    if (error instanceof SyntaxError && error.message.startsWith('a member name')) throw error;
    const position = /position (\d+)/.exec(String((error as Error).message))?.[1];
    throw new SyntaxError(position === undefined ? 'not valid JSON' : `not valid JSON at position ${position}`);
  }
}

/** `text` without a leading UTF-8 byte-order mark (U+FEFF once decoded). */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
