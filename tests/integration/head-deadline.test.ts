// A request head trickled in one header line at a time meets its deadline, counted from its first byte: not an idle
// timer each line re-arms. Twenty connections sending a line every 3 s were all still open after 75 s. The proxy,
// the sandbox and the receiver each run as `contracts …` in a process of their own with --head-timeout 1000, and
// raw sockets send a line every 300 ms: each is answered 408 and closed within the deadline and a margin.
import { once } from 'node:events';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RawTarget, startRawTarget } from '../helpers/raw-target.js';
import { type ServerProcess, spawnServer } from '../helpers/spawn-server.js';

const headTimeoutMs = 1_000;
/** Well under the 10 s that a line every 300 ms would last under an idle timer, and over a loaded machine's lag. */
const withinMs = headTimeoutMs + 2_000;
const connections = 5;

const children: ServerProcess[] = [];
let target: RawTarget;

beforeAll(async () => {
  target = await startRawTarget(() => 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n[]');
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await target?.close();
});

/** A request line, then one header line every 300 ms until the server closes (10 s at most): how long it lasted. */
async function trickle(port: number, requestLine: string): Promise<{ ms: number; closed: boolean; raw: string }> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  const state = { closed: false, raw: '' };
  socket.on('data', (chunk: Buffer) => (state.raw += chunk.toString('latin1')));
  socket.on('close', () => (state.closed = true));
  const started = performance.now();
  socket.write(`${requestLine}\r\nHost: slow\r\n`);
  for (let index = 0; !state.closed && performance.now() - started < 10_000; index++) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    if (!state.closed) socket.write(`X-Slow-${index}: 1\r\n`);
  }
  const ms = performance.now() - started;
  socket.destroy();
  return { ms, ...state };
}

describe('a trickled request head meets --head-timeout, from its first byte', () => {
  it.each([
    ['contracts proxy', ['proxy', '--api', 'repository-webhooks', '--port', '0'], 'GET /repos/octo/app/hooks HTTP/1.1'],
    ['contracts sandbox', ['sandbox', '--port', '0'], 'GET /repos/octo/app/hooks HTTP/1.1'],
    ['contracts receive', ['receive', '--port', '0'], 'POST /hook HTTP/1.1'],
  ])(
    '%s answers 408 and closes each of its connections',
    async (_name, args, requestLine) => {
      const extra = args[0] === 'proxy' ? ['--target', target.url] : [];
      const port = await spawnServer(
        [...args, ...extra, '--head-timeout', String(headTimeoutMs)],
        /(http:\/\/127\.0\.0\.1:\d+)/,
        children,
      );
      const results = await Promise.all(Array.from({ length: connections }, () => trickle(port, requestLine)));
      for (const result of results) {
        expect(result.closed).toBe(true);
        expect(result.raw).toMatch(/^HTTP\/1\.1 408 /);
        expect(result.ms).toBeLessThan(withinMs);
      }
    },
    60_000,
  );
});
