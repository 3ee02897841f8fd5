// The library as a program meets it: createClient checks what it is given (an OptionsError naming
// the option, before any connection), refuses plain http beyond this machine, asks for a repeated
// symbol once, and its index exports the public API only (derived from its values and the README).
import { describe, expect, it } from 'vitest';
import type { Dispatcher } from 'undici';
import * as library from '../../src/api/index.js';
import { createClient, NetworkError, OptionsError, type ClientOptions, type MktErrorCode } from '../../src/api/index.js';
import { getToken, startTestSandbox } from '../helpers/sandbox.js';
import { sendQuotes, startFaultServer, useServers } from '../helpers/fault-server.js';
import fs from 'node:fs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const { closeLater } = useServers();

/** A dispatcher that fails the test if anything is sent through it. */
function untouchable(): { dispatcher: Dispatcher; calls: number } {
  const state = { calls: 0, dispatcher: undefined as unknown as Dispatcher };
  state.dispatcher = {
    request: () => {
      state.calls++;
      throw new Error('no request may be sent');
    },
  } as unknown as Dispatcher;
  return state;
}

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('the public index', () => {
  // What is public is derived, not listed: the values index.ts exports (what a program calls and
  // catches) are the roots; the types a program meets through them (parameters, results,
  // properties, base types) must all be exported, so that it can name what it is given; and
  // anything exported must be one of those or named in the README's library section, the
  // reference, so that nothing internal slips out unnoticed. A new public name is therefore a
  // README entry, not an edit here.
  const entry = fileURLToPath(new URL('../../src/api/index.ts', import.meta.url));
  const program = ts.createProgram([entry], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true, skipLibCheck: true, strict: true });
  const checker = program.getTypeChecker();
  const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(entry)!)!);
  const target = (symbol: ts.Symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
  const values = exported.filter((symbol) => target(symbol).flags & ts.SymbolFlags.Value);
  const readme = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('\n## The library\n'), readme.indexOf('\n## ', readme.indexOf('\n## The library\n') + 1));
  /** Identifiers in the section's `code` spans and in its examples' imports from 'mkt'. */
  const identifiers = (text: string) => text.match(/[A-Za-z_$][\w$]*/g) ?? [];
  const examples = [...section.matchAll(/```\w*\n([\s\S]*?)```/g)].map((match) => match[1]!);
  const documented = new Set([
    ...[...section.replace(/```\w*\n[\s\S]*?```/g, '').matchAll(/`([^`\n]+)`/g)].flatMap((match) => identifiers(match[1]!)),
    ...examples.flatMap((code) => [...code.matchAll(/import \{([^}]+)\} from 'mkt'/g)].flatMap((match) => identifiers(match[1]!))),
  ]);

  /** The named types of src/ reachable from the values, each with the way it was reached. */
  function reachableTypes(): Map<string, string> {
    const src = fileURLToPath(new URL('../../src/', import.meta.url));
    const ours = (symbol: ts.Symbol | undefined) => symbol?.declarations?.some((declaration) => declaration.getSourceFile().fileName.startsWith(src)) === true;
    const isNamedType = (symbol: ts.Symbol) => (symbol.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Enum)) !== 0;
    const reached = new Map<string, string>();
    const seen = new Set<ts.Type>();
    const visit = (type: ts.Type, via: string): void => {
      if (seen.has(type)) return;
      seen.add(type);
      if (type.aliasSymbol && ours(type.aliasSymbol)) reached.set(type.aliasSymbol.name, via);
      for (const argument of type.aliasTypeArguments ?? []) visit(argument, via);
      if (type.isUnionOrIntersection()) for (const part of type.types) visit(part, via);
      if (!(type.flags & ts.TypeFlags.Object)) return;
      if ((type as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference) for (const argument of checker.getTypeArguments(type as ts.TypeReference)) visit(argument, via);
      const symbol = type.getSymbol();
      // Node's, undici's and the language's own types are theirs to name.
      if (symbol === undefined || !ours(symbol)) return;
      const here = isNamedType(symbol) ? symbol.name : via;
      if (isNamedType(symbol)) reached.set(symbol.name, via);
      if (type.isClassOrInterface()) for (const base of checker.getBaseTypes(type)) visit(base, here);
      for (const property of checker.getPropertiesOfType(type)) {
        const declaration = property.valueDeclaration ?? property.declarations?.[0];
        if (property.name.startsWith('#') || (declaration && ts.getCombinedModifierFlags(declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected))) continue;
        visit(checker.getTypeOfSymbol(property), `${here}.${property.name}`);
      }
      for (const signature of type.getCallSignatures()) {
        for (const parameter of signature.getParameters()) visit(checker.getTypeOfSymbol(parameter), `${here}(${parameter.name})`);
        visit(checker.getReturnTypeOfSignature(signature), `${here}()`);
      }
      for (const info of checker.getIndexInfosOfType(type)) visit(info.type, `${here}[]`);
    };
    for (const value of values) {
      const symbol = target(value);
      // A class is caught, not built: what a program meets is its instances.
      visit(symbol.flags & ts.SymbolFlags.Class ? checker.getDeclaredTypeOfSymbol(symbol) : checker.getTypeOfSymbol(symbol), value.name);
    }
    return reached;
  }

  it('exports at run time exactly the values it names to TypeScript', () => {
    expect(Object.keys(library).sort()).toEqual(values.map((symbol) => symbol.name).sort());
    expect(values.length).toBeGreaterThan(5);
  });

  it('documents every value in the README\'s library section', () => {
    expect(values.map((symbol) => symbol.name).filter((name) => !documented.has(name))).toEqual([]);
  });

  it('exports every type a program meets through those values (it can name what it is given)', () => {
    const reached = reachableTypes();
    expect(reached.get('QuotesResult')).toBe('createClient().getQuotes()'); // the walk goes into methods' results
    const names = new Set(exported.map((symbol) => symbol.name));
    expect([...reached].filter(([name]) => !names.has(name)).map(([name, via]) => `${name}, reached by ${via}`)).toEqual([]);
  });

  it('exports nothing else, unless the README documents it', () => {
    const reached = reachableTypes();
    const valueNames = new Set(values.map((symbol) => symbol.name));
    expect(exported.map((symbol) => symbol.name).filter((name) => !valueNames.has(name) && !reached.has(name) && !documented.has(name))).toEqual([]);
  });
});

describe('createClient refuses options it cannot use, with an OptionsError naming them', () => {
  it.each<[string, Partial<ClientOptions> | unknown, RegExp]>([
    ['no options', undefined, /^createClient needs an options object with a baseUrl$/],
    ['no baseUrl', {}, /^baseUrl is required/],
    ['a baseUrl that is not a URL', { baseUrl: 'not a url' }, /^baseUrl is not an absolute URL: "not a url"$/],
    ['a relative baseUrl', { baseUrl: '/v1' }, /^baseUrl is not an absolute URL/],
    ['another scheme', { baseUrl: 'ftp://example.com' }, /^baseUrl must be an https:\/\/ or http:\/\/ address, not ftp:\/\/$/],
    ['credentials in the URL', { baseUrl: 'https://user:pw@example.com' }, /^baseUrl must not hold a user name or password$/],
    ['a query in the URL', { baseUrl: 'https://example.com/api?key=1' }, /^baseUrl must not have a query or fragment: https:\/\/example\.com\/api$/],
    ['a negative timeoutMs', { baseUrl: 'https://example.com', timeoutMs: -1 }, /^timeoutMs must be an integer from 1 to 2147483647, not -1$/],
    ['a timeoutMs past what a timer holds', { baseUrl: 'https://example.com', timeoutMs: 2 ** 31 }, /^timeoutMs must be an integer from 1/],
    ['retries as text', { baseUrl: 'https://example.com', retries: '2' }, /^retries must be an integer from 0 to 100, not "2"$/],
    ['a fractional retries', { baseUrl: 'https://example.com', retries: 1.5 }, /^retries must be an integer/],
    ['maxWaitMs NaN', { baseUrl: 'https://example.com', maxWaitMs: Number.NaN }, /^maxWaitMs must be a number of at least 0, not NaN$/],
    ['maxWaitMs Infinity', { baseUrl: 'https://example.com', maxWaitMs: Infinity }, /^maxWaitMs must be a number of at least 0/],
    ['maxResponseBytes 0', { baseUrl: 'https://example.com', maxResponseBytes: 0 }, /^maxResponseBytes must be an integer of at least 1, not 0$/],
    ['a userAgent with a line break', { baseUrl: 'https://example.com', userAgent: 'a\r\nx-evil: 1' }, /^userAgent must be a string of printable ASCII/],
    ['onWait not a function', { baseUrl: 'https://example.com', onWait: 'yes' }, /^onWait must be a function$/],
    ['a dispatcher that is not one', { baseUrl: 'https://example.com', dispatcher: {} }, /^dispatcher must be an undici Dispatcher$/],
    ['an accessToken with a line break', { baseUrl: 'https://example.com', accessToken: 'tok\nx' }, /^accessToken must be a bearer token/],
    ['an organizationId of the wrong form', { baseUrl: 'https://example.com', organizationId: 'demo' }, /^organizationId must have the form org_<id>/],
    ['allowInsecureHttp as text', { baseUrl: 'https://example.com', allowInsecureHttp: 'yes' }, /^allowInsecureHttp must be true or false$/],
  ])('%s', (_name, options, message) => {
    const error = thrown(() => createClient(options as ClientOptions));
    expect(error).toBeInstanceOf(OptionsError);
    expect(error).toMatchObject({ name: 'OptionsError', code: 'INVALID_OPTIONS', message: expect.stringMatching(message) });
  });

  it('never quotes a token it refuses', () => {
    const error = thrown(() => createClient({ baseUrl: 'https://example.com', accessToken: 'SECRET-TOKEN-VALUE\u0000' })) as Error;
    expect(error.message).not.toContain('SECRET-TOKEN-VALUE');
  });

  it.each([
    ['batchSize 0', { batchSize: 0 }, /^batchSize must be an integer from 1 to 10000, not 0$/],
    ['concurrency 0', { concurrency: 0 }, /^concurrency must be an integer from 1 to 64, not 0$/],
    ['no symbols', { symbols: [] }, /^getQuotes needs symbols/],
    ['symbols not an array', { symbols: 'EURUSD' }, /^getQuotes needs symbols/],
    ['a symbol with a space, another with a zero-width space', { symbols: ['EURUSD', 'EUR USD', 'A\u200bB'] }, /^invalid symbols in symbols: "EUR USD", "A\u200bB"$/],
    ['a venue with a control', { symbols: ['EURUSD'], venue: 'X\u001b' }, /^venue must be 1 to 64 visible ASCII characters/],
    ['symbols that start with =, +, - or @', { symbols: ['EURUSD', '=1+1', '+A', '-B', '@SUM(1)'] }, /^invalid symbols in symbols: "=1\+1", "\+A", "-B", "@SUM\(1\)"$/],
  ])('getQuotes with %s: rejected before any request', async (_name, input, message) => {
    const wire = untouchable();
    const { dispatcher } = wire;
    const client = createClient({ baseUrl: 'https://example.com', dispatcher, accessToken: 'tok', organizationId: 'org_demo' });
    await expect(client.getQuotes({ symbols: ['EURUSD'], ...input } as never)).rejects.toMatchObject({ name: 'OptionsError', code: 'INVALID_OPTIONS', message: expect.stringMatching(message) });
    expect(wire.calls).toBe(0);
  });

  it('getQuotes with no input at all: rejected as an OptionsError, not a TypeError', async () => {
    const wire = untouchable();
    const { dispatcher } = wire;
    const client = createClient({ baseUrl: 'https://example.com', dispatcher, accessToken: 'tok', organizationId: 'org_demo' });
    await expect((client.getQuotes as () => Promise<unknown>)()).rejects.toMatchObject({ name: 'OptionsError', code: 'INVALID_OPTIONS', message: expect.stringMatching(/^getQuotes needs symbols/) });
    expect(wire.calls).toBe(0);
  });

  it.each([
    ['no token', {}, 'getQuotes needs an accessToken'],
    ['a token but no organization', { accessToken: 'tok' }, 'getQuotes needs an organizationId'],
  ])('getQuotes with %s: an AuthError (NOT_AUTHENTICATED, status 0) before any request', async (_name, given, message) => {
    const wire = untouchable();
    const client = createClient({ baseUrl: 'https://example.com', dispatcher: wire.dispatcher, ...given });
    await expect(client.getQuotes({ symbols: ['EURUSD'] })).rejects.toMatchObject({
      name: 'AuthError', code: 'NOT_AUTHENTICATED', status: 0, message, hint: 'pass it to createClient or to getQuotes',
    });
    expect(wire.calls).toBe(0);
  });

  it('cliLogin and clientCredentials check their input, never quoting the key', async () => {
    const { dispatcher } = untouchable();
    const client = createClient({ baseUrl: 'https://example.com', dispatcher });
    await expect(client.cliLogin({ apiKey: 'no-dot-SECRET', organizationId: 'org_demo' })).rejects.toMatchObject({
      code: 'INVALID_OPTIONS', message: 'apiKey must have the form <client_id>.<client_secret>',
    });
    await expect(client.cliLogin({ apiKey: 'demo.secret', organizationId: 'demo' })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    await expect(client.clientCredentials({ clientId: 'demo', clientSecret: '' })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});

describe('plain http', () => {
  it.each(['http://api.example.test', 'http://10.0.0.5:4010', 'http://[2001:db8::1]/', 'http://localhost.example.com'])(
    '%s: refused before any connection (INSECURE_HTTP)',
    (baseUrl) => {
      const wire = untouchable();
      const { dispatcher } = wire;
      const error = thrown(() => createClient({ baseUrl, dispatcher }));
      expect(error).toBeInstanceOf(OptionsError);
      expect(error).toMatchObject({ code: 'INSECURE_HTTP', hint: 'use https://, or pass allowInsecureHttp: true for a network you trust' });
      expect((error as Error).message).toMatch(/^baseUrl http:\/\/\S+ is plain http to another machine: the API key, client secret and tokens would cross the network unencrypted$/);
      expect(wire.calls).toBe(0);
    },
  );

  it.each(['http://127.0.0.1:4010', 'http://127.8.9.10', 'http://localhost:4010', 'http://[::1]:4010', 'https://api.example.test'])('%s: allowed', (baseUrl) => {
    expect(() => createClient({ baseUrl })).not.toThrow();
  });

  it('allowInsecureHttp: true lets it through, and the request goes out', async () => {
    const seen: string[] = [];
    const dispatcher = { request: async (options: { origin: string }) => {
      seen.push(String(options.origin));
      throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    } } as unknown as Dispatcher;
    const client = createClient({ baseUrl: 'http://api.example.test', allowInsecureHttp: true, dispatcher, retries: 0 });
    await expect(client.cliLogin({ apiKey: 'demo.secret', organizationId: 'org_demo' })).rejects.toMatchObject({ name: 'NetworkError', code: 'ECONNREFUSED' });
    expect(seen).toEqual(['http://api.example.test']);
  });
});

describe('error codes', () => {
  it('a refused connection is a NetworkError with code ECONNREFUSED', async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, retries: 0 });
    const error = await client.cliLogin({ apiKey: 'demo.secret', organizationId: 'org_demo' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    const code: MktErrorCode = (error as NetworkError).code;
    expect(code).toBe('ECONNREFUSED');
  });
});

describe('getQuotes asks for a repeated symbol once', () => {
  it('in any case, in first-seen order, against the sandbox', async () => {
    const sandbox = await startTestSandbox();
    closeLater(sandbox);
    const client = createClient({ baseUrl: sandbox.url, accessToken: await getToken(sandbox.url), organizationId: 'org_demo' });
    const result = await client.getQuotes({ symbols: ['EURUSD', 'aapl', 'eurusd', 'AAPL', 'EURUSD', 'USDJPY'] });
    expect(result.data.map((quote) => quote.symbol)).toEqual(['EURUSD', 'AAPL', 'USDJPY']);
    expect(result.missing).toEqual([]);
  });

  it('one request carries each symbol once, as first written', async () => {
    const server = await startFaultServer((req, res) => sendQuotes(req, res));
    closeLater(server);
    const client = createClient({ baseUrl: server.url, accessToken: 'tok', organizationId: 'org_demo' });
    const result = await client.getQuotes({ symbols: ['eurusd', 'AAPL', 'EURUSD', 'aapl'], batchSize: 1 });
    expect(server.requests.map((request) => new URL(request.url, server.url).searchParams.get('symbols'))).toEqual(['eurusd', 'AAPL']);
    expect(result.requests).toBe(2);
  });

  it("getQuotes sends the call's own token and organization over createClient's", async () => {
    const server = await startFaultServer((req, res) => sendQuotes(req, res));
    closeLater(server);
    const client = createClient({ baseUrl: server.url, accessToken: 'client-token', organizationId: 'org_client' });
    await client.getQuotes({ symbols: ['EURUSD'], accessToken: 'call-token', organizationId: 'org_call' });
    await client.getQuotes({ symbols: ['EURUSD'] });
    expect(server.requests.map((request) => [request.headers.authorization, request.headers['x-organization-id']])).toEqual([
      ['Bearer call-token', 'org_call'], ['Bearer client-token', 'org_client'],
    ]);
  });
});
