// What a client, or a target, can make `contracts proxy` hold, and for how long: a request head trickled a line at
// a time meets its deadline (--head-timeout); connections past --max-connections are answered 503; bodies in flight
// past --max-in-flight are answered 503 instead of filling the memory; and a stop ends within --stop-timeout even
// while the target trickles an answer, with the exchange cut off reported as not judged and every report written.
// The proxy runs as its own process; the bounds are set short here, so no test waits long.
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange, spawnProxy } from '../helpers/proxy.js';
import { type RawTarget, startRawTarget } from '../helpers/raw-target.js';

const plainAnswer = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]';
const list = (owner: string) => `/repos/${owner}/app/hooks`;
const get = (owner: string) => `GET ${list(owner)} HTTP/1.1\r\nHost: proxy\r\n\r\n`;
const uploadHead = (owner: string, length: number) =>
  `POST ${list(owner)} HTTP/1.1\r\nHost: proxy\r\nContent-Type: text/plain\r\nContent-Length: ${length}\r\n\r\n`;

type Spawned = Awaited<ReturnType<typeof spawnProxy>>;
let target: RawTarget;
let dir: string;
const spawned: Spawned[] = [];
const sockets = new Set<net.Socket>();

beforeAll(async () => {
  target = await startRawTarget(() => plainAnswer);
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-proxy-bounds-'));
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  for (const proxy of spawned) if (proxy.child.exitCode === null) proxy.child.kill('SIGKILL');
  await target?.close();
  await rm(dir, { recursive: true, force: true });
});

async function startProxy(args: string[], to = target.url): Promise<{ proxy: Spawned; port: number }> {
  const proxy = await spawnProxy(['--target', to, '--port', '0', ...args], 'repository-webhooks');
  spawned.push(proxy);
  return { proxy, port: Number(new URL(proxy.url).port) };
}

/** A raw connection kept open for the test, recording what it is sent and whether it closed. */
async function open(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  sockets.add(socket);
  socket.on('error', () => undefined);
  const state = { raw: '', closed: false, socket };
  socket.on('data', (chunk: Buffer) => (state.raw += chunk.toString('latin1')));
  socket.on('close', () => (state.closed = true));
  await once(socket, 'connect');
  return state;
}

/** Writes `first`, then `line` every `everyMs` until the connection closes or `maxMs` pass; how long it lasted. */
async function trickle(port: number, first: string, line: (index: number) => string, everyMs: number, maxMs: number) {
  const client = await open(port);
  const started = performance.now();
  client.socket.write(first);
  let index = 0;
  while (!client.closed && performance.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, everyMs));
    if (!client.closed) client.socket.write(line(index++));
  }
  client.socket.destroy();
  return { ...client, ms: performance.now() - started };
}

describe('contracts proxy, request heads and connections', () => {
  let port: number;
  beforeAll(async () => {
    ({ port } = await startProxy(['--head-timeout', '300', '--max-connections', '4']));
  }, 60_000);

  it('answers 408 and closes when a head trickles in a line at a time past --head-timeout', async () => {
    const slow = await trickle(
      port,
      `GET ${list('slow')} HTTP/1.1\r\n`,
      (index) => `X-Slow-${index}: 1\r\n`,
      50,
      5_000,
    );
    expect(slow.closed).toBe(true);
    expect(slow.ms).toBeLessThan(2_500);
    expect(slow.raw).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(slow.raw).toContain('the request head did not arrive within 300 ms');
    expect(target.received.map((request) => request.target)).not.toContain(list('slow'));
  });

  it('closes a connection that sends only blank lines, past --head-timeout', async () => {
    const blank = await trickle(port, '\r\n', () => '\r\n', 50, 5_000);
    expect(blank.closed).toBe(true);
    expect(blank.ms).toBeLessThan(2_500);
  });

  it('answers a connection past --max-connections 503 at once and closes it, and serves again once one goes', async () => {
    const held = await Promise.all(Array.from({ length: 4 }, () => open(port)));
    // Each is served (and so counted by the proxy), then stays open, idle.
    for (const [index, client] of held.entries()) {
      client.socket.write(get(`held${index}`));
      await expect.poll(() => client.raw, { timeout: 5_000 }).toMatch(/^HTTP\/1\.1 200 /);
    }
    const over = await rawExchange(port, get('over'), { count: 2, timeoutMs: 2_000 });
    expect(over.answers.map((answer) => answer.status)).toEqual([503]);
    expect(JSON.parse(over.answers[0]!.body)).toEqual({
      error: 'the proxy serves at most 4 connections at once: try again later',
    });
    expect(over.answers[0]!.headers).toMatch(/\r\nretry-after: 1/i);
    expect(over.closed).toBe(true);
    held[0]!.socket.destroy();
    await expect
      .poll(async () => (await rawExchange(port, get('after'), { timeoutMs: 2_000 })).answers[0]?.status, {
        timeout: 5_000,
      })
      .toBe(200);
    for (const client of held) client.socket.destroy();
  });
});

