// JSON parsing that keeps every digit of every number: prices arrive as JSON numbers, and a float
// round trip turns 1.084150000000000001 into 1.08415 and 227.10 into 227.1. The fast way, on every
// Node: the built-in JSON.parse for the structure, and one regular-expression pass over the text
// for the numbers' source. Where that cannot be proven right for a body, Node >= 21 hands the
// reviver each number's source text; Node 20 cannot, so there lossless-json parses instead.

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

type Parse = (text: string) => unknown;
let parser: Parse | undefined;

export async function parseJsonExact(text: string): Promise<unknown> {
  const value: unknown = JSON.parse(text);
  if (withNumberSources(value, text)) return value;
  parser ??= hasSourceText() ? parseWithSourceText : await loadLosslessParser();
  return parser(text);
}

// In JSON text a number follows a member name's closing quote and colon, or an array's bracket or
// comma. Every member name and every number JSON.parse read matches here, the numbers whole (JSON.parse
// checked their grammar). Inside a string a quote is always escaped, so a string can add matches
// ("x\\":1", "a[1", "1,5") but never hide one: equal counts prove there are none.
const NAME_OR_NUMBER = /"\s*:\s*(-?\d[\d.eE+-]*)?|[[,]\s*(-?\d[\d.eE+-]*)/g;

/**
 * Replaces each number in `value` (just parsed from `text`) with its JsonNumber. True when done;
 * false, with `value` left half done, when that cannot be proven right: when the member names and
 * numbers in the text and in the value do not line up one for one and in order (a string that
 * looks like JSON, a duplicate name, of which JSON.parse keeps the last), when a name looks like an
 * array index (V8 puts those first), or when the nesting is too deep to walk.
 */
function withNumberSources(value: unknown, text: string): boolean {
  const sources: string[] = [];
  let names = 0;
  NAME_OR_NUMBER.lastIndex = 0;
  for (let match = NAME_OR_NUMBER.exec(text); match !== null; match = NAME_OR_NUMBER.exec(text)) {
    const source = match[1] ?? match[2];
    if (source !== undefined) sources.push(source);
    if (match[0].charCodeAt(0) === 0x22) names++;
  }
  let next = 0;
  let seenNames = 0;
  // One value of an array or object: a number becomes its source, if the next one in the text has
  // the same value; an array or object is walked.
  const visit = (container: Record<string | number, unknown>, key: string | number): boolean => {
    const item = container[key];
    if (typeof item === 'object' && item !== null) return walk(item);
    if (typeof item !== 'number') return true;
    const source = sources[next++];
    if (source === undefined || Number(source) !== item) return false;
    container[key] = new JsonNumber(source);
    return true;
  };
  const walk = (node: object): boolean => {
    const container = node as Record<string | number, unknown>;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) if (!visit(container, i)) return false;
      return true;
    }
    for (const key in container) {
      seenNames++;
      const first = key.charCodeAt(0);
      if ((first >= 0x30 && first <= 0x39) || key === '__proto__' || !visit(container, key)) return false;
    }
    return true;
  };
  try {
    if (typeof value !== 'object' || value === null) return sources.length === 0 && names === 0 && typeof value !== 'number';
    return walk(value) && next === sources.length && seenNames === names;
  } catch (error) {
    if (error instanceof RangeError) return false;
    throw error;
  }
}

function hasSourceText(): boolean {
  try {
    return JSON.parse('1', (_key, _value, context?: { source?: string }) => context?.source) === '1';
  } catch {
    return false;
  }
}

function parseWithSourceText(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' && context?.source !== undefined ? new JsonNumber(context.source) : value);
}

async function loadLosslessParser(): Promise<Parse> {
  const { parse } = await import('lossless-json');
  const options = {
    parseNumber: (source: string) => new JsonNumber(source),
    // JSON.parse keeps the last of duplicate keys; lossless-json would throw.
    onDuplicateKey: (info: { newValue: unknown }) => info.newValue,
  };
  return (text) => parse(text, null, options);
}
