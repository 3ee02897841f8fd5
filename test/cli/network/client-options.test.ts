// One options type: the CLI hands the library every member of ClientOptions, by spreading what it
// built, never by copying names. The list of members is read from src/api/options.ts with the
// TypeScript checker, so that an option added to the library and forgotten by the CLI fails here.
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ClientOptions } from '../../../src/api/index.js';
import { runCli } from '../../helpers/cli.js';
import { sendQuotes, useServers } from '../../helpers/fault-server.js';
import { quotesEnv } from '../../helpers/quotes-env.js';

// Every client mkt makes goes through createClientWith: record what it is given.
const made = vi.hoisted(() => [] as Array<Record<string, unknown>>);
vi.mock('../../../src/api/internal.js', async (original) => {
  const internal = await original<typeof import('../../../src/api/internal.js')>();
  return {
    ...internal,
    createClientWith: (options: ClientOptions, seam: Parameters<typeof internal.createClientWith>[1]) => {
      made.push({ ...options });
      return internal.createClientWith(options, seam);
    },
  };
});

const servers = useServers();

/** The members of ClientOptions, as the compiler sees them. */
let members: string[] = [];
beforeAll(() => {
  const file = fileURLToPath(new URL('../../../src/api/options.ts', import.meta.url));
  const program = ts.createProgram([file], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)!)!);
  const options = exports.find((symbol) => symbol.name === 'ClientOptions')!;
  members = checker.getDeclaredTypeOfSymbol(options).getProperties().map((property) => property.name).sort();
}, 60_000);

describe('the CLI passes every option of ClientOptions', () => {
  it('the checker finds the options (the list this test holds the CLI to)', () => {
    expect(members).toEqual(expect.arrayContaining(['baseUrl', 'accessToken', 'organizationId', 'timeoutMs', 'hooks', 'signal', 'dispatcher', 'onDebug']));
  });

  it('mkt quotes: its client is given every member, the target included', async () => {
    made.length = 0;
    const api = await servers.start((req, res) => sendQuotes(req, res));
    const result = await runCli(['quotes', 'EURUSD'], { env: quotesEnv(api.url) });
    expect(result.code, result.stderr).toBe(0);
    expect(made).toHaveLength(1);
    const missing = members.filter((name) => !(name in made[0]!));
    expect(missing).toEqual([]);
    expect(typeof made[0]!.accessToken).toBe('function');
  });

  it('mkt login: every member but the token and organization, which it asks for', async () => {
    made.length = 0;
    const api = await servers.answering(200, '{"access_token":"tok_abcdef","token_type":"Bearer","expires_in":60}');
    const result = await runCli(['login', '--org', 'org_demo', '--base-url', api.url], { env: { MKT_API_KEY: 'demo.demo-secret' } });
    expect(result.code, result.stderr).toBe(0);
    const missing = members.filter((name) => !(name in made[0]!));
    expect(missing).toEqual(['accessToken', 'organizationId']);
  });
});
