// The library's public types against docs/openapi.yaml: types generated from the document with
// openapi-typescript (its programmatic API, in memory), both read with the TypeScript compiler API,
// and compared field by field (name, optionality, and the type where it is a plain value). Names are
// compared after the library's camelCase renaming. Every difference that remains must be one listed
// below, with the reason it is deliberate; a new one, or a listed one that went away, fails the test.
// The data operations' pairs are read from the document: for `getX`, what the client's method getX
// takes against its parameters, what it returns against its 200 body, and DataItem<'getX'> against
// the schema of `data`'s items; what every data operation differs in is said once (DATA_DELIBERATE).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ROOT } from '../helpers/bin.js';

/** What the library has and what the document has, compared by the name the library uses. */
interface Pair {
  library: string;
  document: string;
  /** Document names the library spells otherwise than by camelCasing them. */
  renames?: Record<string, string>;
  /** The differences that are meant, each with its reason. */
  deliberate: Record<string, string>;
}

const PRICE = 'a decimal string keeps every digit the service sent (227.10, 1.08505), which a JavaScript number cannot';
const ANY_SERVICE = 'the library reads any Market Data Service, not only the sandbox the document describes: RFC 6749 section 5.1 makes expires_in RECOMMENDED and scope OPTIONAL, and the service\'s specification does not show the token lifetime, so the library takes a response without them; the sandbox always sends both';

/** What every data operation's pairs differ in, by the kind of pair: a pattern of the difference and its reason. */
const DATA_DELIBERATE: Record<'input' | 'result' | 'item', Array<[RegExp, string]>> = {
  input: [
    [/^organizationId: optional in the library, required in the document$/, 'it may be given once, to createClient'],
    [/^accessToken: only in the library$/, 'the Authorization header, a security scheme in the document rather than a parameter'],
    [/^\w+: string\[\] in the library, string in the document$/, 'a list in the library, joined with commas into the query'],
  ],
  result: [
    [/^attempts: only in the library$/, 'the client counts its retries'],
    [/^rateLimit: only in the library$/, 'read from the RateLimit-* headers, not the body'],
  ],
  item: [[/^\w+: string in the library, number in the document$/, PRICE]],
};

/** What a data operation's pairs differ in beyond DATA_DELIBERATE, by operationId and kind. */
const DATA_EXTRAS: Record<string, Partial<Record<'input' | 'result' | 'item', Record<string, string>>>> = {
  getQuotes: {
    input: {
      'batchSize: only in the library': 'how the client splits a long list; not on the wire',
      'concurrency: only in the library': 'how many batches the client sends at once; not on the wire',
      'onProgress: only in the library': 'a callback of the client; not on the wire',
    },
    result: {
      'missing: only in the library': 'the client works out which symbols the service left out',
      'requests: only in the library': 'the client counts the batches it sent',
      'unasked: only in the library': 'the client leaves out quotes for symbols it did not ask for, and names them',
      'unusable: only in the library': 'the client judges each quote once, and names those that cannot be right',
    },
  },
};

interface DataPair extends Pair {
  kind: 'input' | 'result' | 'item';
}

interface OperationObject {
  operationId: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ in?: string; $ref?: string }>;
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
}

interface OpenApi {
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, { properties?: Record<string, { items?: { $ref?: string } }> }>; parameters: Record<string, { in: string }> };
}

const OPENAPI = YAML.parse(readFileSync(new URL('../../docs/openapi.yaml', import.meta.url), 'utf8')) as OpenApi;
const refName = (ref: string | undefined) => ref?.split('/').pop();

