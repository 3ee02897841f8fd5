// The watch's outputs for a resource drawn as its declared document (fields.ts), with no board of
// its own: the board is its table (the declaration's drawTable, or a column per field) with the
// resource's notes and a status line, in place on the alternate screen; on a dumb terminal the same
// table per poll under a heading; in a pipe one JSON document per poll on one line (every digit as
// the json format writes it), or its lines (its items, and any the declaration adds: a valuation's
// totals) a poll at a time in ndjson, csv or tsv. What the board
// would say in its status lines is a warning on stderr elsewhere (watch-warnings.ts).
import type { FieldSet } from '../../render/fields.js';
import { itemsOf } from '../../render/fields.js';
import { renderersFor, type Format } from '../../render/formats.js';
import { formatDuration } from '../../shared/duration.js';
import { printable } from '../../shared/text.js';
import { formatClock } from '../../shared/time.js';
import { scrubSecrets } from '../credentials/secrets.js';
import type { Terminal } from '../output/terminal.js';
import { streamResource } from '../output/writer.js';
import type { BoardOutput } from './board-output.js';
import { createLiveScreen } from './live-screen.js';
import type { OutputContext } from './watched-resource.js';
import type { PollStatus, PollUpdate, WatchOutput } from './watch-output.js';
import type { WatchStream } from './watch-settings.js';
import { createWatchWarnings, type PollNews } from './watch-warnings.js';

/** A resource whose watch draws its document. */
export interface DocumentWatch<R, T, N extends string, D> {
  model: FieldSet<T, N, D, unknown, unknown>;
  /** The document of a poll, as a one-shot run writes it. */
  document(result: R): D;
  /** Lines for people below the table, on the board and the tables (a valuation's change since the first poll). */
  notes?(result: R): readonly string[];
  /** What the warnings and the status line report of a poll. */
  news(result: R): Omit<PollNews, 'throttledUntil'>;
}

/** In a pipe: a document per poll (json, on one line), or the lines of each (ndjson, csv, tsv). */
export const DOCUMENT_PIPE: WatchStream = {
  formats: ['json', 'ndjson', 'csv', 'tsv'],
  name: 'a JSON document per poll, one per line',
  refusal: { reason: 'it cannot be written a poll at a time', hint: 'use --format json (a document per poll, one per line), ndjson, csv or tsv' },
};

/** The board: the table fitted to the width when the poll arrives, its notes, the status lines. */
export function createDocumentBoard<R, T, N extends string, D>(context: OutputContext<N>, watch: DocumentWatch<R, T, N, D>): BoardOutput<R> {
  const { deps, screen, terminal, settings } = context;
  const renderer = renderersFor(watch.model).table;
  let table: string[] = [];
  let notes: readonly string[] = [];
  let news: Omit<PollNews, 'throttledUntil'> = { missing: [], ignored: [], rateLimit: undefined };
  let status: PollStatus | undefined;
  let throttledUntil: number | undefined;
  let problem: string | undefined;
  let ended = false;
  const width = () => screen.widthOf(terminal.size().columns) ?? 80;
  const footer = () => {
    const parts = status === undefined ? ['waiting for the first poll'] : [`updated ${formatClock(status.at)}`, `poll ${status.polls}`];
    parts.push(`every ${formatDuration(settings.intervalMs)}`);
    const { limit, remaining } = news.rateLimit ?? {};
    if (remaining !== undefined) parts.push(limit === undefined ? `${remaining} requests left` : `${remaining}/${limit} left`);
    if (!ended) parts.push('q to quit');
    const lines = ['', parts.join(screen.ascii ? ' | ' : ' · ')];
    if (news.missing.length > 0) lines.push(`no quote for ${news.missing.map((symbol) => printable(symbol)).join(', ')}`);
    if (!ended && throttledUntil !== undefined) lines.push(`throttled until ${formatClock(throttledUntil)} (rate limit)`);
    if (!ended && problem !== undefined) lines.push(problem);
    return lines.map((line) => cut(line, width() - 1, screen.ascii ? '...' : '…'));
  };
  const frame = (rows: number | undefined) => {
    const below = [...notes, ...footer()];
    if (rows === undefined || table.length + below.length <= rows) return [...table, ...below];
    // The rows that fit, and a line saying how many do not: a frame never scrolls the screen.
    const room = Math.max(0, rows - below.length - 1);
    return [...table.slice(0, room), `${table.length - room} more lines; enlarge the window to see them`, ...below].slice(0, Math.max(1, rows));
  };
  const live = createLiveScreen(deps, screen, terminal, frame);
  return {
    start: live.start,
    async update(poll) {
      const text = await renderer.render(watch.document(poll), {
        fields: settings.fields, color: screen.color, now: poll.at, columns: width(), ascii: screen.ascii,
      });
      table = text.replace(/\n$/, '').split('\n');
      notes = watch.notes?.(poll) ?? [];
      news = watch.news(poll);
      status = poll;
      throttledUntil = poll.throttledUntil;
      problem = undefined;
      live.draw();
    },
    rateLimited(until) {
      throttledUntil = until;
      live.draw();
    },
    failed(error, retryAt) {
      // A diagnostic drawn with the data: scrubbed as stderr is (credentials/secrets.ts).
      problem = `retrying at ${formatClock(retryAt)}: ${printable(scrubSecrets(deps, error.message))}`;
      live.draw();
    },
    suspend: live.suspend,
    resume: live.resume,
    stop(finished, ending) {
      if (!live.active) return;
      ended = true;
      const last = finished && status !== undefined ? frame(undefined) : [];
      live.stop(finished && ending !== undefined ? [...last, ending] : last);
    },
  };
}

