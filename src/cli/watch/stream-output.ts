// The watch in a pipe: NDJSON, CSV or TSV (the format a one-shot run would write), one line per quote
// per poll (or per changed quote with --changes-only), CSV's and TSV's header once before the first
// poll's lines, one write per poll so `mkt quotes EURUSD --watch | jq` sees each poll as it happens.
// Anything for people (throttling, errors, missing symbols) is a line on stderr (watch-warnings.ts).
import type { Format } from '../../render/formats.js';
import type { QuoteFieldName } from '../../render/quote-fields.js';
import { QUOTE_MODEL } from '../../render/quote-model.js';
import type { Terminal } from '../output/terminal.js';
import { streamResource } from '../output/writer.js';
import type { QuotePoll, WatchOutput } from './watch-output.js';
import { createWatchWarnings } from './watch-warnings.js';

export interface StreamOutputOptions {
  changesOnly: boolean;
  /** A format that streams (formats.ts); NDJSON by default. */
  format?: Format;
  /** --fields; the format's own by default. */
  fields?: readonly QuoteFieldName[];
}

export function createStreamOutput(terminal: Terminal, options: StreamOutputOptions): WatchOutput<QuotePoll> {
  const stream = streamResource(terminal, QUOTE_MODEL, { format: options.format ?? 'ndjson', fields: options.fields })
    ?? streamResource(terminal, QUOTE_MODEL, { format: 'ndjson', fields: options.fields })!;
  const warnings = createWatchWarnings(terminal);
  return {
    start() {},
    update({ result, ignored, changes, throttledUntil, at }) {
      const data = options.changesOnly ? result.data.filter((_quote, index) => changes[index]?.changed) : result.data;
      stream.write(data, at);
      warnings.afterPoll({ missing: result.missing, ignored, rateLimit: result.rateLimit, throttledUntil });
    },
    rateLimited: warnings.rateLimited,
    failed: warnings.failed,
    // Programs read the stream: it ends with the last poll's lines, whatever ended it.
    stop() {},
  };
}
