// Files in a folder only this user can write (the parse cache's, parse-cache.ts): whatever is in such a folder was
// put there by this user's own processes, so what it holds may be believed. A folder anyone else can write, or that
// is a link to somewhere else, is refused whole; and each file is read only if it is a regular file of this user's,
// that no one else can read or write (as only our own write makes one), not a link, not shared by a hard link, and
// no larger than the caller allows, so that a file planted or swapped in can neither be believed, nor point a read
// outside the folder, nor hang it (a FIFO), nor make it grow without end (`/dev/zero`).
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

/**
 * Whether `stat` is of this user's, and its mode has none of `others` (always, where there are no such modes):
 * for the folder, no one else may write; for a file, no one else may even read, as only writePrivateFile makes
 * one (0600), never a checkout (0644), an archive or a copy, so that a folder committed into a repository and
 * named as the cache, say, offers nothing to believe.
 */
function ownOnly(stat: Stats, others: number): boolean {
  const uid = process.getuid?.();
  return uid === undefined || (stat.uid === uid && (stat.mode & others) === 0);
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
  if (!ownOnly(stat, 0o022)) return 'can be written by other users';
  return undefined;
}

/**
 * The bytes of `file` when it is a regular file of this user's alone (not a link, one name, mode 0600 or less) of
 * at most `maxBytes`; else undefined. Reads nothing else, and never waits.
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
    if (!stat.isFile() || stat.nlink !== 1 || !ownOnly(stat, 0o077) || stat.size > maxBytes) return undefined;
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
