// The query of a data route, read by its operation's descriptor (src/shared/operations.ts), the one
// the library builds its requests by: the list's parameter (comma-separated; surrounding spaces and
// empty items dropped; upper-cased, each once; at most maxItems), which no list leaves out when the
// descriptor says it means every item and refuses when it says it is refused; and the other
// parameters the operation has, each at most once and by its rule. Any other parameter is refused.
// What it refuses is a Reject (400) whose message says why, which the route's `counted` answers with
// the RateLimit-* headers.
import type { DataOperation, DataOperationId, DataOperations } from '../shared/operations.js';
import { Reject } from './errors.js';
import { quoteName } from './request-body.js';

/** A data route's query, read. */
export interface ListQuery<O extends DataOperation = DataOperation> {
  /** Upper-cased, each once, in the order first given; undefined for every item, when the list means that. */
  items: O['list']['empty'] extends 'refused' ? string[] : string[] | undefined;
  /** The other parameters given, spaces trimmed. */
  params: { [K in keyof O['params']]?: string };
}

export type DataQuery<Id extends DataOperationId> = ListQuery<DataOperations[Id]>;

/** The list and the other parameters of `query`; a Reject (400) for the first problem. `maxItems`: the descriptor's unless given. */
export function parseListQuery<O extends DataOperation>(query: string, operation: O, maxItems = operation.list.maxItems): ListQuery<O> {
  const { list } = operation;
  const { name } = list;
  const { noun } = list.items;
  let given: string | undefined;
  const params: Record<string, string> = {};
  for (const [parameter, value] of new URLSearchParams(query)) {
    if (parameter === name) {
      if (given !== undefined) throw invalid(`${name} is given more than once`);
      given = value;
    } else if (Object.hasOwn(operation.params, parameter)) {
      if (params[parameter] !== undefined) throw invalid(`${parameter} is given more than once`);
      const rule = operation.params[parameter]!;
      const trimmed = trimSpaces(value);
      const wrong = rule.problem(trimmed);
      if (wrong !== undefined) throw invalid(`${parameter} ${wrong}: a ${rule.noun} is ${rule.rule}, e.g. ${parameter}=${rule.example}`);
      params[parameter] = trimmed;
    } else {
      throw invalid(`unknown query parameter ${quoteName(parameter)}; allowed: ${[name, ...Object.keys(operation.params)].join(', ')}`);
    }
  }
  const read = { params } as ListQuery<O>;
  if (given === undefined) {
    if (list.empty === 'refused') throw invalid(`${name} is required`);
    return read;
  }
  const items: string[] = [];
  const seen = new Set<string>();
  let position = 0;
  for (const part of given.split(',')) {
    position++;
    const item = trimSpaces(part);
    if (item === '') continue;
    const wrong = list.items.problem(item);
    if (wrong !== undefined) throw invalid(`${noun} ${position} ${wrong}`);
    const upper = item.toUpperCase();
    if (seen.has(upper)) continue;
    seen.add(upper);
    if (items.push(upper) > maxItems) throw invalid(`too many ${name}: at most ${maxItems} distinct ${name} per request`);
  }
  if (items.length === 0) {
    if (list.empty === 'refused') throw invalid(`${name} is required: give at least one ${noun}, e.g. ${name}=${list.example}`);
    return read;
  }
  read.items = items;
  return read;
}

/** Trims spaces only: a control character anywhere, tab or newline included, is an error. */
function trimSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) === 0x20) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

const invalid = (message: string) => new Reject('INVALID_REQUEST', message);