/** The three pairs of each data operation (one a bearer token opens), read from the document. */
function dataPairs(): Record<string, DataPair> {
  const pairs: Record<string, DataPair> = {};
  for (const operation of Object.values(OPENAPI.paths).flatMap((item) => Object.values(item))) {
    if (!operation.security?.some((scheme) => 'clientCredentials' in scheme)) continue;
    const id = operation.operationId;
    const extras = DATA_EXTRAS[id] ?? {};
    const places = [...new Set((operation.parameters ?? []).map((parameter) => parameter.in ?? OPENAPI.components.parameters[refName(parameter.$ref)!]!.in))];
    pairs[`${id}() and its request`] = {
      kind: 'input', library: `NonNullable<Parameters<mkt.Client["${id}"]>[0]>`, renames: { 'X-Organization-Id': 'organizationId' },
      document: places.map((place) => `operations["${id}"]["parameters"]["${place}"]`).join(' & '), deliberate: extras.input ?? {},
    };
    const body = refName(operation.responses['200']?.content?.['application/json']?.schema?.$ref);
    if (body === undefined) throw new Error(`${id}: its 200 is not a schema of components`);
    pairs[`${id}'s result`] = { kind: 'result', library: `Awaited<ReturnType<mkt.Client["${id}"]>>`, document: `components["schemas"]["${body}"]`, deliberate: extras.result ?? {} };
    const item = refName(OPENAPI.components.schemas[body]?.properties?.data?.items?.$ref);
    if (item === undefined) throw new Error(`${id}: its 200's data is not a list of a schema of components`);
    pairs[`${id}'s item`] = { kind: 'item', library: `mkt.DataItem<"${id}">`, document: `components["schemas"]["${item}"]`, deliberate: extras.item ?? {} };
  }
  return pairs;
}

const PAIRS: Record<string, Pair | DataPair> = {
  ...dataPairs(),
  'the client-credentials token': {
    library: 'mkt.TokenResponse',
    document: 'components["schemas"]["Token"]',
    deliberate: {
      'expiresIn: optional in the library, required in the document': ANY_SERVICE,
      'scope: optional in the library, required in the document': ANY_SERVICE,
      'organizationId: only in the library': 'one type for both token endpoints; undefined for a client-credentials token, which no organization is tied to',
    },
  },
  'the cli-login token': {
    library: 'mkt.TokenResponse',
    document: 'components["schemas"]["CliLoginToken"]',
    deliberate: {
      'expiresIn: optional in the library, required in the document': ANY_SERVICE,
      'scope: optional in the library, required in the document': ANY_SERVICE,
      'organizationId: optional in the library, required in the document': 'one type for both token endpoints; only cli-login\'s tokens have an organization',
    },
  },
  'clientCredentials() and the token request': {
    library: 'Parameters<mkt.Client["clientCredentials"]>[0]',
    document: 'components["schemas"]["TokenRequest"]',
    deliberate: {
      'clientId: required in the library, optional in the document': 'the library always authenticates in the body; the document allows HTTP Basic instead',
      'clientSecret: required in the library, optional in the document': 'the library always authenticates in the body; the document allows HTTP Basic instead',
      'grantType: only in the document': 'the library sends "client_credentials", the only grant there is',
    },
  },
  'cliLogin() and the login request': {
    library: 'Parameters<mkt.Client["cliLogin"]>[0]',
    document: 'components["schemas"]["CliLoginRequest"]',
    deliberate: {},
  },
};

const camelCase = (name: string) => name.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());

interface Field {
  optional: boolean;
  /** The type without undefined, where it is a plain value (string, number, a literal); `object` otherwise. */
  type: string;
}

let checker: ts.TypeChecker;
let probe: ts.SourceFile;

beforeAll(async () => {
  const generated = astToString(await openapiTS(new URL('../../docs/openapi.yaml', import.meta.url)));
  // One in-memory file: the generated types, the library's public entry point, and an alias for
  // each side of each pair, so that one checker resolves both.
  const probePath = path.join(ROOT, 'test', 'api', '__openapi-types-probe.ts');
  const aliases = Object.values(PAIRS).map((pair, index) => `export type Library${index} = ${pair.library};\nexport type Document${index} = ${pair.document};`);
  const text = `${generated}\nimport type * as mkt from '${path.join(ROOT, 'src', 'api', 'index.js')}';\n${aliases.join('\n')}\n`;
  const options: ts.CompilerOptions = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true, noEmit: true, types: ['node'], skipLibCheck: true };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (fileName, language, ...rest) => (fileName === probePath ? ts.createSourceFile(fileName, text, language, true) : getSourceFile.call(host, fileName, language, ...rest));
  host.fileExists = (fileName) => fileName === probePath || fileExists.call(host, fileName);
  host.readFile = (fileName) => (fileName === probePath ? text : readFile.call(host, fileName));
  const program = ts.createProgram([probePath], options, host);
  probe = program.getSourceFile(probePath)!;
  // The probe's own errors (a name either side does not have, a type that does not resolve): the
  // library's sources are type-checked whole by npm run typecheck, not again here.
  const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics(), ...program.getSyntacticDiagnostics(probe), ...program.getSemanticDiagnostics(probe)];
  const errors = diagnostics.map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  expect(errors).toEqual([]);
  checker = program.getTypeChecker();
}, 60_000);

