// Each shell's script in the real shell: it hands `mkt __complete` the words up to the cursor and
// turns its answer into the shell's candidates. A stub `mkt` records the words it is given and
// answers what the test says, so the script's side is checked on its own (the `=` of --format=json,
// descriptions, the directives, an answer that is empty, cut short or failed); a few Tabs then go
// through the built bin, and a few through an interactive shell in tmux, where the widgets run as a
// user's do. zsh and fish are tested where installed (the describe names say so when skipped).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, MKT_SH, ROOT } from '../../helpers/bin.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { shells } from '../../helpers/shells.js';
import { hasTmux, tmuxServer } from '../../helpers/tmux.js';

const exec = promisify(execFile);
for (const [shell, present] of Object.entries(shells)) if (!present) console.warn(`test/cli/completion: ${shell} is not installed; its tests are skipped`);

let dir: string;
const scripts = new Map<string, string>();
/** PATH with a `mkt` that runs the built bin, and one whose answers the test writes. */
let realEnv: Record<string, string>;
let stubEnv: Record<string, string>;
let stubArgs: string;
let stubAnswer: string;

beforeAll(async () => {
  dir = tempDir('mkt-shells-');
  const configDir = path.join(dir, 'config');
  for (const profile of ['default', 'ci', 'prod-eu']) {
    expect((await runCli(['config', 'set', 'org', 'org_demo', '--profile', profile], { configDir })).code).toBe(0);
  }
  const bin = (name: string, body: string) => {
    fs.mkdirSync(path.join(dir, name));
    fs.writeFileSync(path.join(dir, name, 'mkt'), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    return path.join(dir, name);
  };
  stubArgs = path.join(dir, 'stub-args');
  stubAnswer = path.join(dir, 'stub-answer');
  const stub = bin('stub', `for word in "$@"; do printf '%s\\n' "$word"; done > '${stubArgs}'\nif [ -f '${stubAnswer}.stderr' ]; then cat '${stubAnswer}.stderr' >&2; exit 1; fi\ncat '${stubAnswer}'`);
  const real = bin('real', `exec ${MKT_SH} "$@"`);
  const env = (binDir: string) => baseEnv({ PATH: `${binDir}:${process.env.PATH ?? '/usr/bin:/bin'}`, MKT_CONFIG_DIR: configDir, HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'xdg') });
  realEnv = env(real);
  stubEnv = env(stub);
  for (const shell of ['bash', 'zsh', 'fish']) {
    const result = await runCli(['completion', shell]);
    expect(result.code).toBe(0);
    scripts.set(shell, path.join(dir, `mkt.${shell}`));
    fs.writeFileSync(scripts.get(shell)!, result.stdout);
  }
});

const run = async (shell: string, args: string[], env: Record<string, string>) => {
  const { stdout, stderr } = await exec(shell, args, { env, cwd: ROOT, timeout: 60_000 });
  expect(stderr).toBe('');
  return stdout.split('\n').filter((line) => line !== '');
};

/** Sets what the stub prints (and, with `stderr`, that it fails saying that). */
function answer(text: string, stderr?: string) {
  fs.writeFileSync(stubAnswer, text);
  fs.rmSync(`${stubAnswer}.stderr`, { force: true });
  if (stderr !== undefined) fs.writeFileSync(`${stubAnswer}.stderr`, stderr);
  fs.rmSync(stubArgs, { force: true });
}

/** The words the script handed the stub, after `__complete --`. */
function handed(): string[] {
  const args = fs.readFileSync(stubArgs, 'utf8').split('\n').slice(0, -1);
  expect(args.slice(0, 2)).toEqual(['__complete', '--']);
  return args.slice(2);
}

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** Answers that offer nothing: empty, cut short before the directive, failed, or the error directive. */
const NOTHING: Array<[string, string, string?]> = [
  ['an empty answer', ''],
  ['no directive line', 'quotes\nqueue\n'],
  ['a failure, with a message on stderr', '', 'error: internal error\n'],
  ['the error directive', 'quotes\n:1\n'],
];

