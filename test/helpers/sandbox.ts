// Starting the sandbox in tests: in-process, on 127.0.0.1 port 0, with a clock the test moves.
// Also small HTTP helpers shared by the sandbox tests (fetch for ordinary requests, raw sockets for
// what fetch refuses to send).
import net from 'node:net';
import { DEMO, startSandbox, type Sandbox, type StartSandboxOptions } from '../../src/sandbox/index.js';

/** Monday 6 January 2025, 14:30:15.250 UTC: mid-minute, mid-hour, so window edges are visible. */
export const TEST_EPOCH = Date.UTC(2025, 0, 6, 14, 30, 15, 250);

interface TestClock {
  now(): number;
  advance(ms: number): void;
  set(ms: number): void;
}

export interface TestSandbox {
  url: string;
  close(): Promise<void>;
  clock: TestClock;
  port: number;
  sandbox: Sandbox;
}

export type TestSandboxOptions = Omit<StartSandboxOptions, 'now' | 'host' | 'port'> & { startAt?: number };

export async function startTestSandbox(options: TestSandboxOptions = {}): Promise<TestSandbox> {
  const { startAt = TEST_EPOCH, ...rest } = options;
  let time = startAt;
  const clock: TestClock = {
    now: () => time,
    advance: (ms) => {
      time += ms;
    },
    set: (ms) => {
      time = ms;
    },
  };
  const sandbox = await startSandbox({ ...rest, now: () => clock.now(), host: '127.0.0.1', port: 0 });
  return { url: sandbox.url, close: () => sandbox.close(), clock, port: sandbox.port, sandbox };
}

/** Polls `check` every 10 ms until it holds; throws after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

async function toJsonResponse(response: Response): Promise<JsonResponse> {
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<JsonResponse> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return toJsonResponse(response);
}

export async function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<JsonResponse> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return toJsonResponse(response);
}

/** A client-credentials access token. */
export async function getToken(baseUrl: string, clientId: string = DEMO.clientId, clientSecret: string = DEMO.clientSecret): Promise<string> {
  const response = await postJson(`${baseUrl}/v1/auth/token`, { client_id: clientId, client_secret: clientSecret, grant_type: 'client_credentials' });
  if (response.status !== 200) throw new Error(`token request failed: ${response.status} ${response.text}`);
  return (response.json as { access_token: string }).access_token;
}

/** An access token from /auth/cli-login, bound to `org`. */
export async function cliLogin(baseUrl: string, apiKey: string = DEMO.apiKey, org: string = DEMO.org): Promise<string> {
  const response = await postJson(`${baseUrl}/auth/cli-login`, { api_key: apiKey, organization_id: org });
  if (response.status !== 200) throw new Error(`cli-login failed: ${response.status} ${response.text}`);
  return (response.json as { access_token: string }).access_token;
}

/** GET /v1/market/quotes with the given raw query string (without `?`); `org` null sends no X-Organization-Id. */
export async function getQuotes(baseUrl: string, token: string | undefined, query: string, org: string | null = DEMO.org): Promise<JsonResponse> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (org !== null) headers['x-organization-id'] = org;
  return toJsonResponse(await fetch(`${baseUrl}/v1/market/quotes${query === '' ? '' : `?${query}`}`, { headers }));
}

export interface RawResponse {
  status: number;
  /** Header names lower-cased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
  /** Everything received, for assertions about what is not there. */
  raw: string;
}

/** Parses the first HTTP/1.1 response in `raw` (Content-Length bodies only, as the sandbox sends). */
export function parseRawResponse(raw: string): RawResponse | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = raw.slice(0, end).split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3}) /.exec(statusLine);
  if (match === null) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const length = Number(headers['content-length'] ?? 0);
  const body = Buffer.from(raw.slice(end + 4), 'latin1').subarray(0, length).toString('utf8');
  return { status: Number(match[1]), headers, body, raw };
}

export interface RawExchangeOptions {
  /** Half-close after writing (the server sees the end of the request stream). */
  endAfterWrite?: boolean;
  /** Give up after this long and return what arrived (default 3000 ms). */
  timeoutMs?: number;
  /** Resolve as soon as one complete response has arrived, without waiting for the close. */
  firstResponseOnly?: boolean;
}

/**
 * Writes `request` (a string written as latin1, so any byte can be sent) on a fresh TCP connection
 * and collects the answer until the server closes, a first response is complete, or the time runs out.
 */
export function rawExchange(port: number, request: string | Buffer, options: RawExchangeOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(received);
    };
    const timer = setTimeout(done, options.timeoutMs ?? 3000);
    socket.setEncoding('latin1');
    socket.on('connect', () => {
      socket.write(typeof request === 'string' ? Buffer.from(request, 'latin1') : request);
      if (options.endAfterWrite === true) socket.end();
    });
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (options.firstResponseOnly === true) {
        const parsed = parseRawResponse(received);
        if (parsed !== undefined && Buffer.byteLength(parsed.body) >= Number(parsed.headers['content-length'] ?? 0)) done();
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A reset after the server answered and closed is fine; before any answer it is a failure.
      if (received !== '') done();
      else {
        clearTimeout(timer);
        reject(error);
      }
    });
    socket.on('close', done);
  });
}

/** The JSON error envelope: `{"error": {"code", "message"}, "request_id"}`; returns the code, or undefined for another shape. */
export function envelopeCode(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const { error, request_id: requestId } = json as { error?: { code?: unknown; message?: unknown }; request_id?: unknown };
  if (typeof error !== 'object' || error === null) return undefined;
  if (typeof error.code !== 'string' || typeof error.message !== 'string' || typeof requestId !== 'string') return undefined;
  return error.code;
}

/**
 * The token endpoint's error body, RFC 6749 §5.2 plus the service's code and request id:
 * `{"error", "error_description", "code", "request_id"}`, all strings; returns `code`, or undefined for another shape.
 */
export function oauthErrorCode(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const body = json as Record<string, unknown>;
  const fields = ['error', 'error_description', 'code', 'request_id'];
  if (Object.keys(body).sort().join() !== [...fields].sort().join() || !fields.every((name) => typeof body[name] === 'string')) return undefined;
  return body.code as string;
}

/** The code in the shape `path` answers in: RFC 6749's on the token endpoint, the envelope elsewhere. */
export function errorCodeAt(path: string, json: unknown): string | undefined {
  return path === '/v1/auth/token' ? oauthErrorCode(json) : envelopeCode(json);
}

/** The error's message, in either shape. */
export function errorMessage(json: unknown): string | undefined {
  const body = json as { error?: unknown; error_description?: unknown } | undefined;
  if (typeof body?.error_description === 'string') return body.error_description;
  const message = (body?.error as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}
