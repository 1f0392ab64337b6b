// Files in a folder only this user can write (the parse cache's, parse-cache.ts): whatever is in such a folder was
// put there by this user's own processes, so what it holds may be believed. A folder anyone else can write, or that
// is a link to somewhere else, is refused whole; and each file is read only if it is a regular file of this user's,
// not a link, not shared by a hard link, and no larger than the caller allows, so that a file planted or swapped in
// can neither point a read outside the folder, nor hang it (a FIFO), nor make it grow without end (`/dev/zero`).
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  type Stats,
  writeSync,
} from 'node:fs';
import path from 'node:path';

// O_NOFOLLOW: a link is refused at the open (ELOOP), not followed. O_NONBLOCK: a FIFO does not block the open.
// (Both are 0 where the platform has none: Windows, where file modes and owners are not checked either.)
const readFlags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const createFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** Whether `stat` is of this user's, and writable by no one else (always, where there are no such modes). */
function ownOnly(stat: Stats): boolean {
  const uid = process.getuid?.();
  return uid === undefined || (stat.uid === uid && (stat.mode & 0o022) === 0);
}

/**
 * Why `dir` cannot be trusted with data this process will believe, undefined when it can (a folder, not a link,
 * this user's, writable by no one else), or null when there is none (yet).
 */
export function folderDistrust(dir: string): string | undefined | null {
  let stat: Stats;
  try {
    stat = lstatSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return `cannot be examined (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  if (stat.isSymbolicLink()) return 'is a symbolic link';
  if (!stat.isDirectory()) return 'is not a folder';
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) return 'belongs to another user';
  if (!ownOnly(stat)) return 'can be written by other users';
  return undefined;
}

/**
 * The bytes of `file` when it is a regular file of this user's alone (not a link, one name, writable by no one else)
 * of at most `maxBytes`; else undefined. Reads nothing else, and never waits.
 */
export function readPrivateFile(file: string, maxBytes: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, readFlags);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.nlink !== 1 || !ownOnly(stat) || stat.size > maxBytes) return undefined;
    const buffer = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < stat.size) {
      const count = readSync(fd, buffer, read, stat.size - read, read);
      if (count === 0) return undefined;
      read += count;
    }
    return buffer;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `text` as `dir/name`, whole: to a new file beside it (created, never opened through a link), then renamed
 * over it, so a reader sees the old file, none, or all of the new one. On any failure the new file is removed and
 * the error thrown: nothing half-written stays.
 */
export function writePrivateFile(dir: string, name: string, text: string): void {
  const partial = path.join(dir, `${name}.${randomBytes(6).toString('hex')}.partial`);
  const fd = openSync(partial, createFlags, 0o600);
  try {
    try {
      const bytes = Buffer.from(text, 'utf8');
      for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written, bytes.length - written);
    } finally {
      closeSync(fd);
    }
    renameSync(partial, path.join(dir, name));
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}
