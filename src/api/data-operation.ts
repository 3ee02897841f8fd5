// A data operation of src/shared/operations.ts bound for the library: its input checked and its
// request built by its descriptor (the descriptor's list and parameters, the rules the sandbox
// holds requests to as well), its types derived (its input from the descriptor, its items from
// docs/openapi.yaml by way of openapi-types.ts, a number there being a decimal string here), and,
// for an operation asked in one request, the whole method: listOperation(id, read), where `read`
// makes an item from its ItemReader (read-items.ts). getQuotes is its own method (quotes.ts: it
// sends batches) on the same checks and types.
import { requireBearer } from './bearer.js';
import { checkList, invalid, shown } from './check-options.js';
import { bearerHints, callEndpoint, endpoint, type Query } from './endpoint.js';
import type { ClientOptions } from './options.js';
import { readItems, type ItemReader } from './read-items.js';
import type { Transport } from './transport.js';
import type { DataInput, DataItem, ListResult } from './types.js';
import { DATA_OPERATIONS, type DataOperation, type DataOperationId, type DataOperations } from '../shared/operations.js';

/**
 * A call's input to `operation`, checked by its descriptor: its list (an array of items each by the
 * list's rule, at least one unless no list means every item) and its other parameters (each a
 * string by its rule). An OptionsError names what is wrong, before any request.
 */
export function checkDataInput(operation: string, { list, params }: DataOperation, given: object): void {
  const input = given as Record<string, unknown>;
  const items = input[list.name];
  // No list, or an empty one, is every item where the operation says so: nothing to check.
  if (list.empty === 'refused' || !(items === undefined || (Array.isArray(items) && items.length === 0))) checkList(operation, list.name, items, list.items);
  for (const [name, rule] of Object.entries(params)) {
    const value = input[name];
    if (value !== undefined && (typeof value !== 'string' || !rule.pattern.test(value))) {
      throw invalid(`${name} must be ${rule.rule}, not ${shown(value)}`, { option: name, operation, expected: rule.rule });
    }
  }
}

/** The query of a call by `descriptor`: its list (left out when empty) and its other parameters, as given. */
export function dataQuery({ list, params }: DataOperation, given: object): Query {
  const input = given as Record<string, unknown>;
  const items = input[list.name] as readonly string[] | undefined;
  const query: Record<string, string | readonly string[] | undefined> = { [list.name]: items?.length === 0 ? undefined : items };
  for (const name of Object.keys(params)) query[name] = input[name] as string | undefined;
  return query;
}

/** What an operation's 400 may be about, for its hint: `the symbols, the venue and the organizationId`. */
export function dataInputs({ list, params }: DataOperation): string {
  return [list.name, ...Object.keys(params), 'organizationId'].map((name) => `the ${name}`).join(', ').replace(/, (?=[^,]*$)/, ' and ');
}

/** A call's input, for its list may be optional. */
type InputArgs<Id extends DataOperationId> = DataOperations[Id]['list']['empty'] extends 'refused' ? [input: DataInput<Id>] : [input?: DataInput<Id>];

/**
 * The method of a data operation asked in one request: the token settled and the input checked
 * before anything is sent, the request built by the descriptor, and each item of the answer read
 * by `read` (readItems: `{data: [...]}`, strictly).
 */
export function listOperation<Id extends DataOperationId>(id: Id, read: (item: ItemReader) => DataItem<Id>) {
  const descriptor: DataOperation = DATA_OPERATIONS[id];
  const { path, noun, scope } = descriptor;
  return async (options: ClientOptions & Transport, ...[given]: InputArgs<Id>): Promise<ListResult<DataItem<Id>>> => {
    const input: object = typeof given === 'object' && given !== null ? given : {};
    const pending = requireBearer(options, input, { operation: id, url: endpoint(options.baseUrl, path) });
    checkDataInput(id, descriptor, input);
    checkOneRequest(id, descriptor, input);
    const bearer = await pending.open();
    const { value: data, attempts, rateLimit } = await callEndpoint(options, {
      url: endpoint(options.baseUrl, path, dataQuery(descriptor, input)), operation: id, bearer,
      expected: `a JSON object with a data array of ${noun}s`,
      read: (json, response) => readItems(json, response, noun, read),
      hints: bearerHints({ inputs: dataInputs(descriptor), scope, organizationId: bearer.organizationId }),
    });
    return { data, attempts, rateLimit };
  };
}

/**
 * A list one request can carry: at most the descriptor's maxItems, counted as the service counts
 * them (upper-cased, each once: list-query.ts). Refused before any request, as the service would.
 */
function checkOneRequest(operation: string, { list }: DataOperation, input: object): void {
  const items = (input as Record<string, unknown>)[list.name];
  if (!Array.isArray(items) || items.length <= list.maxItems) return;
  const distinct = new Set((items as string[]).map((item) => item.toUpperCase())).size;
  const { noun } = list.items;
  if (distinct > list.maxItems) {
    throw invalid(`${list.name} holds ${distinct} ${noun}s, and one request takes at most ${list.maxItems}`, {
      option: list.name, operation, expected: `at most ${list.maxItems} ${noun}s`, hint: `ask for at most ${list.maxItems} ${noun}s at a time`,
    });
  }
}

/** The readers of the items of data operations asked in one request, by operationId. */
type Readers = { [Id in DataOperationId]?: (item: ItemReader) => DataItem<Id> };

/** The method listOperation makes for each reader of `R`. */
type ListMethods<R extends Readers> = { [Id in keyof R]: Id extends DataOperationId ? ReturnType<typeof listOperation<Id>> : never };

/**
 * The methods of the data operations asked in one request, each by its descriptor and the reader of
 * its items (listOperation), by operationId: client.ts' list of them.
 */
export function listOperations<const R extends Readers>(readers: R): ListMethods<R> {
  return Object.fromEntries(Object.entries(readers).map(([id, read]) => [id, listOperation(id as DataOperationId, read as never)])) as unknown as ListMethods<R>;
}
