// A `contracts` server (sandbox, receive, proxy…) started as a process of its own, for tests on raw sockets.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { root } from './paths.js';

export type ServerProcess = ChildProcessByStdio<null, Readable, Readable>;

/**
 * `contracts <args>` until its stdout matches `listening` (whose first group is a URL); the URL's port. The process
 * is pushed on `children` at once, for the caller's afterAll to kill; one that exits first rejects with its stderr.
 */
export async function spawnServer(
  args: string[],
  listening: RegExp,
  children: ServerProcess[],
  { cwd = root }: { cwd?: string } = {},
): Promise<number> {
  const child: ServerProcess = spawn(process.execPath, [path.join(root, 'bin/contracts.js'), ...args], {
    cwd,
    env: { ...process.env, SCARF_ANALYTICS: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = listening.exec(stdout);
      if (match) resolve(match[1]!);
    });
    child.once('close', () => reject(new Error(`contracts ${args[0]} exited: ${stderr}`)));
  });
  return Number(new URL(url).port);
}