describe.skipIf(!shells.bash)('bash', () => {
  /** COMPREPLY for COMP_WORDS = `words` (as bash splits them: `--format`, `=`, `nd`), the cursor on the last. */
  const complete = (words: string[], env = stubEnv) =>
    run('bash', ['-c', `source ${quote(scripts.get('bash')!)}; COMP_WORDS=(${words.map(quote).join(' ')}); COMP_CWORD=${words.length - 1}; _mkt_completion; printf '%s\\n' "\${COMPREPLY[@]}"`], env);

  it('loads from the built bin: source <(mkt completion bash)', async () => {
    expect(await run('bash', ['-c', `source <(${MKT_SH} completion bash) && complete -p mkt`], realEnv)).toEqual(['complete -F _mkt_completion mkt']);
  });

  it.each([
    [['mkt', ''], ['']],
    [['mkt', 'quotes', '--fo'], ['quotes', '--fo']],
    [['mkt', 'quotes', '--format', '=', 'nd'], ['quotes', '--format=nd']], // bash split it at the "="
    [['mkt', 'quotes', '--format', '='], ['quotes', '--format=']],
    [['mkt', '--profile', '=', 'ci', 'quotes', ''], ['--profile=ci', 'quotes', '']],
    [['mkt', 'quotes', '--fields', 'symbol,b'], ['quotes', '--fields', 'symbol,b']],
  ])('%j: hands mkt %j', async (words, expected) => {
    answer(':4\n');
    await complete(words);
    expect(handed()).toEqual(expected);
  });

  it.each([
    ['candidates, without their descriptions', ['mkt', 'q'], 'quotes\tget the latest quotes\nqueue\n:4\n', ['queue', 'quotes']],
    ['only those starting with the word', ['mkt', 'qu'], 'quotes\nstatus\n:4\n', ['quotes']],
    ['values after the "=" bash split at', ['mkt', 'quotes', '--format', '=', 'nd'], 'ndjson\n:4\n', ['ndjson']],
    ['file names when mkt offers none and allows them', ['mkt', 'quotes', '--symbols-file', 'package.'], ':0\n', ['package.json']],
    ['directory names only', ['mkt', 'x', 's'], ':16\n', ['scripts', 'src']],
    ['no file names when mkt says so', ['mkt', 'quotes', 'package.'], ':4\n', []],
  ])('%s', async (_name, words, text, expected) => {
    answer(text);
    expect((await complete(words)).sort()).toEqual(expected);
  });

  it.each(NOTHING)('offers nothing, and prints nothing, for %s', async (_name, text, stderr) => {
    answer(text, stderr);
    expect(await complete(['mkt', 'qu'])).toEqual([]);
  });

  it.each([
    [['mkt', 'q'], ['quotes']],
    [['mkt', 'quotes', '--format', '=', 'nd'], ['ndjson']],
    [['mkt', 'quotes', '--profile', 'p'], ['prod-eu']], // read from the config file at Tab time
    [['mkt', 'quotes', '--fields', 'symbol,b'], ['symbol,bid']],
    [['mkt', 'help', 'con'], ['config']],
    [['mkt', 'value', 'package.'], ['package.json']], // the positions file
    [['mkt', 'value', 'x.csv', '--base', 'EU'], ['EUR']],
    [['mkt', 'value', 'x.csv', '--currency', 'GB'], ['GBP', 'GBX', 'GBp']],
  ])('through the built bin: %j -> %j', async (words, expected) => {
    expect(await complete(words, realEnv)).toEqual(expected);
  });
});

