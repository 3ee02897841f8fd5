// What a command writes on stdout, through one of these, for the run's terminal (terminal.ts), as
// gh's Exporter writes any data: a declared resource in the chosen format with --fields
// (writeResource), or its watch's stream (streamResource); a report that is not a list (writeReport,
// writeJson); a setting or a few lines (writeLines). A command needs no colour, width, character or
// clock code of its own: the terminal holds them, the resource's declaration (src/render/fields.ts)
// holds the rest.
import type { FieldSet } from '../../render/fields.js';
import { renderersFor, type Format } from '../../render/formats.js';
import { printable, safeJson } from '../../shared/text.js';
import type { Terminal } from './terminal.js';

export interface WriteOptions<N extends string> {
  /** The format chosen (options/format.ts: chooseFormat). */
  format: Format;
  /** --fields, checked against the format (options/format.ts: parseFields); undefined: the format's own. */
  fields?: readonly N[];
  /** The instant ages are counted from; the terminal's clock when not given. */
  now?: number;
}

/**
 * Writes a document of a declared resource on stdout, in the format chosen: a table fitted to the
 * terminal (in colour when it may be), TSV, CSV, JSON or NDJSON, each with the fields asked for. A
 * library result is a document as it is: only the members the declaration names are written.
 */
export async function writeResource<T, N extends string, D>(terminal: Terminal, resource: FieldSet<T, N, D, unknown, unknown>, document: NoInfer<D>, options: WriteOptions<N>): Promise<void> {
  const renderer = renderersFor(resource)[options.format];
  terminal.stdout.write(await renderer.render(document, {
    fields: options.fields, color: terminal.color, now: options.now ?? terminal.now(), columns: terminal.columns, ascii: terminal.ascii,
  }));
}

/** A resource's items written a batch at a time (a watch's polls): the header once, with the first batch. */
export interface ResourceStream<T> {
  write(items: readonly T[], now: number): void;
}

/** The stream of a format that can grow a batch at a time (tsv, csv, ndjson); undefined for one that cannot (json, table). */
export function streamResource<T, N extends string, D>(
  terminal: Terminal, resource: FieldSet<T, N, D, unknown, unknown>, options: Omit<WriteOptions<N>, 'now'>,
): ResourceStream<T> | undefined {
  const renderer = renderersFor(resource)[options.format];
  const stream = renderer.stream;
  if (stream === undefined) return undefined;
  const fields = options.fields ?? renderer.fields;
  let headed = false;
  return {
    write(items, now) {
      // The header with the first batch, not before: a watch that fails at once writes nothing.
      const text = (headed ? '' : stream.header(fields)) + stream.rows(items, fields, now);
      headed = true;
      if (text !== '') terminal.stdout.write(text);
    },
  };
}

export interface ReportOptions<R> {
  /** --json: the report as JSON, its schema as it is. */
  json: boolean;
  /** The report as a person reads it, for this terminal. */
  text(report: R, terminal: Terminal): string;
}

/** A report that is not a list of items (mkt status): its JSON when asked for, else its text. */
export function writeReport<R>(terminal: Terminal, report: R, options: ReportOptions<R>): void {
  if (options.json) writeJson(terminal, report);
  else terminal.stdout.write(options.text(report, terminal));
}

/**
 * A JSON document on stdout: JSON.stringify with a two-space indent, with the characters a terminal
 * would act on escaped (safeJson). For prices with every digit, declare a resource instead.
 */
export function writeJson(terminal: Terminal, value: unknown): void {
  terminal.stdout.write(`${safeJson(value, 2)}\n`);
}

/**
 * Lines on stdout, each made safe for a terminal (printable): a setting read from a file, a list of
 * them. Nothing but control characters, bidi overrides and line separators is removed.
 */
export function writeLines(terminal: Terminal, lines: readonly string[]): void {
  terminal.stdout.write(lines.map((line) => `${printable(line)}\n`).join(''));
}
