// The ready file when the sandbox stops: removed only if the path still holds the very file this
// sandbox wrote, and never opened, so that whatever the path became (a FIFO, a directory, a link,
// another sandbox's file) the sandbox stops at once and leaves it there.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { startSandboxProcess } from '../helpers/bin.js';
import { tempDir } from '../helpers/cli.js';
import { waitFor } from '../helpers/sandbox.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function readyFile(): string {
  const dir = tempDir('mkt-ready-');
  dirs.push(dir);
  return path.join(dir, 'sandbox.env');
}

/** Resolves to the exit code, or rejects if the process has not ended `ms` after the signal. */
function within<T>(promise: Promise<T>, ms: number, onLate: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onLate();
      reject(new Error(`did not stop within ${ms} ms`));
    }, ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe.runIf(process.platform !== 'win32')('mkt sandbox --ready-file, when the path is no longer its file', () => {
  it.each([
    ['a FIFO', (file: string) => execFileSync('mkfifo', [file]), (stat: fs.Stats) => stat.isFIFO()],
    ['a directory', (file: string) => fs.mkdirSync(file), (stat: fs.Stats) => stat.isDirectory()],
    ['a link to /dev/zero', (file: string) => fs.symlinkSync('/dev/zero', file), (stat: fs.Stats) => stat.isSymbolicLink()],
  ])('stops on SIGTERM at once if the ready file became %s, and leaves it', async (_name, replace, is) => {
    const file = readyFile();
    const sandbox = await startSandboxProcess(['--ready-file', file]);
    await waitFor(() => fs.existsSync(file));
    fs.rmSync(file);
    replace(file);
    const code = await within(sandbox.stop('SIGTERM'), 10_000, () => sandbox.child.kill('SIGKILL'));
    expect(code).toBe(0);
    expect(is(fs.lstatSync(file))).toBe(true);
  });
});

describe('the ready file on close, in-process', () => {
  it('is left when another file with the same text has taken its place', async () => {
    const file = readyFile();
    const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, readyFile: file });
    const text = fs.readFileSync(file, 'utf8');
    fs.rmSync(file);
    fs.writeFileSync(file, text);
    await sandbox.close();
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
  });

  it.runIf(process.platform !== 'win32')('is left when a link to a file with the same text has taken its place, and so is that file', async () => {
    const file = readyFile();
    const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, readyFile: file });
    const copy = `${file}.copy`;
    fs.copyFileSync(file, copy);
    fs.rmSync(file);
    fs.symlinkSync(copy, file);
    await sandbox.close();
    expect(fs.lstatSync(file).isSymbolicLink()).toBe(true);
    expect(fs.existsSync(copy)).toBe(true);
  });

  it('is removed when it is still the file the sandbox wrote', async () => {
    const file = readyFile();
    const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, readyFile: file });
    await sandbox.close();
    expect(fs.existsSync(file)).toBe(false);
  });
});