describe.skipIf(!shells.zsh)('zsh (tested only where zsh is installed)', () => {
  /**
   * _mkt for `words`, the cursor at the end of the last: _describe, _files and compset only work
   * inside zle, so functions of those names print what they are given.
   */
  const widget = (words: string[]) => run('zsh', ['-f', '-c', [
    'compdef() { }', // compinit's; not needed to call _mkt by hand, and slow to load
    `source ${quote(scripts.get('zsh')!)}`,
    '_describe() { print -r -- describe "$@[1,3]" "$@[5,-1]"; print -rl -- "${(@P)4}" }',
    '_files() { print -r -- "files $*" }',
    'compset() { print -r -- "compset $*" }',
    `words=(${words.map(quote).join(' ')}); CURRENT=${words.length}; PREFIX=${quote(words.at(-1)!)}; _mkt; print -r -- "returned $?"`,
  ].join('\n')], stubEnv);

  it('registers _mkt when sourced from the built bin', async () => {
    // compdef as compinit defines it, recording its arguments: compinit itself is slow to load.
    expect(await run('zsh', ['-f', '-c', `compdef() { print -r -- compdef "$@" }; source <(${MKT_SH} completion zsh)`], realEnv)).toEqual(['compdef _mkt mkt']);
  });

  it('registers _mkt when installed as _mkt in $fpath', { timeout: 90_000 }, async () => {
    const fpath = path.join(dir, 'zfunc');
    fs.mkdirSync(fpath, { recursive: true });
    fs.copyFileSync(scripts.get('zsh')!, path.join(fpath, '_mkt'));
    expect(await run('zsh', ['-f', '-c', `fpath=(${quote(fpath)} $fpath); autoload -U compinit && compinit -u -d ${quote(path.join(dir, 'zcompdump'))} && print -r -- \${_comps[mkt]}`], realEnv)).toEqual(['_mkt']);
  });

  it.each([
    [['mkt', ''], ['']],
    [['mkt', 'quotes', '--format=nd'], ['quotes', '--format=nd']],
    [['mkt', 'quotes', '--venue', "'X Y'", '--f'], ['quotes', '--venue', 'X Y', '--f']], // quotes removed, nothing evaluated
  ])('%j: hands mkt %j', async (words, expected) => {
    answer(':4\n');
    await widget(words);
    expect(handed()).toEqual(expected);
  });

  it.each([
    ['candidates with their descriptions', ['mkt', 'q'], 'quotes\tget the latest quotes\nqueue\n:4\n', ['describe -t mkt mkt', 'quotes:get the latest quotes', 'queue', 'returned 0']],
    ['a ":" in a candidate escaped for _describe', ['mkt', 'x'], 'a:b\n:4\n', ['describe -t mkt mkt', 'a\\:b', 'returned 0']],
    ['values after the "="', ['mkt', 'quotes', '--format=nd'], 'ndjson\n:4\n', ['compset -P *=', 'describe -t mkt mkt', 'ndjson', 'returned 0']],
    ['no space after a list item', ['mkt', 'quotes', '--fields', 'sym'], 'symbol\n:6\n', ['describe -t mkt mkt -S ', 'symbol', 'returned 0']],
    ['file names when mkt offers none and allows them', ['mkt', 'quotes', '--symbols-file', ''], ':0\n', ['files ', 'returned 0']],
    ['directory names only', ['mkt', 'x', ''], ':16\n', ['files -/', 'returned 0']],
    ['nothing when mkt says so', ['mkt', 'quotes', ''], ':4\n', ['returned 1']],
  ])('%s', async (_name, words, text, expected) => {
    answer(text);
    expect(await widget(words)).toEqual(expected);
  });

  it.each(NOTHING)('offers nothing, and prints nothing, for %s', async (_name, text, stderr) => {
    answer(text, stderr);
    expect(await widget(['mkt', 'qu'])).toEqual(['returned 1']);
  });
});

describe.skipIf(!shells.fish)('fish (tested only where fish is installed)', () => {
  /** What fish offers for `line`, the cursor at its end (`complete -C`: fish's own completion, for real). */
  const complete = (line: string, env = stubEnv) => run('fish', ['--no-config', '-c', `source ${quote(scripts.get('fish')!)}; complete -C ${quote(line)}`], env);

  it('loads from the built bin: mkt completion fish | source', async () => {
    expect((await run('fish', ['--no-config', '-c', `${MKT_SH} completion fish | source; complete -C 'mkt sta'`], realEnv))[0]?.split('\t')[0]).toBe('status');
  });

  it.each([
    ['mkt ', ['']],
    ['mkt quotes --format=nd', ['quotes', '--format=nd']],
    ["mkt quotes --venue 'X Y' --f", ['quotes', '--venue', 'X Y', '--f']],
  ])('%j: hands mkt %j', async (line, expected) => {
    answer(':4\n');
    await complete(line);
    expect(handed()).toEqual(expected);
  });

  it.each([
    ['candidates with their descriptions', 'mkt q', 'quotes\tget the latest quotes\nqueue\n:4\n', ['queue', 'quotes\tget the latest quotes']],
    ['the whole word after an "="', 'mkt quotes --format=nd', 'ndjson\n:4\n', ['--format=ndjson']],
    ['a list item and the list going on, so that fish adds no space', 'mkt quotes --fields symbol,b', 'symbol,bid\n:6\n', ['symbol,bid', 'symbol,bid,']],
    ['file names when mkt offers none and allows them', 'mkt quotes --symbols-file package.', ':0\n', ['package.json']],
    ['directory names only', 'mkt x s', ':16\n', ['scripts/', 'src/']],
    ['nothing when mkt says so', 'mkt quotes package.', ':4\n', []],
  ])('%s', async (_name, line, text, expected) => {
    answer(text);
    expect((await complete(line)).map((entry) => entry.replace(/\t(directory|file)$/i, '')).sort()).toEqual(expected);
  });

  it.each(NOTHING)('offers nothing, and prints nothing, for %s', async (_name, text, stderr) => {
    answer(text, stderr);
    expect(await complete('mkt qu')).toEqual([]);
  });

  it.each([
    ['mkt q', ['quotes']],
    ['mkt quotes --format=nd', ['--format=ndjson']],
    ['mkt config list --profile p', ['prod-eu']],
    ['mkt quotes --fields symbol,b', ['symbol,bid', 'symbol,bid,']],
  ])('through the built bin: complete -C %j -> %j', async (line, expected) => {
    expect((await complete(line, realEnv)).map((entry) => entry.split('\t')[0])).toEqual(expected);
  });
});

