// JSON parsing that keeps every digit of every number: prices arrive as JSON numbers, and a float
// round trip turns 1.084150000000000001 into 1.08415 and 227.10 into 227.1. Node >= 21 hands the
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
  parser ??= hasSourceText() ? parseWithSourceText : await loadLosslessParser();
  return parser(text);
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
