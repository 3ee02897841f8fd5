// The watch in a pipe: NDJSON, CSV or TSV (the format a one-shot run would write), one line per quote
// per poll (or per changed quote with --changes-only), CSV's and TSV's header once before the first
// poll's lines, one write per poll so `mkt quotes EURUSD --watch | jq` sees each poll as it happens.
// Anything for people (throttling, errors, missing symbols) is a line on stderr (watch-warnings.ts).
import type { FieldName } from '../../render/fields.js';
import { RENDERERS, type Format } from '../../render/formats.js';
import type { Deps } from '../deps.js';
import type { WatchOutput } from './watch-output.js';
import { createWatchWarnings } from './watch-warnings.js';

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
  const warnings = createWatchWarnings(deps);
  return {
    start() {},
    update({ result, ignored, changes, throttledUntil, at }) {
      const data = options.changesOnly ? result.data.filter((_quote, index) => changes[index]?.changed) : result.data;
      // The header with the first answer, not before: a watch that fails at once writes nothing.
      const text = (headed ? '' : stream.header(fields)) + stream.rows(data, fields, at);
      headed = true;
      if (text !== '') deps.io.stdout.write(text);
      warnings.afterPoll({ result, ignored, throttledUntil });
    },
    rateLimited: warnings.rateLimited,
    failed: warnings.failed,
    stop() {},
  };
}
