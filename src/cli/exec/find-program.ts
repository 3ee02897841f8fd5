// The --exec program looked up before any request, as the system will look it up when it runs it: a
// name on PATH, or a path (anything with a slash) as it is. A program that is missing or cannot be
// executed, or that someone else could change (trust-program.ts), is a UsageError (exit 2) now,
// rather than a failure after a watch has waited for its moment.
import fs from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../errors/errors.js';
import type { Env } from '../io.js';
import { assertTrustedProgram } from './trust-program.js';

export interface FindProgramOptions {
  /** Where a relative path, and an empty PATH entry, are taken from. */
  cwd?: string;
  platform?: NodeJS.Platform;
}

/** The file that `program` names, and that only this user (or root) can change; throws a UsageError saying why there is none. */
export async function findProgram(program: string, env: Env, options: FindProgramOptions = {}): Promise<string> {
  const cwd = options.cwd ?? process.cwd();
  const windows = (options.platform ?? process.platform) === 'win32';
  // Whole, or cut with an ellipsis that says so when it is too long to be worth repeating.
  const named = `--exec ${JSON.stringify(program.length > 200 ? `${program.slice(0, 200)}…` : program)}`;
  if (program === '') throw new UsageError('--exec needs a program', 'for example --exec notify-send -- "EURUSD is up"');
  const spaced = /\s/.test(program) ? '; give the program alone, and its arguments after --: --exec notify-send -- "EURUSD is up"' : '';
  const hasPath = program.includes('/') || (windows && program.includes('\\'));
  const candidates = hasPath ? [path.resolve(cwd, program)] : onPath(program, env, cwd, windows);
  let notExecutable: string | undefined;
  for (const candidate of candidates) {
    const kind = await probe(candidate, windows);
    if (kind === 'executable') {
      if (!windows) assertTrustedProgram(candidate, named);
      return candidate;
    }
    if (kind === 'not-executable') notExecutable ??= candidate;
  }
  if (notExecutable !== undefined) {
    throw new UsageError(`${named}: ${notExecutable} is not executable`, `make it executable (chmod +x), or run it through its interpreter: --exec sh -- ${program}`);
  }
  if (hasPath) throw new UsageError(`${named}: no such file`, `check the path${spaced}`);
  throw new UsageError(`${named}: no such program on PATH`, `give its path, or install it${spaced}`);
}

function onPath(program: string, env: Env, cwd: string, windows: boolean): string[] {
  const entries = (env.PATH ?? env.Path ?? '').split(path.delimiter);
  const extensions = windows ? ['', ...(env.PATHEXT ?? '.COM;.EXE').split(';').filter(Boolean)] : [''];
  // An empty entry is the current directory, as execvp reads PATH.
  return entries.flatMap((entry) => extensions.map((extension) => path.resolve(cwd, entry === '' ? '.' : entry, program + extension)));
}

async function probe(file: string, windows: boolean): Promise<'executable' | 'not-executable' | 'missing'> {
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) return 'missing';
    if (windows) return 'executable';
    await fs.access(file, fs.constants.X_OK);
    return 'executable';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EACCES' ? 'not-executable' : 'missing';
  }
}