describe('contracts proxy, memory of the requests in flight', () => {
  let port: number;
  beforeAll(async () => {
    // --max-body 0.1 MB: each upload below declares 100,000 bytes; --max-in-flight 0.4 MB holds four of them.
    ({ port } = await startProxy(['--max-body', '0.1', '--max-in-flight', '0.4']));
  }, 60_000);

  it('answers an upload past --max-in-flight 503 while others stall, still serves small requests, and frees the memory as they go', async () => {
    const stalled = await Promise.all(Array.from({ length: 4 }, () => open(port)));
    for (const [index, client] of stalled.entries()) {
      client.socket.write(uploadHead(`up${index}`, 100_000) + 'x'.repeat(1_000));
      // Forwarded as it comes: the target has the head, and waits for the rest of the body, as the proxy does.
      await expect
        .poll(() => target.bytes.some((bytes) => bytes.includes(list(`up${index}`))), { timeout: 5_000 })
        .toBe(true);
    }
    const over = await rawExchange(port, uploadHead('over', 100_000) + 'x'.repeat(1_000), {
      count: 2,
      timeoutMs: 2_000,
    });
    expect(over.answers.map((answer) => answer.status)).toEqual([503]);
    expect(JSON.parse(over.answers[0]!.body).error).toMatch(
      /^the proxy holds all the memory it may for exchanges in flight \(0\.4 MB\): try again later$/,
    );
    expect(over.closed).toBe(true);
    expect(target.received.map((request) => request.target)).not.toContain(list('over'));
    const small = await rawExchange(port, get('small'), { timeoutMs: 2_000 });
    expect(small.answers.map((answer) => answer.status)).toEqual([200]);
    for (const client of stalled) client.socket.destroy();
    await expect
      .poll(
        async () =>
          (await rawExchange(port, uploadHead('whole', 100_000) + 'x'.repeat(100_000), { timeoutMs: 2_000 })).answers[0]
            ?.status,
        { timeout: 5_000 },
      )
      .toBe(200);
  });
});

describe('contracts proxy, stopping while a target trickles an answer', () => {
  it('stops within --stop-timeout on SIGTERM, cuts the exchange off as not judged, and writes the HAR, coverage and report', async () => {
    const trickling = net.createServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n[');
        const timer = setInterval(() => (socket.writable ? socket.write(' ') : clearInterval(timer)), 200);
        socket.on('close', () => clearInterval(timer));
      });
    });
    trickling.listen(0, '127.0.0.1');
    await once(trickling, 'listening');
    try {
      const files = { har: path.join(dir, 'stop.har'), coverage: path.join(dir, 'coverage.json') };
      const report = path.join(dir, 'report.json');
      const { proxy, port } = await startProxy(
        ['--stop-timeout', '500', '--har-out', files.har, '--coverage', files.coverage, '--report', `json:${report}`],
        `http://127.0.0.1:${(trickling.address() as AddressInfo).port}`,
      );
      const client = await open(port);
      client.socket.write(get('trickled'));
      await expect.poll(() => client.raw, { timeout: 5_000 }).toMatch(/^HTTP\/1\.1 200 /);
      const { code, ms } = await proxy.stop('SIGTERM', 10_000);
      expect(ms, proxy.output.stdout + proxy.output.stderr).toBeLessThan(5_000);
      expect(code).toBe(0);
      expect(client.closed).toBe(true);
      expect(proxy.output.stdout).toContain(
        `! GET ${list('trickled')} → 200: not judged: the proxy stopped before this exchange was over (cut off 500 ms after the stop)`,
      );
      expect(proxy.output.stdout).toMatch(/SIGTERM: 1 exchange: .*, 1 cut off at stop \(not judged\)/);
      const har = JSON.parse(await readFile(files.har, 'utf8')) as {
        log: { entries: { response: { comment?: string } }[] };
      };
      expect(har.log.entries).toHaveLength(1);
      expect(har.log.entries[0]!.response.comment).toMatch(/the proxy stopped before this exchange was over/);
      expect(JSON.parse(await readFile(files.coverage, 'utf8'))).toBeTypeOf('object');
      expect(JSON.parse(await readFile(report, 'utf8')).notRun).toEqual(['listWebhooks (cut off at stop: not judged)']);
    } finally {
      await new Promise((resolve) => trickling.close(resolve));
    }
  }, 30_000);
});
