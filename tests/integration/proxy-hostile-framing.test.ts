// `contracts proxy` against framing that its parser (http-parser-js) reads leniently: a negative chunk size or
// Content-Length would have it step backwards through its buffer for ever, blocking the whole proxy; "0x10" or
// "5zz" would be read as lengths. From the target or from a client, such a message is refused (502 or cut off,
// 400 to a client) and the proxy serves on. It runs as its own process, so a hang fails the test instead of
// freezing it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';
import { watchProxyProcess } from '../helpers/proxy.js';

/** What the target answers, by request path. */
const answers: Record<string, string> = {
  '/ok': 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}',
  '/negative-chunk':
    'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n-5\r\n{}\r\n0\r\n\r\n',
  '/letters-chunk':
    'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n2zz\r\n{}\r\n0\r\n\r\n',
  '/negative-length': 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: -1\r\n\r\n{}',
  '/hex-length': 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 0x2\r\n\r\n{}',
};

let target: net.Server;
let child: ReturnType<typeof spawn>;
let proxyUrl: string;
let output: { stdout: string; stderr: string };

beforeAll(async () => {
  target = net.createServer((socket) => {
    socket.on('error', () => undefined);
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      for (let end = received.indexOf('\r\n\r\n'); end >= 0; end = received.indexOf('\r\n\r\n')) {
        const requestPath = received.split(' ')[1] ?? '';
        received = received.slice(end + 4);
        socket.write(answers[requestPath] ?? answers['/ok']!);
      }
    });
  });
  target.listen(0, '127.0.0.1');
  await once(target, 'listening');
  const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  const started = spawn(
    process.execPath,
    [path.join(root, 'bin/contracts.js'), 'proxy', '--api', 'client-session', '--target', targetUrl, '--port', '0'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child = started;
  const watched = watchProxyProcess(started);
  output = watched.output;
  proxyUrl = await watched.url;
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGKILL');
    await once(child, 'close');
  }
  await new Promise((resolve) => target?.close(resolve));
});

/** The proxy still answers a plain request, on a new connection, within 5 s: it is not stuck in a loop. */
async function stillServes(): Promise<void> {
  const response = await fetch(`${proxyUrl}/ok`, { signal: AbortSignal.timeout(5_000) });
  expect(response.status).toBe(200);
  expect(await response.text()).toBe('{}');
}

/** Writes raw bytes to the proxy; resolves with all it answers until it closes (at most 5 s). */
async function rawExchange(bytes: string): Promise<{ answer: string; closed: boolean }> {
  const socket = net.connect(Number(new URL(proxyUrl).port), '127.0.0.1');
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  socket.write(bytes);
  const closed = await Promise.race([
    once(socket, 'close').then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000)),
  ]);
  socket.destroy();
  return { answer, closed };
}

describe('contracts proxy against lenient framing', () => {
  it.each([
    ['a negative chunk size', '/negative-chunk'],
    ['a chunk size with letters after the digits', '/letters-chunk'],
    ['a negative Content-Length', '/negative-length'],
    ['a hexadecimal Content-Length', '/hex-length'],
  ])('does not relay a target answer with %s as a good one, and serves on', async (_name, requestPath) => {
    const outcome = await fetch(`${proxyUrl}${requestPath}`, { signal: AbortSignal.timeout(5_000) }).then(
      async (response) => ({ status: response.status, body: await response.text().catch(() => 'cut off') }),
      (error: Error) => ({ status: 0, body: error.name === 'TimeoutError' ? 'no answer within 5 s' : 'cut off' }),
    );
    // A 502 before the head went on, or the answer cut off after it: never a 200 with a body read some other way.
    expect(outcome.body).not.toBe('no answer within 5 s');
    expect(outcome.status === 502 || outcome.body === 'cut off', JSON.stringify(outcome)).toBe(true);
    await stillServes();
  });

  it.each([
    ['a negative chunk size', 'Transfer-Encoding: chunked\r\n\r\n-5\r\nabcde\r\n0\r\n\r\n'],
    ['a chunk size that is not hexadecimal', 'Transfer-Encoding: chunked\r\n\r\nzz\r\nabcde\r\n0\r\n\r\n'],
    ['a negative Content-Length', 'Content-Length: -1\r\n\r\n{}'],
  ])('answers a client request with %s 400 and closes, and serves on', async (_name, rest) => {
    const { answer, closed } = await rawExchange(`POST /client-session HTTP/1.1\r\nHost: proxy\r\n${rest}`);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(closed).toBe(true);
    await stillServes();
  });

  it('still stops at Ctrl-C with its summary, every exchange accounted for', async () => {
    const closed = once(child, 'close');
    child.kill('SIGINT');
    const stopped = await Promise.race([
      closed.then(() => true),
      new Promise((resolve) => setTimeout(() => resolve(false), 10_000)),
    ]);
    expect(stopped, output.stderr).toBe(true);
    expect(output.stdout).toMatch(/SIGINT: \d+ exchanges/);
  }, 20_000);
});
