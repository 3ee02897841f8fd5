// Holds real responses to docs/openapi.yaml: the operation (or the 404/405 responses for what has
// none), the status, the media type, the body against its JSON Schema (OpenAPI 3.1 schemas are JSON
// Schema 2020-12, validated with ajv), every documented header, required or sent, against its
// schema, and no sent header of the documented kinds that the response does not declare.
import fs from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import YAML from 'yaml';

const OPENAPI_PATH = new URL('../../docs/openapi.yaml', import.meta.url);
export const OPENAPI_TEXT = fs.readFileSync(OPENAPI_PATH, 'utf8');
export const OPENAPI = YAML.parse(OPENAPI_TEXT) as OpenApiDocument;

/** Headers whose presence the document speaks for: a response that sends one must declare it. */
const DOCUMENTED_KINDS = ['x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy', 'retry-after', 'www-authenticate', 'allow'];

interface OpenApiDocument {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
  components: { responses: Record<string, unknown> };
  /** The 404 and 405 that no operation owns (an extension: OpenAPI has no place for them). */
  'x-unrouted-responses': Record<'NotFound' | 'MethodNotAllowed', unknown>;
}

interface ResponseObject {
  headers?: Record<string, unknown>;
  content?: Record<string, unknown>;
}

export interface SeenResponse {
  status: number;
  /** Names lower-cased. */
  headers: Record<string, string>;
  body: string;
}

const ajv = new Ajv2020({ allErrors: true, strict: true });
// ajv-formats is CommonJS with `exports.default`; from ESM the plugin is that default.
ajvFormats.default(ajv);
// The document is added whole, so that its `#/components/...` references resolve; its top-level
// fields are OpenAPI's, not JSON Schema keywords (strict mode would refuse them).
for (const field of ['openapi', 'info', 'servers', 'tags', 'paths', 'components', 'security', 'x-unrouted-responses']) ajv.addKeyword(field);
ajv.addSchema(OPENAPI as object, 'openapi');

function pointer(path: readonly string[]): string {
  return path.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

/** The object at a `#/…` reference, and its path (to compile schemas where they stand, refs and all). */
function resolve(value: unknown, path: string[]): { value: unknown; path: string[] } {
  const ref = (value as { $ref?: unknown } | undefined)?.$ref;
  if (typeof ref !== 'string') return { value, path };
  const target = ref.slice(2).split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: unknown = OPENAPI;
  for (const part of target) node = (node as Record<string, unknown>)[part];
  if (node === undefined) throw new Error(`unresolved reference ${ref}`);
  return resolve(node, target);
}

function validate(schemaPath: string[], data: unknown, what: string): string[] {
  const check = ajv.getSchema(`openapi#/${pointer(schemaPath)}`);
  if (check === undefined) throw new Error(`no schema at ${pointer(schemaPath)}`);
  if (check(data)) return [];
  return [`${what}: ${ajv.errorsText(check.errors)}`];
}

/** Where a request lands in the document: an operation id, or the 404/405 responses. */
export function operationOf(method: string, path: string): string {
  const item = OPENAPI.paths[path];
  if (item === undefined) return 'NotFound';
  return item[method.toLowerCase()]?.operationId ?? 'MethodNotAllowed';
}

/** Every (operation, status) the document declares, the 404 and 405 responses included. */
export function documentedResponses(): string[] {
  const pairs = ['NotFound 404', 'MethodNotAllowed 405'];
  for (const item of Object.values(OPENAPI.paths)) {
    for (const operation of Object.values(item)) {
      for (const status of Object.keys(operation.responses)) pairs.push(`${operation.operationId} ${status}`);
    }
  }
  return pairs;
}

/** The problems of `response` to `method path` against the document; empty when it conforms. */
export function problemsOf(method: string, path: string, response: SeenResponse): string[] {
  const operation = operationOf(method, path);
  let located: { value: unknown; path: string[] };
  if (operation === 'NotFound' || operation === 'MethodNotAllowed') {
    if (response.status !== (operation === 'NotFound' ? 404 : 405)) return [`${method} ${path}: ${operation} expected, got ${response.status}`];
    located = resolve(OPENAPI['x-unrouted-responses'][operation], ['x-unrouted-responses', operation]);
  } else {
    const responses = OPENAPI.paths[path]![method.toLowerCase()]!.responses;
    const declared = responses[String(response.status)];
    if (declared === undefined) return [`${operation}: status ${response.status} is not documented`];
    located = resolve(declared, ['paths', path, method.toLowerCase(), 'responses', String(response.status)]);
  }
  const declaredResponse = located.value as ResponseObject;
  const where = `${operation} ${response.status}`;
  const problems: string[] = [];

  const headers = declaredResponse.headers ?? {};
  const declaredNames = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  for (const [name, header] of Object.entries(headers)) {
    const { value, path: headerPath } = resolve(header, [...located.path, 'headers', name]);
    const { required, schema } = value as { required?: boolean; schema: { type?: string } };
    const sent = response.headers[name.toLowerCase()];
    if (sent === undefined) {
      if (required === true) problems.push(`${where}: header ${name} is required but missing`);
      continue;
    }
    const typed = resolve(schema, [...headerPath, 'schema']);
    const type = (typed.value as { type?: string }).type;
    const data = type === 'integer' ? (/^\d+$/.test(sent) ? Number(sent) : sent) : sent;
    problems.push(...validate(typed.path, data, `${where}: header ${name} ${JSON.stringify(sent)}`));
  }
  for (const name of DOCUMENTED_KINDS) {
    if (response.headers[name] !== undefined && !declaredNames.has(name)) problems.push(`${where}: sends ${name}, which the document does not declare`);
  }

  const content = declaredResponse.content ?? {};
  const mediaType = (response.headers['content-type'] ?? '').split(';')[0]!.trim();
  if (!(mediaType in content)) return [...problems, `${where}: media type ${mediaType || '(none)'} is not documented`];
  let body: unknown = response.body;
  if (mediaType.endsWith('json')) {
    try {
      body = JSON.parse(response.body);
    } catch {
      return [...problems, `${where}: the body is not JSON`];
    }
  }
  const schemaAt = resolve((content[mediaType] as { schema: unknown }).schema, [...located.path, 'content', mediaType, 'schema']);
  problems.push(...validate(schemaAt.path, body, `${where}: body`));
  return problems;
}
