// A file that says the sandbox is ready, for scripts and CI: written once the server listens,
// atomically (a temporary file in the same directory, then renamed into place), so whoever polls
// for it reads it whole or not at all. Its lines are shell assignments, ready for `. FILE` or
// `cat FILE >> "$GITHUB_ENV"`. See docs/ci.md.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { SandboxConfigError } from './config-error.js';

export function readyFileContent(url: string, pid: number): string {
  return `MKT_BASE_URL=${url}\nMKT_SANDBOX_PID=${pid}\n`;
}

function problem(path: string, error: unknown): SandboxConfigError {
  const code = (error as NodeJS.ErrnoException).code;
  const reason = code === 'ENOENT' ? 'its directory does not exist'
    : code === 'EISDIR' || code === 'ERR_FS_EISDIR' ? 'it is a directory'
      : code === 'EACCES' || code === 'EPERM' ? 'permission denied'
        : (error as Error).message;
  return new SandboxConfigError(`cannot write the ready file ${path}: ${reason}`);
}

/** Removes a ready file left by an earlier run, before listening, so that nobody mistakes it for this one's. */
export async function clearReadyFile(path: string): Promise<void> {
  try {
    await fs.rm(path, { force: true });
  } catch (error) {
    throw problem(path, error);
  }
}

export async function writeReadyFile(path: string, content: string): Promise<void> {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await fs.writeFile(temporary, content, { flag: 'wx', mode: 0o644 });
    await fs.rename(temporary, path);
  } catch (error) {
    await fs.rm(temporary, { force: true }).catch(() => {});
    throw problem(path, error);
  }
}

/** Removes the ready file when the sandbox stops, unless another sandbox has written it since. */
export async function removeReadyFile(path: string, content: string): Promise<void> {
  try {
    if ((await fs.readFile(path, 'utf8')) === content) await fs.rm(path, { force: true });
  } catch {
    // Gone already, or no longer ours to remove: nothing to do.
  }
}
