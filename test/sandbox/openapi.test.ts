// docs/openapi.yaml is the one description of the service: the sandbox serves it (as written and
// as JSON), and every response it gives, for every operation and every error a request can
// provoke, conforms to it (status, media type, body, headers). The operations are read from the
// document and held to the sandbox's route table, so a new one is tested without a list to update:
// every operation gets the errors any request can provoke, and every data operation (one with a
// bearer token) its 200, 400, 401, 403 and 429, its query made from its parameters' examples.
// The last test checks that each (operation, status) the document declares was seen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../src/sandbox/errors.js';
import { ROUTES } from '../../src/sandbox/handler.js';
import { DEMO } from '../../src/sandbox/index.js';
import { parseRawResponse, rawExchange, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { documentedResponses, OPENAPI, OPENAPI_TEXT, operationOf, problemsOf, type SeenResponse } from './openapi-validator.js';

const TOKEN = '/v1/auth/token';
const LOGIN = '/auth/cli-login';
const QUOTES = '/v1/market/quotes';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Operation {
  method: string;
  path: string;
  /** `POST /v1/auth/token`, for the tests' names. */
  name: string;
}

/** Every operation docs/openapi.yaml declares. */
const OPERATIONS: Operation[] = Object.entries(OPENAPI.paths).flatMap(([path, item]) => Object.keys(item)
  .filter((key) => HTTP_METHODS.includes(key))
  .map((key) => ({ method: key.toUpperCase(), path, name: `${key.toUpperCase()} ${path}` })));

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  examples?: Record<string, { value: unknown }>;
}

interface OperationObject {
  security?: Array<Record<string, string[]>>;
  parameters?: Array<Parameter | { $ref: string }>;
}

const objectOf = (operation: Operation) => (OPENAPI.paths[operation.path] as Record<string, OperationObject>)[operation.method.toLowerCase()]!;
const resolved = (parameter: Parameter | { $ref: string }): Parameter => ('$ref' in parameter
  ? (OPENAPI as unknown as { components: { parameters: Record<string, Parameter> } }).components.parameters[parameter.$ref.split('/').pop()!]!
  : parameter);

/** The data operations: those a bearer token opens (client credentials or cli-login's). */
const DATA_OPERATIONS = OPERATIONS.filter((operation) => objectOf(operation).security?.some((scheme) => 'clientCredentials' in scheme));

/** A query with each required query parameter of `operation` at its first example (empty when it has none). */
function exampleQuery(operation: Operation): string {
  const query = new URLSearchParams();
  for (const parameter of (objectOf(operation).parameters ?? []).map(resolved)) {
    if (parameter.in !== 'query' || parameter.required !== true) continue;
    const example = Object.values(parameter.examples ?? {})[0];
    if (example === undefined) throw new Error(`${operation.name}: the required parameter ${parameter.name} has no example`);
    query.set(parameter.name, String(example.value));
  }
  return query.toString();
}
/** The operations that declare a response with `status`. */
const declaring = (status: number) => OPERATIONS.filter((operation) => documentedResponses().includes(`${operationOf(operation.method, operation.path)} ${status}`));
const CODE_OF_STATUS = new Map<number, string>(Object.entries(ERROR_STATUS).map(([code, status]) => [status, code]));

/** With limits no test here comes near, so that no test depends on how many requests the others made. */
let sb: TestSandbox;
/** A clock that throws, and a request log that reads it: every route then fails inside (500). */
let broken: TestSandbox;
let token: string;
const seen = new Set<string>();

beforeAll(async () => {
  const ample = 1_000_000;
  sb = await startTestSandbox({ headersTimeoutMs: 300, requestTimeoutMs: 600, limits: { perMinute: ample, perHour: ample, perDay: ample, tokensPerMinute: ample } });
  let failing = false;
  broken = await startTestSandbox({ onError: () => {}, onRequest: () => {} });
  const clock = broken.clock.now;
  broken.clock.now = () => {
    if (failing) throw new Error('the clock broke');
    return clock();
  };
  token = await tokenFor(sb);
  failing = true;
});
afterAll(async () => {
  await Promise.all([sb?.close(), broken?.close()]);
});

async function tokenFor(target: TestSandbox): Promise<string> {
  const response = await send(target, 'POST', TOKEN, { body: JSON.stringify({ client_id: 'demo', client_secret: 'demo-secret', grant_type: 'client_credentials' }), type: 'application/json' });
  return (JSON.parse(response.body) as { access_token: string }).access_token;
}

interface Request {
  query?: string;
  headers?: Record<string, string>;
  body?: string;
  type?: string;
}

