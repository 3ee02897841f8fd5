// The README's library section is the library's reference: every ```ts block in it must compile
// under strict TypeScript against the public index, as `import ... from 'mkt'`, and run against the
// sandbox (the examples' http://127.0.0.1:4010 replaced by the test sandbox's address).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_BATCH_SIZE, DEFAULT_CONCURRENCY, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_MAX_WAIT_MS, DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS,
} from '../../src/shared/limits.js';
import type { RequestLogEntry } from '../../src/sandbox/index.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const INDEX = path.join(ROOT, 'src', 'api', 'index.ts');

function librarySection(): string {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## The library\n');
  expect(start).toBeGreaterThanOrEqual(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

const blocks = [...librarySection().matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);

let dir: string;
let sandbox: TestSandbox;
/** What the sandbox answered, in order. */
const log: RequestLogEntry[] = [];
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-readme-'));
  sandbox = await startTestSandbox({ synthetic: 10_000, onRequest: (entry) => log.push(entry) });
});
afterAll(async () => {
  await sandbox.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the README's library defaults", () => {
  it("are src/shared/limits.ts's", () => {
    const section = librarySection();
    const row = (option: string) => new RegExp(`^\\| \`${option}\` \\|.*\\| ([^|]+) \\|$`, 'm').exec(section)?.[1]?.trim();
    expect(row('timeoutMs')).toBe(`\`${DEFAULT_TIMEOUT_MS}\``);
    expect(row('retries')).toBe(`\`${DEFAULT_RETRIES}\``);
    expect(row('maxWaitMs')).toBe(`\`${DEFAULT_MAX_WAIT_MS}\``);
    expect(row('maxResponseBytes')).toBe(`${DEFAULT_MAX_RESPONSE_BYTES / 1024 / 1024} MiB`);
    expect(section).toMatch(new RegExp(`\\(\`batchSize\`, default ${DEFAULT_BATCH_SIZE},\\s+\`concurrency\` ${DEFAULT_CONCURRENCY} at a time\\)`));
  });
});

describe("the README's library examples", () => {
  it('there are nine, each importing from mkt', () => {
    expect(blocks).toHaveLength(9);
    for (const code of blocks) expect(code).toMatch(/from 'mkt';/);
  });

  it('compile under strict TypeScript, mkt being the public index', () => {
    const files = blocks.map((code, index) => {
      const file = path.join(dir, `example-${index + 1}.mts`);
      fs.writeFileSync(file, code);
      return file;
    });
    // Ambient declarations of src (src/types/*.d.ts), as tsconfig.json includes them.
    const types = path.join(ROOT, 'src', 'types');
    const ambient = fs.existsSync(types) ? fs.readdirSync(types).filter((name) => name.endsWith('.d.ts')).map((name) => path.join(types, name)) : [];
    const program = ts.createProgram([...files, ...ambient], {
      strict: true, noEmit: true, noUncheckedIndexedAccess: true, skipLibCheck: true,
      target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: ['node'], typeRoots: [path.join(ROOT, 'node_modules', '@types')],
      baseUrl: ROOT, paths: { mkt: [path.relative(ROOT, INDEX)] },
    });
    // The examples' own problems; src itself is `npm run typecheck`'s.
    const problems = files.flatMap((file) => ts.getPreEmitDiagnostics(program, program.getSourceFile(file))).map((diagnostic) => {
      const where = diagnostic.file ? `${path.basename(diagnostic.file.fileName)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}` : '';
      return `${where} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    });
    expect(problems).toEqual([]);
  }, 60_000);

  /** Runs block `index` against the sandbox; returns what it printed. */
  async function run(index: number): Promise<{ out: string; err: string }> {
    const code = blocks[index]!.replaceAll("from 'mkt';", `from ${JSON.stringify(INDEX)};`).replaceAll('http://127.0.0.1:4010', sandbox.url);
    const file = path.join(dir, `run-${index + 1}.mts`);
    fs.writeFileSync(file, code);
    let out = '';
    let err = '';
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void (out += `${args.map(String).join(' ')}\n`));
    const error = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void (err += `${args.map(String).join(' ')}\n`));
    try {
      await import(pathToFileURL(file).href);
    } finally {
      log.mockRestore();
      error.mockRestore();
    }
    return { out, err };
  }

  it('1: login and quotes, a repeated symbol once, the unknown one missing', async () => {
    const { out } = await run(0);
    expect(out).toMatch(/^EURUSD \d+\.\d+,AAPL \d+\.\d+\nNOSUCH\n$/);
  });

  it('2: client credentials, the token given to createClient', async () => {
    const { out } = await run(1);
    expect(out).toMatch(/^\d+\.\d+\n$/);
  });

  it('3: hooks: a header on every request, each answer\'s status', async () => {
    const { out } = await run(2);
    expect(out).toBe('cliLogin attempt 1: 200\ngetQuotes attempt 1: 200\n');
  });

  it('4: a token source: the stale token refused, a new one minted, the request asked again', async () => {
    const before = log.length;
    const { out } = await run(3);
    expect(out).toBe('EURUSD\n');
    expect(log.slice(before).map((entry) => `${entry.path} ${entry.status}`)).toEqual(['/v1/market/quotes 401', '/v1/auth/token 200', '/v1/market/quotes 200']);
  });

  it('5: 10,000 symbols with maxWaitMs 30 s: refused at once with the plan', async () => {
    const { out, err } = await run(4);
    expect(out).toBe('');
    expect(err).toBe('100 requests at 60 per 60s need 45s of waiting: raise maxWaitMs\n');
  });

  it('6: a token the service refuses is an AuthError', async () => {
    const { err } = await run(5);
    expect(err).toMatch(/^not authenticated \(401 UNAUTHORIZED\): .* \(401\); the access token is missing, invalid or expired/);
  });

  it("7: the sandbox's quotes pass quoteProblems", async () => {
    const { out } = await run(6);
    expect(out).toBe('EURUSD looks right\nAAPL looks right\n');
  });

  it('8: a portfolio in four currencies valued in EUR, CAD through a cross', async () => {
    const { out } = await run(7);
    const lines = out.split('\n');
    expect(lines.slice(0, 5).map((line) => line.replace(/\d[\d.]*/g, 'N'))).toEqual([
      'VOD.L N GBX = N EUR', 'SAP.DE N EUR = N EUR', 'RY.TO -N CAD = -N EUR', 'AAPL N USD = N EUR', 'EUR N EUR = N EUR',
    ]);
    expect(lines[4]).toBe('EUR 2500.75 EUR = 2500.75 EUR');
    expect(lines[5]).toMatch(/^total -?\d+\.\d+ EUR, P&L -?\d+\.\d+ EUR$/);
    expect(lines.slice(6)).toEqual(['GBP: 1/EURGBP, CAD: 1/(USDCAD*EURUSD), USD: 1/EURUSD', '']);
  });

  it('9: valuePortfolio fetches in two rounds when a currency needs a cross', async () => {
    const before = log.length;
    const { out } = await run(8);
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^-?\d+\.\d+ GBP$/);
    expect(lines.slice(1)).toEqual(['2 requests in 2 rounds', 'EUR: EURGBP, JPY: 1/GBPJPY, CAD: 1/(USDCAD*GBPUSD)', '']);
    expect(log.slice(before).map((entry) => `${entry.path} ${entry.status}`)).toEqual(['/auth/cli-login 200', '/v1/market/quotes 200', '/v1/market/quotes 200']);
  });
});
