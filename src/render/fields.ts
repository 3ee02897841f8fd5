// A resource's declaration, made once: its fields (what each is called, what kind of value it is,
// how it is read from an item), which of them each kind of format writes, the JSON document the
// items sit in, and, for a resource with a table of its own, that table. Every format reads the
// declaration (a FieldSet): tsv, csv, json and ndjson (formats.ts) write the fields the service
// sends, the table adds the ones it derives. Quotes are declared in quote-fields.ts and
// quote-model.ts. A price is read as the text the service sent, never a float: the formats write its
// digits as they came. A resource that declares its checks (a CheckModel: which fields can be
// compared, and how) gets --check, and --until and --exec on a watch, from the shared option modules.
import type { CheckModel } from './checks/check-model.js';

/**
 * What a field's value is, which decides how each format writes it (read() always gives text):
 * - text: service text (a symbol, a name): a JSON string; printable in tsv, csv and the table.
 * - price: a decimal, as sent: a JSON number with every digit; aligned on its point in the table.
 * - decimal: a decimal an item may lack (a value with no quote), read as '' then: a JSON number, or
 *   null; an empty cell elsewhere.
 * - time: a timestamp or an age: a JSON string.
 * - boolean: read as 'true' or 'false': a JSON boolean; the words true and false in tsv, csv and the
 *   table ('' is null in JSON, an empty cell elsewhere).
 */
type FieldKind = 'text' | 'price' | 'decimal' | 'time' | 'boolean';

export interface Field<T, N extends string = string> {
  name: N;
  /** The column's title in the table and on the board. */
  title: string;
  kind: FieldKind;
  /** Computed from the sent fields (a quote's spread and age): shown by the table (and the board) only. */
  derived: boolean;
  /** In the table and on the board. */
  align: 'left' | 'right';
  /** A text or time field an item may lack (read as ''): null in JSON, an empty cell elsewhere. */
  nullable?: boolean;
  /** On the board, when the terminal is narrow, lower goes first; undefined: never dropped. */
  dropOrder?: number;
  /** The value as text: a sent field exactly as sent, a derived one computed exactly. */
  read(item: T, now: number): string;
}

/** What a resource's JSON document holds when it declares nothing else: `{"data": [...]}`. */
export interface DataDocument<T> {
  readonly data: readonly T[];
}

/** The members of D that hold a list of T. */
type ItemsMember<D, T> = { [K in keyof D]-?: D[K] extends readonly T[] | undefined ? K : never }[keyof D] & string;

/**
 * A top-level member of the JSON document besides the items, by its name in the document (and in
 * the JSON): written as JSON.stringify writes its value, left out when undefined. `decimal`: the
 * value is decimal text, written as the JSON number it spells, every digit kept (a total); with
 * `members`, the value is an array of objects (or one object) whose members of those names are
 * decimal text, written so (a valuation's totals per currency).
 */
export type DocumentMember<D> = (keyof D & string) | { name: keyof D & string; kind: 'decimal'; members?: readonly string[] };

/**
 * The JSON document of a resource: which member holds the items, and the other members written
 * before and after it, in order. Undeclared, a document is `{"data": [...]}` and nothing else: a
 * member is written only when declared, so a library result with more in it (a request count, the
 * rate limit) is handed over as it is.
 */
export interface DocumentDeclaration<T, D> {
  items: ItemsMember<D, T>;
  before?: readonly DocumentMember<D>[];
  after?: readonly DocumentMember<D>[];
}

/** What a table is drawn for: the columns, and the terminal's colour, width and characters, and the clock. */
export interface TableOptions<N extends string = string> {
  /** The columns, in order. */
  fields: readonly N[];
  color: boolean;
  /** Milliseconds since the epoch, for ages. */
  now: number;
  /** The terminal's width; undefined (a pipe, a terminal that does not say): drawn whole. */
  columns: number | undefined;
  /** Plain ASCII instead of box-drawing characters and `…` (TERM=dumb, a locale without UTF-8). */
  ascii: boolean;
}

/**
 * A resource's declaration: its fields by name, which of them each kind of format writes, its
 * document, its table. CT and CD are the rows and the document its checks are decided on: the items
 * and the document themselves, unless the resource checks a form of them that keeps more (a
 * valuation's exact figures, of which the document holds each rounded).
 */
interface Declaration<T, N extends string, D, CT, CD> {
  fields: Readonly<Record<N, Field<T, N>>>;
  /** Every field, in the order --fields lists them. */
  names: readonly N[];
  /** What the service sends, in its order: the fields of tsv, csv, json and ndjson. */
  sent: readonly N[];
  /** The columns of the table. */
  table: readonly N[];
  /** The JSON document; `{"data": [...]}` when not declared, which only a document holding `data` may leave out. */
  document?: DocumentDeclaration<T, D>;
  /**
   * The lines of tsv, csv and ndjson, when they hold more than the JSON's items (a valuation's
   * totals, as rows after its positions); the items when not declared.
   */
  lines?(document: D): readonly T[];
  /**
   * A table of its own (quotes: the spread, the age, marks for crossed and stale quotes), given the
   * whole document; without one, the table is a column per field (table.ts, fieldTable).
   */
  drawTable?(document: D, options: TableOptions<N>): string | Promise<string>;
  /**
   * What --check and --until may compare (render/checks/check-model.ts): a resource that declares it
   * has the flags, compiled against it before any request and decided after the data is written.
   */
  checks?: CheckModel<CT, CD>;
}

/**
 * A resource's declaration. D is the document a command hands the writer: `{data}` unless said; a
 * document that holds its items under another name must declare `document` (a compile error if not).
 */
export type FieldSet<T, N extends string = string, D = DataDocument<T>, CT = T, CD = D> = Declaration<T, N, D, CT, CD>
  & ([D] extends [DataDocument<T>] ? unknown : { document: DocumentDeclaration<T, D> });

/** What --fields and the format options need of a declaration: the names, which are derived, and whether it has checks (--check). */
export type FieldNames<N extends string = string> = Pick<FieldSet<never, N, never>, 'names' | 'sent' | 'checks'> & {
  fields: Readonly<Record<N, Pick<Field<never, N>, 'derived'>>>;
};

export function fieldsOf<T, N extends string>(set: Pick<FieldSet<T, N, unknown>, 'fields'>, names: readonly N[]): Field<T, N>[] {
  return names.map((name) => set.fields[name]);
}

/** The items of a document, where its declaration says they are (`data` when it says nothing). */
export function itemsOf<T, D>(set: { document?: { readonly items: string } }, document: D): readonly T[] {
  const key = set.document?.items ?? 'data';
  return ((document as Record<string, unknown>)[key] as readonly T[] | undefined) ?? [];
}