async function send(target: TestSandbox, method: string, path: string, request: Request = {}): Promise<SeenResponse> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.type !== undefined) headers['content-type'] = request.type;
  const response = await fetch(`${target.url}${path}${request.query === undefined ? '' : `?${request.query}`}`, {
    method, headers, body: request.body === undefined ? undefined : new TextEncoder().encode(request.body),
  });
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
}

async function sendRaw(target: TestSandbox, raw: string, timeoutMs = 3000): Promise<SeenResponse> {
  const response = parseRawResponse(await rawExchange(target.port, raw, { timeoutMs, firstResponseOnly: true }));
  if (response === undefined) throw new Error(`no response to ${JSON.stringify(raw.slice(0, 60))}`);
  return { status: response.status, headers: response.headers, body: response.body };
}

/** Checks `response` to `method path` against the document, and the code against the status. */
function conforms(method: string, path: string, response: SeenResponse, status: number): void {
  expect(response.status, response.body).toBe(status);
  expect(problemsOf(method, path, response)).toEqual([]);
  if (status >= 400) {
    const body = JSON.parse(response.body) as { code?: string; error: { code?: string } | string; request_id: string };
    expect(typeof body.error === 'string' ? body.code : body.error.code).toBe(CODE_OF_STATUS.get(status));
    expect(response.headers['x-request-id']).toBe(body.request_id);
  }
  seen.add(`${operationOf(method, path)} ${status}`);
}

