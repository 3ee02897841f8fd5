// Each data operation's descriptor (src/shared/operations.ts), the one the library and the sandbox
// both read, held to docs/openapi.yaml and to what each side does with it, for every operation the
// list has, so that a new one is tested here without a line of its own: its operationId, method,
// path and scope are the document's; its list and other parameters are the document's query
// parameters, the list required there exactly when the descriptor refuses an empty one; each rule's
// pattern and words agree. Then the library and the sandbox, on the same inputs: an item that breaks
// the list's rule, a parameter that breaks its own and an empty list are refused by both (an
// OptionsError before any request, a 400 naming it), or, where no list means every item, an empty
// list is taken by both; and the list's own example is answered.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import type { Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { createClient, OptionsError } from '../../src/api/index.js';
import { DEMO } from '../../src/sandbox/index.js';
import { DATA_OPERATIONS, SYMBOL, VENUE, type DataOperation, type ValueRule } from '../../src/shared/operations.js';
import { errorMessage, getToken, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
}

interface OperationObject {
  operationId: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<Parameter | { $ref: string }>;
}

const OPENAPI = YAML.parse(readFileSync(new URL('../../docs/openapi.yaml', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, OperationObject>>;
  components: { parameters: Record<string, Parameter> };
};
const resolved = (parameter: Parameter | { $ref: string }) => ('$ref' in parameter ? OPENAPI.components.parameters[parameter.$ref.split('/').pop()!]! : parameter);

/** Every operation of the document, with its method and path. */
const DOCUMENTED = Object.entries(OPENAPI.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })));
const OPERATIONS = Object.entries(DATA_OPERATIONS as Record<string, DataOperation>);

describe('the data operations\' descriptors agree with docs/openapi.yaml', () => {
  it('has one for each data operation the document has (one a bearer token opens), and no other', () => {
    const data = DOCUMENTED.filter(({ operation }) => operation.security?.some((scheme) => 'clientCredentials' in scheme)).map(({ operation }) => operation.operationId);
    expect(data.length).toBeGreaterThan(0);
    expect(OPERATIONS.map(([id]) => id).sort()).toEqual(data.sort());
  });

  it.each(OPERATIONS)('%s: its method, path, scope and query parameters', (id, descriptor) => {
    const documented = DOCUMENTED.find(({ operation }) => operation.operationId === id)!;
    expect({ method: documented.method, path: documented.path }).toEqual({ method: descriptor.method, path: descriptor.path });
    expect(documented.operation.security).toContainEqual({ clientCredentials: [descriptor.scope] });
    const query = (documented.operation.parameters ?? []).map(resolved).filter((parameter) => parameter.in === 'query');
    expect(query.map((parameter) => parameter.name).sort()).toEqual([descriptor.list.name, ...Object.keys(descriptor.params)].sort());
    expect(query.find((parameter) => parameter.name === descriptor.list.name)!.required === true).toBe(descriptor.list.empty === 'refused');
    for (const parameter of query) if (parameter.name !== descriptor.list.name) expect(parameter.required ?? false).toBe(false);
  });
});

/** Every rule a descriptor has, and the symbol's and venue's, which other code uses too. */
const RULES: Array<[string, ValueRule]> = [
  ['the symbol', SYMBOL], ['the venue', VENUE],
  ...OPERATIONS.flatMap(([id, { list, params }]) => [[`${id}'s ${list.name}`, list.items] as [string, ValueRule], ...Object.entries(params).map(([name, rule]) => [`${id}'s ${name}`, rule] as [string, ValueRule])]),
];

describe('each rule says in words what its pattern decides', () => {
  it.each(RULES)('%s: problem() is undefined exactly where the pattern matches', (_name, rule) => {
    const edges = ['', ' ', 'A', 'A B', 'A\u0000', 'A\u007f', '\u00e9', '\t', rule.example, 'x'.repeat(32), 'x'.repeat(33), 'x'.repeat(64), 'x'.repeat(65)];
    for (const value of edges) expect(rule.problem(value) === undefined, JSON.stringify(value)).toBe(rule.pattern.test(value));
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 70 }), (value) => (rule.problem(value) === undefined) === rule.pattern.test(value)));
    expect(rule.pattern.test(rule.example)).toBe(true);
  });
});

