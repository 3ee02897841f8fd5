// The output formats of mkt quotes, one renderer each, all reading the fields declared in fields.ts.
// A renderer draws a whole result (mkt quotes); a format that can grow a poll at a time (a header
// once, then lines) also streams for --watch. JSON is one document and cannot; the table's live
// form is the board (board.ts).
import type { Quote } from '../api/types.js';
import { SENT_FIELDS, TABLE_FIELDS, type FieldName } from './fields.js';
import { csvHeader, csvRows, renderCsv, renderJson, renderNdjson, renderTsv, tsvHeader, tsvRows, type QuotesView } from './quotes.js';

export const FORMATS = ['table', 'tsv', 'json', 'ndjson', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

export function isFormat(value: string): value is Format {
  return (FORMATS as readonly string[]).includes(value);
}

export interface RenderOptions {
  /** The fields, in order; each format's own by default. */
  fields?: readonly FieldName[];
  color: boolean;
  /** Milliseconds since the epoch, for ages. */
  now: number;
  maxAgeMs: number | undefined;
  /** The terminal's width; undefined where unknown (a pipe): the table is drawn whole. */
  columns: number | undefined;
  ascii: boolean;
}

/** A format that streams: its header once, then each poll's lines. */
export interface StreamRenderer {
  header(fields: readonly FieldName[]): string;
  rows(data: readonly Quote[], fields: readonly FieldName[], now: number): string;
}

export interface Renderer {
  /** The fields it writes unless told otherwise. */
  fields: readonly FieldName[];
  render(view: QuotesView, options: RenderOptions): string | Promise<string>;
  stream?: StreamRenderer;
}

export const RENDERERS: Readonly<Record<Format, Renderer>> = {
  table: {
    fields: TABLE_FIELDS,
    async render(view, options) {
      // chalk loads only when a table is drawn.
      const { renderTable } = await import('./table.js');
      return renderTable(view.data, { ...options, fields: options.fields ?? TABLE_FIELDS });
    },
  },
  tsv: {
    fields: SENT_FIELDS,
    render: (view, options) => renderTsv(view.data, options.fields ?? SENT_FIELDS, options.now),
    stream: { header: tsvHeader, rows: tsvRows },
  },
  csv: {
    fields: SENT_FIELDS,
    render: (view, options) => renderCsv(view.data, options.fields ?? SENT_FIELDS, options.now),
    stream: { header: csvHeader, rows: csvRows },
  },
  json: {
    fields: SENT_FIELDS,
    render: (view, options) => renderJson(view, options.fields ?? SENT_FIELDS, options.now),
  },
  ndjson: {
    fields: SENT_FIELDS,
    render: (view, options) => renderNdjson(view.data, options.fields ?? SENT_FIELDS, options.now),
    stream: { header: () => '', rows: renderNdjson },
  },
};
