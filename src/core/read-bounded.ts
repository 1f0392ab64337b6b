// Reads a file a user or a spec named, bounded: a spec from a pull request is hostile until checked, so no read
// may grow without limit (`/dev/zero`) or wait for ever (a FIFO with no writer).
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** The default bound on one spec file, the root or one a `$ref` names (`refs.maxFileMB` in the config). */
export const defaultMaxSpecFileBytes = 64 * 1024 * 1024;

export type BoundedRead = { text: string } | { refused: string };

/**
 * The text of `file`, or why it was not read: over `maxBytes`, or (with `regularOnly`) not a regular file. Opened
 * with O_NONBLOCK so a FIFO does not block the open; nothing past `maxBytes + 1` bytes is read.
 */
export async function readBounded(file: string, maxBytes: number, regularOnly: boolean): Promise<BoundedRead> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) return { refused: 'is a directory, not a file' };
    if (regularOnly && !stat.isFile()) return { refused: 'is not a regular file (a device, FIFO or socket)' };
    if (stat.isFile() && stat.size > maxBytes) return { refused: overLimit(maxBytes) };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const want = Math.min(1024 * 1024, maxBytes + 1 - total);
      const buffer = Buffer.allocUnsafe(want);
      const { bytesRead } = await readOnce(handle, buffer);
      if (bytesRead === 0) break;
      chunks.push(buffer.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) return { refused: overLimit(maxBytes) };
    }
    return { text: Buffer.concat(chunks, total).toString('utf8') };
  } finally {
    await handle.close();
  }
}

// A non-blocking descriptor with nothing to read yet (a pipe) answers EAGAIN: wait a little and read again.
async function readOnce(handle: Awaited<ReturnType<typeof open>>, buffer: Buffer): Promise<{ bytesRead: number }> {
  for (;;) {
    try {
      return await handle.read(buffer, 0, buffer.length, null);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

function overLimit(maxBytes: number): string {
  const size = maxBytes >= 1024 * 1024 ? `${Math.round(maxBytes / (1024 * 1024))} MB` : `${maxBytes} bytes`;
  return `is over the ${size} limit for a spec file (refs.maxFileMB in the config)`;
}
