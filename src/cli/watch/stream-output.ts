// The watch in a pipe: NDJSON, CSV or TSV (the format a one-shot run would write), one line per quote
// per poll (or per changed quote with --changes-only), CSV's and TSV's header once before the first
// poll's lines, one write per poll so `mkt quotes EURUSD --watch | jq` sees each poll as it happens.
// Anything for people (throttling, errors, missing symbols) is a line on stderr.
import { formatClock } from '../../shared/time.js';
import type { FieldName } from '../../render/fields.js';
import { RENDERERS, type Format } from '../../render/formats.js';
import { cellText } from '../../render/quotes.js';
import { stripControl } from '../../shared/text.js';
import type { Deps } from '../deps.js';
import type { WatchOutput } from './watch-output.js';

export interface StreamOutputOptions {
  changesOnly: boolean;
  /** A format that streams (formats.ts); NDJSON by default. */
  format?: Format;
  /** --fields; the format's own by default. */
  fields?: readonly FieldName[];
}

export function createStreamOutput(deps: Deps, options: StreamOutputOptions): WatchOutput {
  const renderer = RENDERERS[options.format ?? 'ndjson'];
  const stream = renderer.stream ?? RENDERERS.ndjson.stream!;
  const fields = options.fields ?? renderer.fields;
  let headed = false;
  let missingBefore = '';
  let throttled = false;
  let warnedIgnored = false;
  const warn = (text: string) => deps.io.stderr.write(`warning: ${text}\n`);
  return {
    start() {},
    update({ result, ignored, changes, throttledUntil, at }) {
      // Once: a service that sends unasked symbols tends to do so at every poll.
      if (ignored.length > 0 && !warnedIgnored) {
        warnedIgnored = true;
        warn(`the service sent quotes for symbols not asked for (${listSome(ignored)}); the watch leaves them out`);
      }
      const data = options.changesOnly ? result.data.filter((_quote, index) => changes[index]?.changed) : result.data;
      // The header with the first answer, not before: a watch that fails at once writes nothing.
      const text = (headed ? '' : stream.header(fields)) + stream.rows(data, fields, at);
      headed = true;
      if (text !== '') deps.io.stdout.write(text);
      // Missing symbols are reported when the set changes, not on every poll.
      const missing = result.missing.map(stripControl).join(', ');
      if (missing !== missingBefore && missing !== '') warn(`no quote for ${missing}`);
      missingBefore = missing;
      // One line per throttling episode, not one per poll.
      if (throttledUntil !== undefined && !throttled) {
        const left = result.rateLimit?.remaining ?? 0;
        warn(`close to the rate limit (${left} request${left === 1 ? '' : 's'} left); throttled until ${formatClock(throttledUntil)}`);
      }
      throttled = throttledUntil !== undefined;
    },
    rateLimited(until) {
      warn(`rate limited by the service; throttled until ${formatClock(until)}`);
      throttled = true;
    },
    failed(error, retryAt, failures) {
      warn(`${stripControl(error.message)}; retrying at ${formatClock(retryAt)}${failures > 1 ? ` (${failures} failures in a row)` : ''}`);
    },
    stop() {},
  };
}

function listSome(symbols: readonly string[]): string {
  const shown = symbols.slice(0, 5).map(cellText).join(', ');
  return symbols.length > 5 ? `${shown} and ${symbols.length - 5} more` : shown;
}
