// The package as a user gets it: `npm pack`, installed from the tarball into a fresh prefix outside
// the repository. The installed `mkt` runs against the installed sandbox; the library loads by
// `require` and by `import` (one copy of each class for both), and TypeScript projects compiled
// for CommonJS and for ES modules type-check and run against it, and one with only what the README
// lists for TypeScript (typescript, @types/node) type-checks every declaration. npm test builds
// dist/ first; the pack here skips prepack for that reason (test/package/build-swap.test.ts runs the
// build itself).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { ROOT, baseEnv, collect } from '../helpers/bin.js';
import { relativeLinks } from './links.js';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
// The Node under test first on PATH: npm, the installed bin's `#!/usr/bin/env node` and tsc run on it.
const PATH = `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`;

let work: string;
let tarball: string;
let packed: string[];
let prefix: string;
let installLog: string;

const npmEnv = () => ({ ...process.env, PATH, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' });

beforeAll(() => {
  work = tempDir();
  const json = execFileSync(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT, env: npmEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
  const [pack] = JSON.parse(json) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = path.join(work, pack!.filename);
  packed = pack!.files.map((file) => file.path);
  prefix = path.join(work, 'project');
  fs.mkdirSync(prefix);
  fs.writeFileSync(path.join(prefix, 'package.json'), '{ "name": "consumer", "version": "1.0.0", "private": true }\n');
  // npm writes its warnings to stderr, which execFileSync gives only on failure: capture through a file.
  const log = path.join(work, 'npm-install.log');
  execFileSync('sh', ['-c', `"${NPM}" install --prefer-offline "${tarball}" 2>"${log}"`], { cwd: prefix, env: npmEnv(), stdio: 'ignore', timeout: 180_000 });
  installLog = fs.readFileSync(log, 'utf8');
}, 240_000);

describe('npm pack', () => {
  it('packs the CLI, both library builds with their declarations, the docs, and no build scripts', () => {
    for (const file of ['README.md', 'package.json', 'bin/mkt.cjs', 'dist/cli/launch.cjs', 'dist/cli/main.cjs', 'dist/api.js', 'dist/api.cjs', 'dist/sandbox.js', 'dist/sandbox.cjs',
      'dist/types/api/index.d.ts', 'dist/types/api/index.d.cts', 'dist/types/sandbox/index.d.ts', 'dist/types/sandbox/index.d.cts']) {
      expect(packed).toContain(file);
    }
    expect(packed.some((file) => file.startsWith('docs/') && file.endsWith('.md'))).toBe(true);
    expect(packed.filter((file) => /^(src|test|scripts|bench)\/|\.build-/.test(file))).toEqual([]);
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
    expect(manifest.private).toBeUndefined();
    expect(Object.keys(manifest.scripts).filter((name) => /^(pre|post)?(install|prepare)$/.test(name))).toEqual([]);
    expect(manifest.scripts.prepack).toBe('node scripts/build.js');
  });

  it('makes a tarball whose name git ignores, so that a pack in the repository leaves nothing untracked', () => {
    const check = spawnSync('git', ['check-ignore', '--no-index', '--quiet', path.basename(tarball)], { cwd: ROOT });
    expect(check.status).toBe(0);
  });

  it('every relative link in the packed README and docs leads to a packed file', () => {
    const broken: string[] = [];
    for (const file of packed.filter((name) => name.endsWith('.md'))) {
      const text = execFileSync('tar', ['-xzOf', tarball, `package/${file}`], { encoding: 'utf8' });
      for (const link of relativeLinks(text)) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), link));
        if (!packed.includes(target) && !packed.some((name) => name.startsWith(`${target}/`))) broken.push(`${file} -> ${link}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('has types that resolve for node10, node16 (from CommonJS and ES modules) and bundlers (arethetypeswrong)', () => {
    const attw = path.join(ROOT, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');
    const result = execFileSync(process.execPath, [attw, tarball, '--format', 'json'], { encoding: 'utf8', env: { ...process.env, PATH }, timeout: 120_000 });
    const analysis = JSON.parse(result);
    expect(analysis.analysis.problems ?? []).toEqual([]);
  }, 120_000);
});

describe('the tarball installed into a fresh prefix', () => {
  it('installs without a warning', () => {
    // npm's complaints about this machine's own npm configuration are not the package's.
    const warnings = installLog.split('\n').filter((line) => /\b(warn|WARN|ERR)/.test(line) && !/Unknown (user|global|project|env) config/.test(line));
    expect(warnings).toEqual([]);
  });

  describe('its mkt, run from outside the repository', () => {
    let sandbox: ReturnType<typeof spawn>;
    let url: string;
    const bin = () => path.join(prefix, 'node_modules', '.bin', 'mkt');
    const env = () => baseEnv({ PATH, HOME: work, MKT_CONFIG_DIR: path.join(work, 'config'), MKT_BASE_URL: url });
    const mkt = (args: string[], extra: Record<string, string> = {}) => {
      const child = spawn(bin(), args, { cwd: work, env: { ...env(), ...extra }, stdio: ['pipe', 'pipe', 'pipe'] });
      return collect(child, performance.now(), '', 30_000);
    };

    beforeAll(async () => {
      sandbox = spawn(bin(), ['sandbox', '--port', '0'], { cwd: work, env: baseEnv({ PATH, HOME: work }), stdio: ['ignore', 'pipe', 'pipe'] });
      url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the installed sandbox did not start within 20 s')), 20_000);
        sandbox.once('exit', (code) => reject(new Error(`the installed sandbox exited with ${code}`)));
        createInterface({ input: sandbox.stdout! }).once('line', (line) => {
          clearTimeout(timer);
          resolve(line.trim());
        });
      });
    }, 30_000);
    afterAll(() => {
      sandbox?.kill('SIGTERM');
    });

    it('prints its version, logs in to its own sandbox and gets quotes', async () => {
      const version = await mkt(['--version']);
      expect(version).toMatchObject({ code: 0, stderr: '', stdout: `${JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version}\n` });
      expect(await mkt(['login', '--org', 'org_demo'], { MKT_API_KEY: 'demo.demo-secret' })).toMatchObject({ code: 0 });
      const quotes = await mkt(['quotes', 'EURUSD', 'AAPL', '--json']);
      expect(quotes).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(quotes.stdout).data.map((quote: { symbol: string }) => quote.symbol)).toEqual(['EURUSD', 'AAPL']);
    });
  });

  it('loads by require and by import, mkt and mkt/sandbox alike, with one copy of each class', () => {
    const script = `
      const cjs = require('mkt');
      const cjsSandbox = require('mkt/sandbox');
      (async () => {
        const esm = await import('mkt');
        const esmSandbox = await import('mkt/sandbox');
        if (esm.AuthError !== cjs.AuthError || esmSandbox.startSandbox !== cjsSandbox.startSandbox) throw new Error('two copies');
        const sandbox = await esmSandbox.startSandbox({ port: 0 });
        try {
          const client = cjs.createClient({ baseUrl: sandbox.url });
          const token = await client.cliLogin({ apiKey: 'demo.demo-secret', organizationId: 'org_demo' });
          const { data } = await client.getQuotes({ symbols: ['EURUSD'], accessToken: token.accessToken, organizationId: 'org_demo' });
          const failed = await client.getQuotes({ symbols: ['EURUSD'], accessToken: 'wrong', organizationId: 'org_demo' }).catch((error) => error);
          console.log(JSON.stringify({ symbol: data[0].symbol, esmAuth: failed instanceof esm.AuthError, cjsAuth: failed instanceof cjs.AuthError }));
        } finally {
          await sandbox.close();
        }
      })().catch((error) => { console.error(error); process.exitCode = 1; });
    `;
    fs.writeFileSync(path.join(prefix, 'both.cjs'), script);
    const output = execFileSync(process.execPath, ['both.cjs'], { cwd: prefix, encoding: 'utf8', timeout: 30_000 });
    expect(JSON.parse(output)).toEqual({ symbol: 'EURUSD', esmAuth: true, cjsAuth: true });
  });

  it('type-checks and runs in TypeScript projects for CommonJS (node10, node16) and ES modules, and type-checks for bundlers', () => {
    const source = `import { createClient, AuthError, type Quote } from 'mkt';
import { startSandbox, type Sandbox } from 'mkt/sandbox';
const quote: Quote | undefined = undefined;
async function run(): Promise<void> {
  const sandbox: Sandbox = await startSandbox({ port: 0 });
  try {
    const client = createClient({ baseUrl: sandbox.url });
    const token = await client.cliLogin({ apiKey: 'demo.demo-secret', organizationId: 'org_demo' });
    const { data } = await client.getQuotes({ symbols: ['AAPL'], accessToken: token.accessToken, organizationId: 'org_demo' });
    console.log(data[0]?.symbol, typeof AuthError, quote);
  } finally {
    await sandbox.close();
  }
}
void run();
`;
    const projects = {
      'cjs-node10': { module: 'commonjs', moduleResolution: 'node10', type: 'commonjs' },
      'cjs-node16': { module: 'node16', moduleResolution: 'node16', type: 'commonjs' },
      'esm-node16': { module: 'node16', moduleResolution: 'node16', type: 'module' },
      bundler: { module: 'esnext', moduleResolution: 'bundler', type: 'module' },
    };
    const configs: string[] = [];
    // skipLibCheck: the consumer's code is checked against mkt's declarations; attw, above, checks how they resolve.
    for (const [name, { module, moduleResolution, type }] of Object.entries(projects)) {
      const dir = path.join(prefix, name);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type }));
      fs.writeFileSync(path.join(dir, 'index.ts'), source);
      const config = {
        compilerOptions: { module, moduleResolution, target: 'es2022', strict: true, skipLibCheck: true, types: ['node'], typeRoots: [path.join(ROOT, 'node_modules', '@types')], outDir: 'out', noEmit: name === 'bundler' },
        files: ['index.ts'],
      };
      fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(config));
      configs.push(path.join(dir, 'tsconfig.json'));
    }
    // One tsc process for the four projects (build mode), its errors on stdout.
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = spawnSync(process.execPath, [tsc, '-b', ...configs], { encoding: 'utf8', timeout: 120_000 });
    expect(result.stdout).toBe('');
    expect(result.status).toBe(0);
    for (const name of ['cjs-node10', 'cjs-node16', 'esm-node16']) {
      const output = execFileSync(process.execPath, [path.join(prefix, name, 'out', 'index.js')], { cwd: prefix, encoding: 'utf8', timeout: 30_000 });
      expect(output).toBe('AAPL function undefined\n');
    }
  }, 120_000);
});

describe('a TypeScript project with only what the README lists', () => {
  /** The packages of the README's `npm install -D …` for TypeScript projects, in its library section. */
  function readmePackages(): string[] {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const library = readme.slice(readme.indexOf('\n## The library\n'), readme.indexOf('\n### Options\n'));
    const command = /TypeScript projects need[^`]*`npm install -D ([^`]+)`/.exec(library);
    if (command === null) throw new Error('the README\'s library section names no packages for TypeScript projects');
    return command[1]!.trim().split(/\s+/);
  }

  it('type-checks against mkt and mkt/sandbox, their declarations and undici\'s included, by import and by import()', () => {
    const packages = readmePackages();
    expect(packages).toEqual(['typescript', '@types/node']);
    // The versions this repository builds with, so that the install comes from npm's cache.
    const versions = packages.map((name) => `${name}@${JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version}`);
    // Beside mkt in the prefix it is installed in (nothing else is there).
    execFileSync(NPM, ['install', '--prefer-offline', ...versions], { cwd: prefix, env: npmEnv(), stdio: 'ignore', timeout: 180_000 });
    // A CommonJS project: its imports resolve to the .d.cts declarations, its import() to the .d.ts ones.
    const source = `import { createClient, type TokenResponse } from 'mkt';
import { createSandboxHandler, startSandbox } from 'mkt/sandbox';
export async function run(): Promise<TokenResponse> {
  const sandbox = await startSandbox({ port: 0 });
  try {
    return await createClient({ baseUrl: sandbox.url }).clientCredentials({ clientId: 'demo', clientSecret: 'demo-secret' });
  } finally {
    await sandbox.close();
  }
}
export const handler = createSandboxHandler();
export async function fromModules(): Promise<unknown[]> {
  const [api, sandbox] = await Promise.all([import('mkt'), import('mkt/sandbox')]);
  return [api.createClient, sandbox.startSandbox];
}
`;
    const project = path.join(prefix, 'typescript-consumer');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ type: 'commonjs' }));
    fs.writeFileSync(path.join(project, 'index.ts'), source);
    // No skipLibCheck and no typeRoots: every declaration is checked, with the prefix's own @types.
    fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { module: 'node16', moduleResolution: 'node16', target: 'es2022', strict: true, noEmit: true },
      files: ['index.ts'],
    }));
    const result = spawnSync(process.execPath, [path.join(prefix, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], { cwd: project, encoding: 'utf8', timeout: 120_000 });
    expect(result.stdout).toBe('');
    expect(result.status).toBe(0);
  }, 240_000);
});
