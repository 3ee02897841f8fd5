// Opening and reading the store's files (config.json, its lock) without ever blocking. A FIFO
// blocks open() until someone writes to it, and a synchronous open or read is deaf to SIGTERM and
// Ctrl-C; a device such as /dev/zero never ends. So the type is checked before the open (a device is
// not even opened), the open is non-blocking (a FIFO swapped in meanwhile opens at once), the
// descriptor's type is checked again, and what is read is capped.
import fs from 'node:fs';

// Windows has neither flag; there a FIFO cannot take a file's name.
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOCTTY ?? 0);

/** A path that holds something other than a regular file. */
export class NotRegularFileError extends Error {
  override name = 'NotRegularFileError';

  /** `kind`: "a FIFO (named pipe)", "a directory"...; `target`: what a symbolic link at `file` leads to. */
  constructor(readonly file: string, readonly kind: string, readonly target: string | undefined) {
    super(`${file} is ${kind}${target === undefined ? '' : ` (it links to ${target})`}, not a regular file`);
  }
}

/** What a file system entry is, for messages: "a FIFO (named pipe)", "a character device"... */
function kindOf(stat: fs.Stats): string {
  if (stat.isFile()) return 'a regular file';
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  if (stat.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/** `file` open for reading, with its status; undefined when nothing is there. */
export function openRegularFile(file: string): { fd: number; stat: fs.Stats } | undefined {
  const before = fs.statSync(file, { throwIfNoEntry: false });
  if (before === undefined) return undefined;
  if (!before.isFile()) throw notRegular(file, before);
  let fd: number;
  try {
    fd = fs.openSync(file, OPEN_FLAGS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined; // removed in between
    if ((error as NodeJS.ErrnoException).code === 'ENXIO') throw notRegular(file, fs.statSync(file)); // a socket, swapped in
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw notRegular(file, stat);
    return { fd, stat };
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

/** The whole of the open file `fd`, or undefined when it holds more than `maxBytes` (it may grow as it is read). */
export function readAtMost(fd: number, maxBytes: number, sizeHint: number): Buffer | undefined {
  let buffer = Buffer.allocUnsafe(Math.min(Math.max(sizeHint, 0), maxBytes) + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > maxBytes) return undefined;
      const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
      buffer.copy(larger, 0, 0, length);
      buffer = larger;
    }
    const read = fs.readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) return buffer.subarray(0, length);
    length += read;
  }
}

/** The error for `file`, whose status `stat` is not a regular file's. */
export function notRegular(file: string, stat: fs.Stats): NotRegularFileError {
  let target: string | undefined;
  try {
    if (fs.lstatSync(file).isSymbolicLink()) target = fs.realpathSync.native(file);
  } catch {
    target = undefined;
  }
  return new NotRegularFileError(file, kindOf(stat), target);
}