const bearer = () => ({ authorization: `Bearer ${token}`, 'x-organization-id': DEMO.org });
const basic = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` });
const tokenJson = (fields: Record<string, unknown>) => ({ body: JSON.stringify(fields), type: 'application/json' });
const GOOD_TOKEN = { client_id: 'demo', client_secret: 'demo-secret', grant_type: 'client_credentials' };
const GOOD_LOGIN = { api_key: DEMO.apiKey, organization_id: DEMO.org };

describe('the document', () => {
  it('is served as written at /openapi.yaml, and as JSON at /openapi.json', async () => {
    const yaml = await send(sb, 'GET', '/openapi.yaml');
    conforms('GET', '/openapi.yaml', yaml, 200);
    expect(yaml.headers['content-type']).toBe('application/yaml');
    expect(yaml.body).toBe(OPENAPI_TEXT);
    const json = await send(sb, 'GET', '/openapi.json');
    conforms('GET', '/openapi.json', json, 200);
    expect(JSON.parse(json.body)).toEqual(OPENAPI);
  });

  it('lists every route the sandbox serves, and the sandbox serves every operation it lists', async () => {
    expect(OPERATIONS.map((operation) => operation.name).sort()).toEqual([...ROUTES].map(([path, { method }]) => `${method} ${path}`).sort());
    expect(OPERATIONS.length).toBeGreaterThanOrEqual(6);
    expect(DATA_OPERATIONS.map((operation) => operation.name)).toContain(`GET ${QUOTES}`);
    for (const { method, path } of OPERATIONS) expect((await send(sb, method, path)).status).not.toBeOneOf([404, 405]);
  });
});

describe('every data operation conforms, from its parameters\' examples', () => {
  const noscopeToken = async () => (JSON.parse((await send(sb, 'POST', TOKEN, tokenJson({ ...GOOD_TOKEN, client_id: 'noscope', client_secret: 'noscope-secret' }))).body) as { access_token: string }).access_token;

  it.each(DATA_OPERATIONS)('$name: 200', async (operation) => {
    conforms(operation.method, operation.path, await send(sb, operation.method, operation.path, { query: exampleQuery(operation), headers: bearer() }), 200);
  });

  it.each(DATA_OPERATIONS)('$name: 400 without X-Organization-Id (before the limiter) and for an unknown query parameter (after it)', async (operation) => {
    const { method, path } = operation;
    const query = exampleQuery(operation);
    const noOrganization = await send(sb, method, path, { query, headers: { authorization: `Bearer ${token}` } });
    conforms(method, path, noOrganization, 400);
    expect(noOrganization.headers['ratelimit-limit']).toBeUndefined();
    const unknown = await send(sb, method, path, { query: `${query}${query === '' ? '' : '&'}no_such_parameter=1`, headers: bearer() });
    conforms(method, path, unknown, 400);
    expect(unknown.headers['ratelimit-limit']).toBeDefined();
  });

  it.each(DATA_OPERATIONS)('$name: 401 without a token and with a wrong one', async (operation) => {
    const { method, path } = operation;
    const query = exampleQuery(operation);
    conforms(method, path, await send(sb, method, path, { query, headers: { 'x-organization-id': DEMO.org } }), 401);
    conforms(method, path, await send(sb, method, path, { query, headers: { ...bearer(), authorization: `Bearer ${'x'.repeat(43)}` } }), 401);
  });

  it.each(DATA_OPERATIONS)('$name: 403 for another organization, and for a token without the scope', async (operation) => {
    const { method, path } = operation;
    const query = exampleQuery(operation);
    conforms(method, path, await send(sb, method, path, { query, headers: { ...bearer(), 'x-organization-id': 'org_other' } }), 403);
    const scope = await send(sb, method, path, { query, headers: { ...bearer(), authorization: `Bearer ${await noscopeToken()}` } });
    conforms(method, path, scope, 403);
    expect(scope.headers['www-authenticate']).toContain('insufficient_scope');
  });

  it.each(DATA_OPERATIONS)('$name: 429, on a sandbox of its own with a budget of one', async (operation) => {
    const { method, path } = operation;
    const tight = await startTestSandbox({ limits: { perMinute: 1, tokensPerMinute: 1 } });
    try {
      const request = { query: exampleQuery(operation), headers: { authorization: `Bearer ${await tokenFor(tight)}`, 'x-organization-id': DEMO.org } };
      conforms(method, path, await send(tight, method, path, request), 200);
      conforms(method, path, await send(tight, method, path, request), 429);
    } finally {
      await tight.close();
    }
  });
});

describe('successful responses conform', () => {
  it('POST /v1/auth/token: JSON, form, HTTP Basic (encoded or not)', async () => {
    conforms('POST', TOKEN, await send(sb, 'POST', TOKEN, tokenJson(GOOD_TOKEN)), 200);
    conforms('POST', TOKEN, await send(sb, 'POST', TOKEN, { body: new URLSearchParams(GOOD_TOKEN).toString(), type: 'application/x-www-form-urlencoded' }), 200);
    conforms('POST', TOKEN, await send(sb, 'POST', TOKEN, { headers: basic('demo', 'demo-secret'), body: 'grant_type=client_credentials', type: 'application/x-www-form-urlencoded' }), 200);
    conforms('POST', TOKEN, await send(sb, 'POST', TOKEN, { headers: basic('demo', 'demo-secret'), ...tokenJson({ grant_type: 'client_credentials', scope: 'market.read' }) }), 200);
  });

  it('POST /auth/cli-login', async () => {
    conforms('POST', LOGIN, await send(sb, 'POST', LOGIN, tokenJson(GOOD_LOGIN)), 200);
  });

  it('GET /v1/market/quotes, with and without a venue, known and unknown symbols', async () => {
    for (const query of ['symbols=EURUSD,AAPL,USDJPY', 'symbols=aapl&venue=arcx', 'symbols=NOPE', 'symbols=SPY,QQQ&venue=XLON']) {
      conforms('GET', QUOTES, await send(sb, 'GET', QUOTES, { query, headers: bearer() }), 200);
    }
    const login = JSON.parse((await send(sb, 'POST', LOGIN, tokenJson(GOOD_LOGIN))).body) as { access_token: string };
    conforms('GET', QUOTES, await send(sb, 'GET', QUOTES, { query: 'symbols=EURUSD', headers: { ...bearer(), authorization: `Bearer ${login.access_token}` } }), 200);
  });

  it('GET /healthz', async () => {
    conforms('GET', '/healthz', await send(sb, 'GET', '/healthz'), 200);
  });
});

describe('errors a request can provoke conform', () => {
  it.each([
    ['malformed JSON', 400, tokenJson({}), '{"client_id":'],
    ['an unknown JSON field', 400, tokenJson({ ...GOOD_TOKEN, clientId: 'x' })],
    ['an unsupported grant type', 400, tokenJson({ ...GOOD_TOKEN, grant_type: 'password' })],
    ['a malformed scope', 400, tokenJson({ ...GOOD_TOKEN, scope: 'a"b' })],
    ['HTTP Basic alone, with no body', 400, { headers: basic('demo', 'demo-secret') }],
    ['Basic and a body secret', 400, { headers: basic('demo', 'demo-secret'), ...tokenJson({ ...GOOD_TOKEN, client_id: undefined }) }],
    ['a wrong secret', 401, tokenJson({ ...GOOD_TOKEN, client_secret: 'wrong' })],
    ['a wrong Basic secret', 401, { headers: basic('demo', 'wrong'), body: 'grant_type=client_credentials', type: 'application/x-www-form-urlencoded' }],
    ['no credentials', 401, tokenJson({ grant_type: 'client_credentials' })],
    ['a body over 64 KiB', 413, tokenJson({ pad: 'x'.repeat(65 * 1024) })],
    ['text/plain', 415, { body: 'grant_type=client_credentials', type: 'text/plain' }],
  ] as Array<[string, number, Request, string?]>)('POST /v1/auth/token with %s: %i', async (_name, status, request, rawBody) => {
    conforms('POST', TOKEN, await send(sb, 'POST', TOKEN, rawBody === undefined ? request : { ...request, body: rawBody }), status);
  });

  it.each([
    ['malformed JSON', 400, { body: '{"api_key"', type: 'application/json' }],
    ['a malformed organization', 400, tokenJson({ ...GOOD_LOGIN, organization_id: 'demo' })],
    ['an unknown field', 400, tokenJson({ ...GOOD_LOGIN, remember: true })],
    ['a wrong API key', 401, tokenJson({ ...GOOD_LOGIN, api_key: 'demo.wrong' })],
    ['no API key', 401, tokenJson({ organization_id: DEMO.org })],
    ['another organization', 403, tokenJson({ ...GOOD_LOGIN, organization_id: 'org_other' })],
    ['a client without market.read', 403, tokenJson({ api_key: 'noscope.noscope-secret', organization_id: DEMO.org })],
    ['a body over 64 KiB', 413, tokenJson({ pad: 'x'.repeat(65 * 1024) })],
    ['a form', 415, { body: 'api_key=demo.demo-secret', type: 'application/x-www-form-urlencoded' }],
  ] as Array<[string, number, Request]>)('POST /auth/cli-login with %s: %i', async (_name, status, request) => {
    conforms('POST', LOGIN, await send(sb, 'POST', LOGIN, request), status);
  });

  it('GET /v1/market/quotes: 400 for a bad query, after the limiter', async () => {
    const invalidQuery = await send(sb, 'GET', QUOTES, { query: 'symbols=', headers: bearer() });
    conforms('GET', QUOTES, invalidQuery, 400);
    expect(invalidQuery.headers['ratelimit-limit']).toBeDefined();
  });

  it('429 on the two auth operations, each on a sandbox of its own with a budget of one', async () => {
    const tight = () => startTestSandbox({ limits: { perMinute: 1, tokensPerMinute: 1 } });
    const tokenSandbox = await tight();
    const loginSandbox = await tight();
    try {
      conforms('POST', TOKEN, await send(tokenSandbox, 'POST', TOKEN, tokenJson(GOOD_TOKEN)), 200);
      conforms('POST', TOKEN, await send(tokenSandbox, 'POST', TOKEN, tokenJson(GOOD_TOKEN)), 429);
      conforms('POST', LOGIN, await send(loginSandbox, 'POST', LOGIN, tokenJson(GOOD_LOGIN)), 200);
      conforms('POST', LOGIN, await send(loginSandbox, 'POST', LOGIN, tokenJson(GOOD_LOGIN)), 429);
    } finally {
      await Promise.all([tokenSandbox.close(), loginSandbox.close()]);
    }
  });

  it.each(OPERATIONS)('$name: 414 for a query over 8 KiB, 417 for an unknown Expect, 431 for oversized headers', async ({ method, path }) => {
    conforms(method, path, await send(sb, method, path, { query: `x=${'a'.repeat(8 * 1024)}`, headers: bearer() }), 414);
    conforms(method, path, await sendRaw(sb, `${method} ${path} HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nContent-Length: 2\r\n\r\n{}`), 417);
    conforms(method, path, await sendRaw(sb, `${method} ${path} HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(17 * 1024)}\r\n\r\n`), 431);
  });

  it.each(OPERATIONS)('$name: 408 for a request that arrives too slowly', async ({ method, path }) => {
    conforms(method, path, await sendRaw(sb, `${method} ${path} HTTP/1.1\r\nHost: x\r\n`, 4000), 408);
  });

  it.each(declaring(400))('$name: 400 for a request that is not valid HTTP', async ({ method, path }) => {
    conforms(method, path, await sendRaw(sb, `${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n`), 400);
  });

  it.each(OPERATIONS)('$name: 500 when the service itself fails', async (operation) => {
    const { method, path } = operation;
    const request = method === 'POST' ? tokenJson(path === TOKEN ? GOOD_TOKEN : GOOD_LOGIN) : { query: exampleQuery(operation), headers: bearer() };
    conforms(method, path, await send(broken, method, path, request), 500);
  });

  it('404 for any other path, 405 for another method on a listed one', async () => {
    for (const path of ['/', '/v1/market/quotes/', '/openapi', '/healthz/']) conforms('GET', path, await send(sb, 'GET', path), 404);
    for (const { path } of OPERATIONS) {
      const other = ['GET', 'POST', 'PUT', 'DELETE'].find((method) => OPENAPI.paths[path]![method.toLowerCase()] === undefined)!;
      conforms(other, path, await send(sb, other, path), 405);
    }
  });
});

describe('coverage', () => {
  it('saw every (operation, status) the document declares', () => {
    expect(documentedResponses().filter((pair) => !seen.has(pair))).toEqual([]);
  });
});
