// A read-only command never changes a file's mode, and no command chmods what
// config.json links to before it knows that file is mkt's config.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/bin.js';
import { tempDir } from '../helpers/cli.js';

const mode = (target: string) => fs.statSync(target).mode & 0o777;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function linkedConfig(text: string): { dir: string; target: string } {
  const root = tempDir();
  dirs.push(root);
  const dir = path.join(root, 'cfg');
  fs.mkdirSync(dir, { mode: 0o700 });
  const target = path.join(root, 'not-mine.txt');
  fs.writeFileSync(target, text);
  fs.chmodSync(target, 0o644);
  fs.symlinkSync(target, path.join(dir, 'config.json'));
  return { dir, target };
}

describe.runIf(process.platform !== 'win32')('the modes of files mkt did not make', () => {
  it.each([
    ['status', ['status']],
    ['config get', ['config', 'get', 'org']],
    ['config list', ['config', 'list']],
    ['login', ['login', '--org', 'org_demo', '--base-url', 'http://127.0.0.1:9']],
    ['logout', ['logout']],
  ])('%s: config.json linking to a 0644 file that is not JSON is exit 2, and the file keeps its mode and text', async (_name, args) => {
    const { dir, target } = linkedConfig('root:x:0:0:root:/root:/bin/bash\n');
    const run = await runBin(args, { env: { MKT_CONFIG_DIR: dir, MKT_API_KEY: 'demo.demo-secret' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/not valid JSON/);
    expect(mode(target)).toBe(0o644);
    expect(fs.readFileSync(target, 'utf8')).toBe('root:x:0:0:root:/root:/bin/bash\n');
  });

  it('status: config.json linking to a 0644 config warns, and changes neither the link\'s target nor the directory', async () => {
    const { dir, target } = linkedConfig('{"profiles": {"default": {"org": "org_demo"}}}\n');
    fs.chmodSync(dir, 0o755);
    const run = await runBin(['status', '--json'], { env: { MKT_CONFIG_DIR: dir } });
    expect(JSON.parse(run.stdout).config_file).toMatchObject({ mode: '0644', dir_mode: '0755', safe: false });
    expect(run.stderr).toMatch(/not-mine\.txt|config\.json is readable by other users \(mode 0644\)/);
    expect(mode(target)).toBe(0o644);
    expect(mode(dir)).toBe(0o755);
  });
});
