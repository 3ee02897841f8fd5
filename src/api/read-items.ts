// A list body read strictly: `{data: [...]}`, every item a JSON object, for any endpoint that answers
// so (quotes, and the next). What is not such a body is a ResponseError saying what came instead,
// and an item's field that is missing or of the wrong kind is one naming the item (its number, and
// its key, e.g. a quote's symbol) and the field. Decimals are kept as the exact text sent.
import { ResponseError } from './errors.js';
import { decimalText, JsonNumber } from './json.js';
import { displayUrl } from './response.js';
import { stripControl } from '../shared/text.js';

/** Where a body came from, as its errors name it (an HttpResponse is one). */
export interface ItemsSource {
  method: string;
  url: string;
  operation: string;
}

/** A JSON object as parsed: numbers are JsonNumber (their exact text). */
export type JsonObject = Record<string, unknown>;

/** One item's fields, read strictly; each throws a ResponseError naming the item and the field. */
export interface ItemReader {
  /** The item as parsed, for what the readers below do not cover. */
  readonly record: JsonObject;
  /** A non-empty string that names the item in the messages about its other fields (a quote's symbol). */
  key(name: string): string;
  /** A string with at least one character other than spaces. */
  text(name: string): string;
  /** A decimal as the exact text sent: a JSON number or a numeric string. */
  decimal(name: string): string;
  /** true or false. */
  boolean(name: string): boolean;
  /** A ResponseError about this item: `problem` follows its name, e.g. `whose tick_size is below zero`. */
  fail(problem: string): ResponseError;
}

/**
 * The items of a `{data: [...]}` body, each a JSON object, refusing anything else; `noun` names one
 * in messages (`quote`, `venue`; the plural adds an s). With `read`, each item is made into a value
 * by it, through an ItemReader; without, the objects are returned as parsed.
 */
export function readItems(json: unknown, source: ItemsSource, noun: string): JsonObject[];
export function readItems<T>(json: unknown, source: ItemsSource, noun: string, read: (item: ItemReader) => T): T[];
export function readItems<T>(json: unknown, source: ItemsSource, noun: string, read?: (item: ItemReader) => T): JsonObject[] | T[] {
  const fail = (what: string) => unexpectedBody(source, noun, what);
  if (json === null || typeof json !== 'object' || Array.isArray(json) || json instanceof JsonNumber) throw fail('a body that is not a JSON object');
  const data = (json as JsonObject).data;
  if (data === undefined) throw fail('a JSON object without a "data" field');
  if (!Array.isArray(data)) throw fail(`a "data" field that is not an array (${jsonKind(data)})`);
  for (let index = 0; index < data.length; index++) {
    const item: unknown = data[index];
    // A JSON number is an object here too (JsonNumber, its exact text), and is no item.
    if (item === null || typeof item !== 'object' || Array.isArray(item) || item instanceof JsonNumber) {
      throw fail(`${noun} ${index + 1} that is not an object (${jsonKind(item)})`);
    }
  }
  const records = data as JsonObject[];
  return read === undefined ? records : records.map((record, index) => read(itemReader(record, index, source, noun)));
}

/** The ResponseError for a 2xx body the client cannot read: `what` came instead of `noun`s. */
export function unexpectedBody(source: ItemsSource, noun: string, what: string): ResponseError {
  return new ResponseError(`${source.method} ${displayUrl(source.url)} returned ${what}`, {
    method: source.method, url: source.url, status: 200, operation: source.operation, problem: 'unexpected',
    hint: `the service sent ${noun}s the client cannot read; check baseUrl, or report it to the service`,
  });
}

/** What a JSON value is, for a message: the number's text, a short string quoted, `null`, `an array`, `an object`. */
function jsonKind(value: unknown): string {
  if (value instanceof JsonNumber) return `the number ${numberText(value)}`;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `"${shortText(value)}"`;
  return typeof value === 'object' ? 'an object' : String(value);
}

/**
 * What was sent where a number was expected, for a message: a number the client refuses (an absurd
 * exponent) as it was written, anything else as jsonKind says it.
 */
export function notNumberKind(value: unknown): string {
  return value instanceof JsonNumber ? numberText(value) : jsonKind(value);
}

/** A number's text, at most 40 characters, an ellipsis saying where it was cut. */
function numberText(value: JsonNumber): string {
  return value.source.length > 40 ? `${value.source.slice(0, 40)}…` : value.source;
}

/** Service text for a message: controls removed, at most 40 characters. */
export function shortText(text: string): string {
  const clean = stripControl(text);
  return clean.length > 40 ? `${clean.slice(0, 40)}…` : clean;
}

function itemReader(record: JsonObject, index: number, source: ItemsSource, noun: string): ItemReader {
  let label: string | undefined;
  const fail = (problem: string) => unexpectedBody(source, noun, `${noun} ${index + 1}${label === undefined ? '' : ` (${shortText(label)})`} ${problem}`);
  const missing = (name: string) => fail(`without ${name}`);
  const reader: ItemReader = {
    record,
    key(name) {
      label = reader.text(name);
      return label;
    },
    text(name) {
      const value = record[name];
      if (value === undefined) throw missing(name);
      if (typeof value !== 'string') throw fail(`whose ${name} is not a string (${jsonKind(value)})`);
      if (value.trim() === '') throw fail(`whose ${name} is empty`);
      return value;
    },
    decimal(name) {
      const value = record[name];
      const text = decimalText(value);
      if (text !== undefined) return text;
      throw value === undefined ? missing(name) : fail(`whose ${name} is not a number (${notNumberKind(value)})`);
    },
    boolean(name) {
      const value = record[name];
      if (typeof value === 'boolean') return value;
      throw value === undefined ? missing(name) : fail(`whose ${name} is not true or false (${jsonKind(value)})`);
    },
    fail,
  };
  return reader;
}
