// The suite's one quote factory: a Quote as the client returns it, and its wire form.
import type { Quote } from '../../src/api/types.js';

/** When the factory's quotes were set, unless a test says otherwise. */
export const QUOTE_TIME = '2025-01-06T14:30:00.000Z';

export function quote(symbol: string, bid = '1.08505', ask = '1.08515', mid = '1.08510', timestamp = QUOTE_TIME): Quote {
  return { symbol, bid, ask, mid, timestamp };
}

/** The quote as the service writes it: prices as JSON numbers with every digit given, unchecked. */
function quoteJson({ symbol, bid, ask, mid, timestamp }: Quote): string {
  return `{"symbol":${JSON.stringify(symbol)},"bid":${bid},"ask":${ask},"mid":${mid},"timestamp":${JSON.stringify(timestamp)}}`;
}

/** A quotes response body holding these quotes, in the wire form. */
export function quotesJson(quotes: readonly Quote[]): string {
  return `{"data":[${quotes.map(quoteJson).join(',')}]}`;
}
