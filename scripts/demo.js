// npm run demo: the main job against the built-in sandbox. Starts `mkt sandbox` on a free port,
// logs in with its demo key into a throw-away config directory, prints quotes as a table, values a
// portfolio in three currencies in dollars, stops the sandbox. Every step is the real `mkt` binary.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/mkt.cjs', import.meta.url));
const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-demo-'));
const sandbox = spawn(process.execPath, [bin, 'sandbox', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });

let failed = false;
try {
  const baseUrl = await firstLine(sandbox);
  const env = { ...process.env, MKT_CONFIG_DIR: configDir, MKT_BASE_URL: baseUrl };
  for (const name of ['MKT_TOKEN', 'MKT_PROFILE', 'MKT_ORG', 'MKT_CLIENT_ID', 'MKT_CLIENT_SECRET', 'MKT_FORMAT']) delete env[name];
  console.error(`sandbox running at ${baseUrl}; config in ${configDir}\n`);
  run(['login', '--org', 'org_demo'], { ...env, MKT_API_KEY: 'demo.demo-secret' }, 'MKT_API_KEY=demo.demo-secret mkt login --org org_demo');
  run(['quotes', 'EURUSD', 'USDJPY', 'AAPL', 'MSFT', 'SPY', '--format', 'table'], env);
  // Pence in London, euros in Frankfurt, dollars in New York, and cash, valued in dollars.
  const portfolio = path.join(configDir, 'portfolio.csv');
  fs.writeFileSync(portfolio, 'symbol,quantity,currency,cost\nAAPL,10,USD,200.5\nVOD.L,1000,GBX,70.25\nSAP.DE,20,EUR\nEUR,2500.75,EUR\n');
  console.error(`$ cat portfolio.csv\n${fs.readFileSync(portfolio, 'utf8')}`);
  run(['value', portfolio, '--base', 'USD', '--format', 'table'], env, 'mkt value portfolio.csv --base USD');
  run(['status'], env);
} catch (error) {
  failed = true;
  console.error(`demo failed: ${error.message}`);
} finally {
  sandbox.kill('SIGTERM');
  fs.rmSync(configDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;

function run(args, env, shown = `mkt ${args.join(' ')}`) {
  console.error(`$ ${shown}`);
  const result = spawnSync(process.execPath, [bin, ...args], { env, stdio: 'inherit' });
  console.error('');
  if (result.status !== 0) throw new Error(`mkt ${args[0]} exited with ${result.status}`);
}

function firstLine(child) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the sandbox did not start within 10 s')), 10_000);
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      resolve(line.trim());
    });
  });
}