/** The fields of the type alias `name` in the probe file. */
function fieldsOf(name: string, renames: Record<string, string> = {}): Map<string, Field> {
  const alias = probe.statements.find((statement): statement is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(statement) && statement.name.text === name);
  if (alias === undefined) throw new Error(`no alias ${name}`);
  const fields = new Map<string, Field>();
  for (const property of checker.getPropertiesOfType(checker.getTypeAtLocation(alias.name))) {
    const type = checker.getTypeOfSymbolAtLocation(property, alias);
    const optional = (property.flags & ts.SymbolFlags.Optional) !== 0 || (type.isUnion() && type.types.some((member) => (member.flags & ts.TypeFlags.Undefined) !== 0));
    fields.set(renames[property.name] ?? camelCase(property.name), { optional, type: typeText(type) });
  }
  return fields;
}

function typeText(type: ts.Type): string {
  const value = checker.getNonNullableType(type);
  if (checker.isArrayType(value)) return `${typeText(checker.getTypeArguments(value as ts.TypeReference)[0]!)}[]`;
  if ((value.flags & ts.TypeFlags.Object) !== 0) return 'object';
  return checker.typeToString(value);
}

const required = (field: Field) => (field.optional ? 'optional' : 'required');

/** Every difference between the two sides, in the words the `deliberate` lists use. */
function differences(library: Map<string, Field>, document: Map<string, Field>): string[] {
  const found: string[] = [];
  for (const [name, field] of library) {
    const other = document.get(name);
    if (other === undefined) {
      found.push(`${name}: only in the library`);
      continue;
    }
    if (field.optional !== other.optional) found.push(`${name}: ${required(field)} in the library, ${required(other)} in the document`);
    if (field.type !== other.type) found.push(`${name}: ${field.type} in the library, ${other.type} in the document`);
  }
  for (const name of document.keys()) if (!library.has(name)) found.push(`${name}: only in the document`);
  return found;
}

describe('the library\'s public types agree with docs/openapi.yaml, field by field', () => {
  it.each(Object.entries(PAIRS).map(([what, pair], index) => ({ what, pair, index })))('$what: $pair.library and $pair.document', ({ pair, index }) => {
    const library = fieldsOf(`Library${index}`);
    const document = fieldsOf(`Document${index}`, pair.renames);
    expect(library.size).toBeGreaterThan(0);
    expect(document.size).toBeGreaterThan(0);
    const generic = 'kind' in pair ? DATA_DELIBERATE[pair.kind] : [];
    const found = differences(library, document).filter((difference) => !generic.some(([pattern]) => pattern.test(difference)));
    expect(found.sort()).toEqual(Object.keys(pair.deliberate).sort());
  });

  it('reads the fields it compares: the document\'s token_type is "Bearer", its quote\'s bid a number, getQuotes\' symbols a string', () => {
    const document = (name: string) => fieldsOf(`Document${Object.keys(PAIRS).indexOf(name)}`, PAIRS[name]!.renames);
    const token = document('the client-credentials token');
    expect(token.get('tokenType')).toEqual({ optional: false, type: '"Bearer"' });
    expect(token.get('expiresIn')).toEqual({ optional: false, type: 'number' });
    expect(document('getQuotes\'s item').get('bid')).toEqual({ optional: false, type: 'number' });
    expect(document('getQuotes() and its request').get('symbols')).toEqual({ optional: false, type: 'string' });
    expect(document('getQuotes() and its request').get('organizationId')).toEqual({ optional: false, type: 'string' });
  });

  it('finds a pair for each data operation of the document, getQuotes among them', () => {
    expect(Object.keys(PAIRS)).toEqual(expect.arrayContaining(['getQuotes() and its request', 'getQuotes\'s result', 'getQuotes\'s item']));
  });
});
