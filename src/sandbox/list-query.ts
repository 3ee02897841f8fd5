// The query of a data route that takes a list (quotes' `symbols`, or any other): the list's parameter
// (comma-separated; surrounding spaces and empty items dropped; upper-cased, each once; at most
// maxItems), required or not, and the optional parameters the route allows, each at most once; any
// other parameter is refused. What it refuses is a Reject (400) whose message says why, which the
// route's `counted` answers with the RateLimit-* headers. The route checks its optional ones' values.
import { Reject } from './errors.js';
import { quoteName } from './request-body.js';

export interface ListParameter<O extends string, R extends boolean> {
  /** The list's parameter: `symbols`, `venues`. */
  name: string;
  /** Whether a request must give it; a route that takes it optional gets `items` undefined without it. */
  required: R;
  /** The most distinct items one request may name. */
  maxItems: number;
  /** One item, in messages: `symbol`. */
  noun: string;
  /** The parameter's value in a message's example: `EURUSD,AAPL`. */
  example: string;
  /**
   * What an item (spaces trimmed, before upper-casing) must be: a pattern and its words (`a code of 1
   * to 16 letters or digits`), or a function giving the problem (undefined: none). `position` counts
   * the comma-separated parts from 1.
   */
  item: { pattern: RegExp; rule: string } | ((item: string, position: number) => string | undefined);
  /** The other parameters the route allows. */
  optional?: readonly O[];
}

export interface ListQuery<O extends string, R extends boolean> {
  /** Upper-cased, each once, in the order first given. */
  items: R extends true ? string[] : string[] | undefined;
  params: Partial<Record<O, string>>;
}

/** The list and the `optional` parameters of `query`; a Reject (400) for the first problem. */
export function parseListQuery<O extends string = never, R extends boolean = boolean>(query: string, list: ListParameter<O, R>): ListQuery<O, R> {
  const { name, noun, maxItems } = list;
  const optional: readonly string[] = list.optional ?? [];
  let given: string | undefined;
  const params: Partial<Record<O, string>> = {};
  for (const [parameter, value] of new URLSearchParams(query)) {
    if (parameter === name) {
      if (given !== undefined) throw invalid(`${name} is given more than once`);
      given = value;
    } else if (optional.includes(parameter)) {
      if (params[parameter as O] !== undefined) throw invalid(`${parameter} is given more than once`);
      params[parameter as O] = value;
    } else {
      throw invalid(`unknown query parameter ${quoteName(parameter)}; allowed: ${[name, ...optional].join(', ')}`);
    }
  }
  if (given === undefined) {
    if (list.required) throw invalid(`${name} is required`);
    return { items: undefined as ListQuery<O, R>['items'], params };
  }
  const problem = typeof list.item === 'function' ? list.item : patternProblem(noun, list.item);
  const items: string[] = [];
  const seen = new Set<string>();
  let position = 0;
  for (const part of given.split(',')) {
    position++;
    const item = trimSpaces(part);
    if (item === '') continue;
    const wrong = problem(item, position);
    if (wrong !== undefined) throw invalid(wrong);
    const upper = item.toUpperCase();
    if (seen.has(upper)) continue;
    seen.add(upper);
    if (items.push(upper) > maxItems) throw invalid(`too many ${name}: at most ${maxItems} distinct ${name} per request`);
  }
  if (items.length === 0) {
    throw invalid(list.required
      ? `${name} is required: give at least one ${noun}, e.g. ${name}=${list.example}`
      : `${name} is empty: give at least one ${noun}, e.g. ${name}=${list.example}, or leave it out`);
  }
  return { items, params };
}

/** Trims spaces only: a control character anywhere, tab or newline included, is an error. */
export function trimSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) === 0x20) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

function patternProblem(noun: string, { pattern, rule }: { pattern: RegExp; rule: string }): (item: string, position: number) => string | undefined {
  return (item, position) => (pattern.test(item) ? undefined : `${noun} ${position} is not ${rule}`);
}

const invalid = (message: string) => new Reject('INVALID_REQUEST', message);
