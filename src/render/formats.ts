// The output formats, one renderer each, all reading a resource's declared fields (fields.ts):
// renderersFor(model) gives any declared resource every format with no code of its own. A renderer
// draws a whole result (mkt quotes); a format that can grow a poll at a time (a header once, then
// lines) also streams for --watch. JSON is one document and cannot; the quotes table's live form is
// the board (board.ts).
import type { Quote } from '../api/types.js';
import { fieldsOf, QUOTE_MODEL, type FieldName, type FieldSet } from './fields.js';
import { csvHeader, csvRows, jsonText, ndjsonText, tsvHeader, tsvRows, type View } from './quotes.js';

export const FORMATS = ['table', 'tsv', 'json', 'ndjson', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

export function isFormat(value: string): value is Format {
  return (FORMATS as readonly string[]).includes(value);
}

export interface RenderOptions<N extends string = FieldName> {
  /** The fields, in order; each format's own by default. */
  fields?: readonly N[];
  color: boolean;
  /** Milliseconds since the epoch, for ages. */
  now: number;
  maxAgeMs: number | undefined;
  /** The terminal's width; undefined where unknown (a pipe): the table is drawn whole. */
  columns: number | undefined;
  ascii: boolean;
}

/** A format that streams: its header once, then each poll's lines. */
export interface StreamRenderer<T = Quote, N extends string = FieldName> {
  header(fields: readonly N[]): string;
  rows(data: readonly T[], fields: readonly N[], now: number): string;
}

export interface Renderer<T = Quote, N extends string = FieldName> {
  /** The fields it writes unless told otherwise. */
  fields: readonly N[];
  render(view: View<T>, options: RenderOptions<N>): string | Promise<string>;
  stream?: StreamRenderer<T, N>;
}

/** Every format for a declared resource: tsv, csv, json and ndjson write the sent fields, the table its own. */
export function renderersFor<T, N extends string>(model: FieldSet<T, N>): Record<Format, Renderer<T, N>> {
  const sent = (names: readonly N[] | undefined) => fieldsOf(model, names ?? model.sent);
  return {
    table: {
      fields: model.table,
      async render(view, options) {
        // chalk loads only when a table is drawn.
        const { fieldTable } = await import('./table.js');
        return fieldTable(view.data, fieldsOf(model, options.fields ?? model.table), options);
      },
    },
    tsv: {
      fields: model.sent,
      render: (view, options) => tsvHeader(options.fields ?? model.sent) + tsvRows(view.data, sent(options.fields), options.now),
      stream: { header: tsvHeader, rows: (data, names, now) => tsvRows(data, sent(names), now) },
    },
    csv: {
      fields: model.sent,
      render: (view, options) => csvHeader(options.fields ?? model.sent) + csvRows(view.data, sent(options.fields), options.now),
      stream: { header: csvHeader, rows: (data, names, now) => csvRows(data, sent(names), now) },
    },
    json: {
      fields: model.sent,
      render: (view, options) => jsonText(view, sent(options.fields), options.now),
    },
    ndjson: {
      fields: model.sent,
      render: (view, options) => ndjsonText(view.data, sent(options.fields), options.now),
      stream: { header: () => '', rows: (data, names, now) => ndjsonText(data, sent(names), now) },
    },
  };
}

/**
 * Quotes' renderers: every format as declared, except the table, which is quotes' own (table.ts: the
 * spread, the age, and marks for crossed, locked, stale and impossible quotes; the board's columns).
 */
export const RENDERERS: Readonly<Record<Format, Renderer>> = {
  ...renderersFor(QUOTE_MODEL),
  table: {
    fields: QUOTE_MODEL.table,
    async render(view, options) {
      const { renderTable } = await import('./table.js');
      return renderTable(view.data, { ...options, fields: options.fields ?? QUOTE_MODEL.table });
    },
  },
};
