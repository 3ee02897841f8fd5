// The output formats, one renderer each, all reading a resource's declaration (fields.ts):
// renderersFor(model) gives any declared resource every format with no code of its own, quotes as
// much as any other. A renderer draws a whole document (mkt quotes); a format that can grow a poll at
// a time (a header once, then lines) also streams for --watch. JSON is one document and cannot; the
// quotes table's live form is the board (board.ts).
import { fieldsOf, itemsOf, type DataDocument, type FieldSet } from './fields.js';
import { csvHeader, csvRows, jsonText, ndjsonText, tsvHeader, tsvRows } from './serialize.js';

export const FORMATS = ['table', 'tsv', 'json', 'ndjson', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

export function isFormat(value: string): value is Format {
  return (FORMATS as readonly string[]).includes(value);
}

interface RenderOptions<N extends string = string> {
  /** The fields, in order; each format's own by default. */
  fields?: readonly N[];
  color: boolean;
  /** Milliseconds since the epoch, for ages. */
  now: number;
  /** The terminal's width; undefined where unknown (a pipe): the table is drawn whole. */
  columns: number | undefined;
  ascii: boolean;
}

/** A format that streams: its header once, then each poll's lines. */
interface StreamRenderer<T, N extends string = string> {
  header(fields: readonly N[]): string;
  rows(data: readonly T[], fields: readonly N[], now: number): string;
}

export interface Renderer<T, N extends string = string, D = DataDocument<T>> {
  /** The fields it writes unless told otherwise. */
  fields: readonly N[];
  render(document: D, options: RenderOptions<N>): string | Promise<string>;
  stream?: StreamRenderer<T, N>;
}

/**
 * Every format for a declared resource: tsv, csv, json and ndjson write the sent fields, the table
 * its own (the declaration's drawTable, or a column per field). A declaration whose document holds
 * its items elsewhere than `data` says where (FieldSet's document).
 */
export function renderersFor<T, N extends string, D>(model: FieldSet<T, N, D, unknown, unknown>): Record<Format, Renderer<T, N, D>> {
  const sent = (names: readonly N[] | undefined) => fieldsOf(model, names ?? model.sent);
  const items = (document: D) => itemsOf(model, document);
  const lines = (document: D) => model.lines?.(document) ?? items(document);
  return {
    table: {
      fields: model.table,
      async render(document, options) {
        const tableOptions = { ...options, fields: options.fields ?? model.table };
        if (model.drawTable !== undefined) return model.drawTable(document, tableOptions);
        // chalk loads only when a table is drawn.
        const { fieldTable } = await import('./table.js');
        return fieldTable(items(document), fieldsOf(model, tableOptions.fields), tableOptions);
      },
    },
    tsv: {
      fields: model.sent,
      render: (document, options) => tsvHeader(options.fields ?? model.sent) + tsvRows(lines(document), sent(options.fields), options.now),
      stream: { header: tsvHeader, rows: (data, names, now) => tsvRows(data, sent(names), now) },
    },
    csv: {
      fields: model.sent,
      render: (document, options) => csvHeader(options.fields ?? model.sent) + csvRows(lines(document), sent(options.fields), options.now),
      stream: { header: csvHeader, rows: (data, names, now) => csvRows(data, sent(names), now) },
    },
    json: {
      fields: model.sent,
      render: (document, options) => jsonText(document, model.document, sent(options.fields), options.now),
    },
    ndjson: {
      fields: model.sent,
      render: (document, options) => ndjsonText(lines(document), sent(options.fields), options.now),
      stream: { header: () => '', rows: (data, names, now) => ndjsonText(data, sent(names), now) },
    },
  };
}
