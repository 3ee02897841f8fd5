// Profile names come from the config file, which anything can write (a hand edit, another tool), and
// they reach a shell at Tab time. Two defences, each tested on its own: `mkt __complete` offers only
// names --profile accepts, and each script takes whatever candidates it is given as data (a stub
// `mkt` hands them names that look like code). A marker file proves nothing ran.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { baseEnv, ROOT, MKT_SH } from '../../helpers/bin.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { shells } from '../../helpers/shells.js';

const exec = promisify(execFile);

let dir: string;
let marker: string;
/** Names that run `touch <marker>` wherever a shell expands them. */
let hostile: string[];
const scripts: Record<string, string> = {};

/** A config.json written directly, as a hand edit would, without mkt's checks on names. */
function writeConfig(configDir: string, names: readonly string[]) {
  fs.mkdirSync(configDir, { recursive: true, mode: 0o700 });
  const profiles = Object.fromEntries(names.map((name) => [name, { org: 'org_demo' }]));
  fs.writeFileSync(path.join(configDir, 'config.json'), JSON.stringify({ profiles }), { mode: 0o600 });
}

/** A directory holding an executable `mkt` with this body, for PATH. */
function binDir(name: string, body: string) {
  const bin = path.join(dir, name);
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, 'mkt'), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return bin;
}

const shellEnv = (bin: string, configDir = path.join(dir, 'config')) =>
  baseEnv({ PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, MKT_CONFIG_DIR: configDir, HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'xdg') });
const run = async (shell: string, args: string[], env: Record<string, string>) => (await exec(shell, args, { env, cwd: ROOT, timeout: 10_000 })).stdout;
const lines = (text: string) => text.split('\n').filter((line) => line !== '');

beforeAll(async () => {
  dir = tempDir('mkt-completion-names-');
  marker = path.join(dir, 'ran');
  hostile = [`$(touch ${marker})`, `\`touch ${marker}\``, `\${IFS}$(touch ${marker})`];
  for (const shell of ['bash', 'zsh', 'fish']) {
    const result = await runCli(['completion', shell]);
    expect(result.code).toBe(0);
    scripts[shell] = path.join(dir, `mkt.${shell}`);
    fs.writeFileSync(scripts[shell]!, result.stdout);
  }
});
beforeEach(() => {
  fs.rmSync(marker, { force: true });
});

describe('mkt __complete -- quotes --profile ""', () => {
  it.each([
    ['default', true],
    ['prod-eu', true],
    ['v1.2_ci', true],
    ['x'.repeat(64), true],
    ['$(touch MARKER)', false],
    ['`touch MARKER`', false],
    ['a b', false],
    ['-rf', false],
    ['.hidden', false],
    ['line\nbreak', false],
    ['tab\tdescription', false],
    ['x'.repeat(65), false],
    ['ünïcode', false],
  ])('%j is listed: %s (only names --profile accepts)', async (name, listed) => {
    const configDir = path.join(tempDir(), 'config');
    writeConfig(configDir, [name.replace('MARKER', marker), 'ci']);
    const result = await runCli(['__complete', '--', 'quotes', '--profile', ''], { configDir });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(`${listed ? [name, 'ci'].sort().join('\n') : 'ci'}\n:4\n`);
    expect(fs.existsSync(marker)).toBe(false);
  });
});

describe.skipIf(!shells.bash)('bash', () => {
  const complete = (env: Record<string, string>, words: string[]) => {
    const array = words.map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
    return run('bash', ['-c', `source '${scripts.bash}'; COMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}; _mkt_completion; printf '%s\\n' "\${COMPREPLY[@]}"`], env);
  };

  it('runs nothing from a profile name in config.json on mkt quotes --profile <TAB>, and offers the valid names', async () => {
    const configDir = path.join(dir, 'config');
    writeConfig(configDir, ['default', 'ci', ...hostile]);
    const real = binDir('bin', `exec ${MKT_SH} "$@"`); // the built bin
    const out = await complete(shellEnv(real, configDir), ['mkt', 'quotes', '--profile', '']);
    expect(fs.existsSync(marker)).toBe(false);
    expect(lines(out)).toEqual(['ci', 'default']);
  });

  it('takes candidates as data even when mkt prints ones that look like code: no expansion, splitting or globbing', async () => {
    const candidates = ['ci', ...hostile, '*', 'two words', '~', '${HOME}'];
    fs.writeFileSync(path.join(dir, 'candidates-bash'), `${candidates.join('\n')}\n:4\n`);
    const stub = binDir('stub-bash', `cat '${path.join(dir, 'candidates-bash')}'`);
    const env = shellEnv(stub);
    expect(lines(await complete(env, ['mkt', 'quotes', '--profile', '']))).toEqual(candidates);
    expect(lines(await complete(env, ['mkt', 'quotes', '--profile', '$']))).toEqual([hostile[0], hostile[2], '${HOME}']);
    expect(lines(await complete(env, ['mkt', 'quotes', '--profile', '$(']))).toEqual([hostile[0]]);
    expect(lines(await complete(env, ['mkt', 'quotes', '--profile', 'c']))).toEqual(['ci']);
    expect(fs.existsSync(marker)).toBe(false);
  });
});

describe.skipIf(!shells.zsh)('zsh (where installed)', () => {
  it('takes candidates as data: _describe gets them as printed, and nothing runs', async () => {
    const candidates = ['ci', ...hostile, '*', 'two words'];
    fs.writeFileSync(path.join(dir, 'candidates-zsh'), `${candidates.join('\n')}\n:4\n`);
    const stub = binDir('stub-zsh', `cat '${path.join(dir, 'candidates-zsh')}'`);
    // _mkt's _describe only works inside zle: a function of the same name records what it is given.
    const out = await run('zsh', ['-f', '-c', [
      'compdef() { }',
      `source '${scripts.zsh}'`,
      '_describe() { print -rl -- "${(@P)4}" }',
      "words=(mkt quotes --profile ''); CURRENT=4; PREFIX=''; _mkt",
    ].join('; ')], shellEnv(stub));
    expect(fs.existsSync(marker)).toBe(false);
    expect(lines(out)).toEqual(candidates);
  });
});

describe.skipIf(!shells.fish)('fish (where installed)', () => {
  it('takes candidates as data: complete -C lists them as printed, and nothing runs', async () => {
    const candidates = ['ci', ...hostile, '*'];
    fs.writeFileSync(path.join(dir, 'candidates-fish'), `${candidates.join('\n')}\n:4\n`);
    const stub = binDir('stub-fish', `cat '${path.join(dir, 'candidates-fish')}'`);
    const out = await run('fish', ['--no-config', '-c', `source '${scripts.fish}'; complete -C 'mkt quotes --profile '`], shellEnv(stub));
    expect(fs.existsSync(marker)).toBe(false);
    expect(lines(out).map((line) => line.split('\t')[0]).sort()).toEqual([...candidates].sort());
  });
});