// The widgets as a user meets them: a real interactive shell in a tmux pane, Tab pressed, the screen read.
describe.skipIf(!hasTmux)('interactively, in tmux', () => {
  /**
   * Types each line, presses Tab, then types `after` (an X shows whether a space came first), and
   * waits for the screen to show `shown`.
   */
  async function session(name: string, start: string[], setup: string, cases: ReadonlyArray<readonly [string, string, RegExp]>) {
    const { tmux, screen, waitFor, close } = tmuxServer(`mkt-${name}-${process.pid}`, () => ({ ...realEnv, TERM: 'xterm-256color' }));
    const screenShows = (pattern: RegExp, timeoutMs?: number) => waitFor(`the screen to show ${pattern}`, 's', async () => {
      const text = await screen('s');
      return pattern.test(text) ? text : undefined;
    }, timeoutMs);
    try {
      await tmux('new-session', '-d', '-s', 's', '-x', '120', '-y', '20', ...start);
      await tmux('send-keys', '-t', 's', setup, 'Enter');
      await screenShows(/^>$/m, 60_000); // capture-pane drops the prompt's trailing space; compinit is slow to load
      for (const [typed, after, shown] of cases) {
        await tmux('send-keys', '-t', 's', 'C-u', typed, 'Tab');
        if (after !== '') await tmux('send-keys', '-t', 's', '-l', after);
        await screenShows(shown);
      }
    } finally {
      await close();
    }
  }

  it.skipIf(!shells.bash)('bash: values after "=", profile names, a list that goes on without a space, file names, currencies', { timeout: 90_000 }, async () => {
    await session('bash', ['bash', '--norc', '--noprofile'], `PS1='> '; source ${quote(scripts.get('bash')!)}; clear`, [
      ['mkt quotes --format=nd', 'X', /^> mkt quotes --format=ndjson X$/m],
      ['mkt quotes --profile pr', 'X', /^> mkt quotes --profile prod-eu X$/m],
      ['mkt quotes --fields symbol,b', 'X', /^> mkt quotes --fields symbol,bidX$/m],
      ['mkt value package.j', 'X', /^> mkt value package\.json X$/m],
      ['mkt value p.csv --base EU', 'X', /^> mkt value p\.csv --base EUR X$/m],
    ]);
  });

  it.skipIf(!shells.zsh)('zsh: values, --format=, profile names and subcommands with descriptions', { timeout: 90_000 }, async () => {
    await session('zsh', ['zsh', '-f'], `PS1='> '; autoload -U compinit && compinit -u -d ${quote(path.join(dir, 'zcompdump'))} && source ${quote(scripts.get('zsh')!)} && clear`, [
      ['mkt quotes --format ', '', /^csv +json +ndjson +table +tsv *$/m],
      ['mkt quotes --format=nd', 'X', /^> mkt quotes --format=ndjson X$/m],
      ['mkt quotes --profile ', '', /^ci +default +prod-eu *$/m],
      ['mkt config ', '', /^get +-- print one setting/m],
      ['mkt quotes --fields symbol,b', 'X', /^> mkt quotes --fields symbol,bidX$/m],
    ]);
  });

  it.skipIf(!shells.fish)('fish: --format=, profile names, a list that goes on without a space', { timeout: 90_000 }, async () => {
    const setup = `function fish_prompt; printf '> '; end; set -g fish_autosuggestion_enabled 0; source ${quote(scripts.get('fish')!)}; clear`;
    await session('fish', ['fish', '--no-config'], setup, [
      ['mkt quotes --format=nd', 'X', /^> mkt quotes --format=ndjson X$/m],
      ['mkt quotes --profile pr', 'X', /^> mkt quotes --profile prod-eu X$/m],
      ['mkt quotes --fields symbol,b', 'X', /^> mkt quotes --fields symbol,bidX$/m],
    ]);
  });
});
