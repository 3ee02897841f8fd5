// A file that says the sandbox is ready, for scripts and CI: written once the server listens,
// atomically (a temporary file in the same directory, then renamed into place), so whoever polls
// for it reads it whole or not at all. Its lines are shell assignments, ready for `. FILE` or
// `cat FILE >> "$GITHUB_ENV"`. See docs/ci.md.
import { randomBytes } from 'node:crypto';
import fs, { type FileHandle } from 'node:fs/promises';
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

/**
 * The file a sandbox wrote, held open until it is removed: while it is open, its inode cannot be
 * freed and given to another file, so a path that shows the same device and inode shows this file,
 * and what it holds now can be read through the handle, which is never anything but this file.
 */
export interface WrittenFile {
  handle: FileHandle;
  dev: number;
  ino: number;
  content: string;
}

export async function writeReadyFile(path: string, content: string): Promise<WrittenFile> {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  let handle: FileHandle | undefined;
  try {
    handle = await fs.open(temporary, 'wx+', 0o644);
    await handle.writeFile(content);
    const { dev, ino } = await handle.stat();
    await fs.rename(temporary, path);
    return { handle, dev, ino, content };
  } catch (error) {
    await handle?.close().catch(() => {});
    await fs.rm(temporary, { force: true }).catch(() => {});
    throw problem(path, error);
  }
}

/**
 * Removes the ready file when the sandbox stops, if the path still holds the very file it wrote:
 * not one another sandbox has written since, and never anything else. What is there is looked at
 * (lstat), never opened: opening a FIFO put in its place would wait for a writer, and the sandbox,
 * already stopping, would never stop.
 */
export async function removeReadyFile(path: string, written: WrittenFile): Promise<void> {
  try {
    const now = await fs.lstat(path);
    if (!now.isFile() || now.dev !== written.dev || now.ino !== written.ino) return;
    // Rewritten in place since?
    const expected = Buffer.from(written.content);
    const buffer = Buffer.alloc(expected.length + 1);
    const { bytesRead } = await written.handle.read(buffer, 0, buffer.length, 0);
    if (buffer.subarray(0, bytesRead).equals(expected)) await fs.rm(path, { force: true });
  } catch {
    // Gone already: nothing to do.
  } finally {
    await written.handle.close().catch(() => {});
  }
}
