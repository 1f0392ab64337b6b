// Writes a file the toolkit keeps in the user's project (contracts.config.yaml from `init`, the types `generate`
// writes): never through a symlink, and never half. A symlink committed at that path (a dangling one above all: it
// looks absent) would otherwise make the write land wherever it points, outside the project.
import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { chmod, lstat, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { ContractsError } from '../core/errors.js';

/**
 * Writes `text` to `file` through a fresh temporary file in the same folder, renamed over it: a reader never sees
 * half of it, and a failure leaves what was there. Refused in one line (`shown` names the file) when `file` is a
 * symlink or anything but a regular file. The temporary name is random and opened with `wx`, so nothing planted
 * there is followed. A file replaced keeps its permissions.
 */
export async function writeProjectFile(file: string, text: string, shown = file): Promise<void> {
  const existing = await writableFile(file, shown);
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(8).toString('hex')}.tmp`);
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(temporary, 'wx', 0o666);
  } catch (error) {
    throw refused(shown, (error as NodeJS.ErrnoException).code ?? (error as Error).message);
  }
  try {
    try {
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
    if (existing !== undefined) await chmod(temporary, existing.mode & 0o7777);
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw refused(shown, (error as NodeJS.ErrnoException).code ?? (error as Error).message);
  }
}

/**
 * What is at `file` now (undefined: nothing), refused in one line when it is a symlink or not a regular file. A
 * command that reads the file before replacing it (init) asks first, so it reads nothing a link leads to.
 */
export async function writableFile(file: string, shown = file): Promise<Stats | undefined> {
  const existing = await lstat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw refused(shown, error.code ?? error.message);
  });
  if (existing?.isSymbolicLink())
    throw refused(shown, 'it is a symbolic link, and a link may lead outside the project: replace it with a file');
  if (existing !== undefined && !existing.isFile()) throw refused(shown, 'it is not a regular file');
  return existing;
}

function refused(shown: string, reason: string): ContractsError {
  return new ContractsError('FILE_NOT_WRITABLE', `cannot write ${shown}: ${reason}`);
}