/** A terminal that cannot move its cursor: the table of each poll under a line saying which, in plain ASCII. */
export function createDocumentTables<R, T, N extends string, D>(context: OutputContext<N>, watch: DocumentWatch<R, T, N, D>): WatchOutput<R> {
  const { screen, terminal, settings } = context;
  const renderer = renderersFor(watch.model).table;
  const warnings = createWatchWarnings(screen);
  return {
    start() {},
    async update(poll) {
      const news = watch.news(poll);
      const heading = [`poll ${poll.polls}`, `updated ${formatClock(poll.at)}`, `every ${formatDuration(settings.intervalMs)}`];
      const { limit, remaining } = news.rateLimit ?? {};
      if (remaining !== undefined) heading.push(limit === undefined ? `${remaining} requests left` : `${remaining}/${limit} left`);
      const table = await renderer.render(watch.document(poll), {
        fields: settings.fields, color: screen.color, now: poll.at, columns: screen.widthOf(terminal.size().columns), ascii: true,
      });
      const notes = (watch.notes?.(poll) ?? []).map((line) => `${line}\n`).join('');
      // One write per poll, a blank line between polls.
      screen.stdout.write(`${poll.polls > 1 ? '\n' : ''}${heading.join(' | ')}\n${table}${notes}`);
      warnings.afterPoll({ ...news, throttledUntil: poll.throttledUntil });
    },
    rateLimited: warnings.rateLimited,
    failed: warnings.failed,
    stop(finished, ending) {
      if (finished && ending !== undefined) screen.stdout.write(`${ending}\n`);
    },
  };
}

/** In a pipe: JSON, a document per poll on one line; NDJSON, CSV or TSV, the lines of each poll. */
export function createDocumentStream<R, T, N extends string, D>(context: OutputContext<N>, watch: DocumentWatch<R, T, N, D>): WatchOutput<R> {
  const { screen, settings } = context;
  const warnings = createWatchWarnings(screen);
  const write = documentWriter(screen, watch, settings.format, settings.fields);
  return {
    start() {},
    async update(poll) {
      await write(poll);
      warnings.afterPoll({ ...watch.news(poll), throttledUntil: poll.throttledUntil });
    },
    rateLimited: warnings.rateLimited,
    failed: warnings.failed,
    // Programs read the stream: it ends with the last poll's, whatever ended it.
    stop() {},
  };
}

function documentWriter<R, T, N extends string, D>(
  screen: Terminal, watch: DocumentWatch<R, T, N, D>, format: Format, fields: readonly N[] | undefined,
): (poll: PollUpdate<R>) => Promise<void> {
  if (format === 'json') {
    const renderer = renderersFor(watch.model).json;
    return async (poll) => {
      const text = await renderer.render(watch.document(poll), { fields, color: false, now: poll.at, columns: undefined, ascii: screen.ascii });
      // The document's own line breaks and indents are all outside its strings (JSON escapes a line
      // break inside one): removed, it is the same document on one line.
      screen.stdout.write(`${text.replace(/\n */g, '')}\n`);
    };
  }
  const stream = streamResource(screen, watch.model, { format, fields });
  if (stream === undefined) throw new Error(`${format} does not stream`);
  // The lines a one-shot run writes: the items, and what the declaration adds after them (a valuation's totals).
  return async (poll) => {
    const document = watch.document(poll);
    stream.write(watch.model.lines?.(document) ?? itemsOf(watch.model, document), poll.at);
  };
}

/** A status line cut to the width, ending in `ellipsis`. */
function cut(line: string, width: number, ellipsis: string): string {
  return line.length <= width ? line : `${line.slice(0, Math.max(0, width - ellipsis.length))}${ellipsis}`;
}