/** A value the rule refuses, and the words the sandbox gives for it. */
const BREAKING = ['A\u0001', 'A B', 'x'.repeat(70)];
const breaking = (rule: ValueRule) => BREAKING.find((value) => !rule.pattern.test(value))!;

/** A dispatcher that fails the test if anything is sent through it. */
const untouchable = { request: () => expect.fail('no request may be sent') } as unknown as Dispatcher;

/** The client's method for data operation `id`: it has one by the operation's name. */
type Method = (input?: object) => Promise<{ data: unknown[] }>;
const methodOf = (id: string, options: { baseUrl: string; dispatcher?: Dispatcher; accessToken: string }) =>
  (createClient({ ...options, organizationId: DEMO.org }) as unknown as Record<string, Method>)[id]!;

let sb: TestSandbox;
let token: string;
beforeAll(async () => {
  sb = await startTestSandbox();
  token = await getToken(sb.url);
});
afterAll(async () => {
  await sb?.close();
});

/** The sandbox's answer to GET `path?query`. */
async function ask(path: string, query: string): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${sb.url}${path}?${query}`, { headers: { authorization: `Bearer ${token}`, 'x-organization-id': DEMO.org } });
  return { status: response.status, json: await response.json() };
}

/** What the client's method refuses before any request: its OptionsError's option and message. */
async function refused(id: string, input: object): Promise<{ option: string | undefined; message: string }> {
  const error = await methodOf(id, { baseUrl: sb.url, dispatcher: untouchable, accessToken: token })(input).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(OptionsError);
  return { option: (error as OptionsError).option, message: (error as OptionsError).message };
}

describe.each(OPERATIONS)('%s, by its descriptor, in the library and the sandbox alike', (id, { path, list, params }) => {
  const example = list.example.split(',');

  it(`answers its list's example, ${list.example}`, async () => {
    const { data } = await methodOf(id, { baseUrl: sb.url, accessToken: token })({ [list.name]: example });
    expect(data.length).toBeGreaterThan(0);
    expect((await ask(path, `${list.name}=${list.example}`)).status).toBe(200);
  });

  it(`refuses an item of ${list.name} that breaks its rule`, async () => {
    const bad = breaking(list.items);
    expect(await refused(id, { [list.name]: [example[0], bad] })).toMatchObject({ option: list.name, message: expect.stringMatching(new RegExp(`^invalid ${list.items.noun} in ${list.name}: `)) });
    const answer = await ask(path, `${list.name}=${encodeURIComponent(`${example[0]},${bad}`)}`);
    expect(answer.status).toBe(400);
    expect(errorMessage(answer.json)).toBe(`${list.items.noun} 2 ${list.items.problem(bad)}`);
  });

  it.each(Object.entries(params))('refuses a %s that breaks its rule', async (name, rule) => {
    const bad = breaking(rule);
    expect(await refused(id, { [list.name]: example, [name]: bad })).toMatchObject({ option: name, message: `${name} must be ${rule.rule}, not ${JSON.stringify(bad.replace(/\u0001/g, ''))}` });
    const answer = await ask(path, `${list.name}=${list.example}&${name}=${encodeURIComponent(bad)}`);
    expect(answer.status).toBe(400);
    expect(errorMessage(answer.json)).toMatch(new RegExp(`^${name} ${rule.problem(bad)}: `));
  });

  it(list.empty === 'refused' ? `refuses no ${list.name}` : `takes no ${list.name} as every ${list.items.noun}`, async () => {
    for (const input of [{}, { [list.name]: [] }]) {
      if (list.empty === 'refused') expect(await refused(id, input)).toMatchObject({ option: list.name });
      else expect((await methodOf(id, { baseUrl: sb.url, accessToken: token })(input)).data.length).toBeGreaterThan(0);
    }
    for (const query of ['', `${list.name}=`]) {
      const answer = await ask(path, query);
      expect(answer.status).toBe(list.empty === 'refused' ? 400 : 200);
      if (list.empty === 'refused') expect(errorMessage(answer.json)).toMatch(new RegExp(`^${list.name} is required`));
    }
  });
});
