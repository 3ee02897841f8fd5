// --exec's program: its arguments split from mkt's at `--`, and the program looked up before any request.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findProgram } from '../../../src/cli/exec/find-program.js';
import { splitProgramArgs } from '../../../src/cli/exec/split-program-args.js';
import { UsageError } from '../../../src/shared/errors.js';
import { tempDir } from '../../helpers/cli.js';

describe('splitProgramArgs', () => {
  it.each([
    // With --exec before the first `--`: what follows `--` is the program's.
    [['quotes', 'EURUSD', '--watch', '--until', 'EURUSD.bid > 1.09', '--exec', 'notify-send', '--', 'EURUSD', 'is up'],
      ['quotes', 'EURUSD', '--watch', '--until', 'EURUSD.bid > 1.09', '--exec', 'notify-send'], ['EURUSD', 'is up']],
    [['quotes', 'EURUSD', '--exec=./notify.sh', '--until', 'bid > 1', '--', '--flag', '--', 'x'],
      ['quotes', 'EURUSD', '--exec=./notify.sh', '--until', 'bid > 1'], ['--flag', '--', 'x']],
    [['quotes', '--exec', 'notify', 'EURUSD', '--', ''], ['quotes', '--exec', 'notify', 'EURUSD'], ['']],
    // --exec with no `--`: a program without arguments.
    [['quotes', 'EURUSD', '--exec', 'notify'], ['quotes', 'EURUSD', '--exec', 'notify'], []],
    // A program spelled `--exec`'s value, even `--exec`: the word after --exec is the program.
    [['quotes', '--exec', '--exec', '--', 'a'], ['quotes', '--exec', '--exec'], ['a']],
    // --exec right before `--`: no program; commander says so.
    [['quotes', 'EURUSD', '--exec', '--', 'a'], ['quotes', 'EURUSD', '--exec'], ['a']],
    // Without --exec, or with it only after `--`, `--` means what it always does.
    [['quotes', '--', '-EURUSD'], ['quotes', '--', '-EURUSD'], undefined],
    [['quotes', 'EURUSD', '--', '--exec', 'x', '--', 'y'], ['quotes', 'EURUSD', '--', '--exec', 'x', '--', 'y'], undefined],
    [['quotes', 'EURUSD'], ['quotes', 'EURUSD'], undefined],
    [['quotes', '--executable', 'x', '--', 'y'], ['quotes', '--executable', 'x', '--', 'y'], undefined],
  ])('%j', (argv, mkt, program) => {
    expect(splitProgramArgs(argv)).toEqual({ argv: mkt, programArgs: program });
  });
});

describe('findProgram, before any request', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  function bin(files: Record<string, number>): string {
    const dir = tempDir('mkt-exec-path-');
    dirs.push(dir);
    for (const [name, mode] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), '#!/bin/sh\n', { mode });
    fs.mkdirSync(path.join(dir, 'folder'));
    return dir;
  }

  async function refusal(promise: Promise<unknown>): Promise<UsageError> {
    const error = await promise.then(() => undefined, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }

  it('a name is looked up on PATH, in order, past entries where it is not executable', async () => {
    const first = bin({ notify: 0o644 });
    const second = bin({ notify: 0o755 });
    expect(await findProgram('notify', { PATH: [first, second].join(path.delimiter) })).toBe(path.join(second, 'notify'));
  });

  it('a path is taken as it is, relative to the working directory', async () => {
    const dir = bin({ 'notify.sh': 0o755 });
    expect(await findProgram('./notify.sh', { PATH: '' }, { cwd: dir })).toBe(path.join(dir, 'notify.sh'));
    expect(await findProgram(path.join(dir, 'notify.sh'), {})).toBe(path.join(dir, 'notify.sh'));
  });

  it.each([
    ['nothing-by-this-name', /^--exec "nothing-by-this-name": no such program on PATH$/, /give its path, or install it$/],
    ['notify hello', /^--exec "notify hello": no such program on PATH$/, /its arguments after --/],
    ['./missing.sh', /^--exec "\.\/missing\.sh": no such file$/, /check the path/],
    ['./folder', /^--exec "\.\/folder": no such file$/, /check the path/],
    ['./plain.sh', /^--exec "\.\/plain\.sh": .*plain\.sh is not executable$/, /chmod \+x/],
    ['plain.sh', /^--exec "plain\.sh": .*plain\.sh is not executable$/, /chmod \+x/],
    ['', /^--exec needs a program$/, /--exec notify-send --/],
    // A long path whole (it was cut at 80 characters without a word), a very long name cut with an ellipsis.
    [`./${'d'.repeat(120)}/run.sh`, new RegExp(`^--exec "\\./${'d'.repeat(120)}/run\\.sh": no such file$`), /check the path/],
    [`./${'e'.repeat(300)}`, new RegExp(`^--exec "\\./${'e'.repeat(198)}…": no such file$`), /check the path/],
  ])('%j is refused: %s', async (program, message, hint) => {
    const dir = bin({ 'plain.sh': 0o644 });
    const error = await refusal(findProgram(program, { PATH: dir }, { cwd: dir }));
    expect(error.message).toMatch(message);
    expect(error.hint).toMatch(hint);
  });
});
