// The fuzzer's socket-level client (wire-client.ts, behind HttpCapture.exchange) against raw servers: the bytes it
// sends are node:http's, a header that would inject another is refused, connections are reused only when in step
// (a server that closes idle connections, answers nobody asked for, Connection: close), heads are bounded, a body
// over the cap drops its connection, interim answers are skipped, and the pool bounds and releases what it holds.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ContractsError } from '../../src/core/errors.js';
import { HttpCapture } from '../../src/http/http-capture.js';
import { root } from '../helpers/paths.js';

/** A raw server: `onRequest` gets each request's bytes (one read per request: the requests here are small). */
interface RawServer {
  url: string;
  received: string[];
  /** Connections accepted so far, and how many of them are closed. */
  opened: number;
  closed: number;
  sockets: Set<net.Socket>;
  whenClosed(count: number): Promise<void>;
  close(): Promise<void>;
}

const servers: RawServer[] = [];
const captures: HttpCapture[] = [];

afterEach(async () => {
  for (const capture of captures.splice(0)) capture.close();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function rawServer(onRequest: (socket: net.Socket, request: string, index: number) => void): Promise<RawServer> {
  const waiting: { count: number; resolve: () => void }[] = [];
  const server = net.createServer((socket) => {
    state.opened++;
    state.sockets.add(socket);
    let index = 0;
    socket.on('data', (chunk: Buffer) => {
      const request = chunk.toString('latin1');
      state.received.push(request);
      onRequest(socket, request, index++);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      state.closed++;
      state.sockets.delete(socket);
      for (const wait of waiting) if (state.closed >= wait.count) wait.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const state: RawServer = {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    received: [],
    opened: 0,
    closed: 0,
    sockets: new Set(),
    whenClosed: (count) =>
      state.closed >= count ? Promise.resolve() : new Promise((resolve) => waiting.push({ count, resolve })),
    close: async () => {
      for (const socket of state.sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  servers.push(state);
  return state;
}

function capture(options: { timeoutMs?: number; maxBodyBytes?: number } = {}): HttpCapture {
  const made = new HttpCapture({ timeoutMs: options.timeoutMs ?? 5000, maxBodyBytes: options.maxBodyBytes ?? 1000 });
  captures.push(made);
  return made;
}

const ok = (body: string, extra = '') =>
  `HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

describe('the wire client', () => {
  it.each([
    [
      'a GET with headers, a repeated name joined',
      {
        method: 'GET',
        path: '/a?b=1',
        headers: [
          ['X-A', '1'],
          ['x-b', '2'],
          ['x-a', '3'],
        ] as [string, string][],
      },
      'GET /a?b=1 HTTP/1.1\r\nX-A: 1, 3\r\nx-b: 2\r\nHost: HOST\r\nConnection: keep-alive\r\n\r\n',
    ],
    [
      'a POST with a UTF-8 body',
      {
        method: 'POST',
        path: '/p',
        headers: [['content-type', 'application/json']] as [string, string][],
        body: '{"a":"é"}',
      },
      'POST /p HTTP/1.1\r\ncontent-type: application/json\r\ncontent-length: 10\r\nHost: HOST\r\nConnection: keep-alive\r\n\r\n',
    ],
    [
      'a POST without a body',
      { method: 'POST', path: '/p', headers: [] as [string, string][] },
      'POST /p HTTP/1.1\r\nHost: HOST\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n',
    ],
    [
      'a DELETE without a body, a Latin-1 value',
      { method: 'DELETE', path: '/d', headers: [['x-name', 'café']] as [string, string][] },
      'DELETE /d HTTP/1.1\r\nx-name: café\r\nHost: HOST\r\nConnection: keep-alive\r\n\r\n',
    ],
  ])('sends %s as node:http did, byte for byte', async (_name, request, head) => {
    const server = await rawServer((socket) => socket.write(ok('')));
    const host = new URL(server.url).host;
    await capture().exchange({ ...request, url: `${server.url}${request.path}` });
    // The head is Latin-1 on the wire, the body UTF-8.
    expect(Buffer.from(server.received.join(''), 'latin1')).toEqual(
      Buffer.concat([
        Buffer.from(head.replace('HOST', host), 'latin1'),
        Buffer.from('body' in request ? request.body : '', 'utf8'),
      ]),
    );
  });

  it.each([
    ['CR LF in a value', [['x-a', 'v\r\nx-injected: 1']]],
    ['a lone LF in a value', [['x-a', 'v\nx-injected: 1']]],
    ['a NUL in a value', [['x-a', 'v\0']]],
    ['a character beyond Latin-1', [['x-a', 'v\u0100']]],
    ['a name with a colon', [['x-a: 1\r\nx-b', 'v']]],
  ])('refuses a request with %s before sending anything, in one clear line', async (_name, headers) => {
    const server = await rawServer((socket) => socket.write(ok('')));
    const sending = capture().exchange({
      method: 'GET',
      url: `${server.url}/x`,
      headers: headers as [string, string][],
    });
    await expect(sending).rejects.toThrow(ContractsError);
    await expect(sending).rejects.toThrow(
      /^cannot send http:\/\/127\.0\.0\.1:\d+ \(GET \/x\): the (value of header|header name)/,
    );
    await expect(sending).rejects.not.toThrow(/x-injected|\bv\b/);
    expect(server.opened).toBe(0);
  });

  it('sends GETs again on a fresh connection when the server closed the reused one without answering', async () => {
    // Each connection answers its first request only (without Connection: close), and closes on the next.
    const server = await rawServer((socket, _request, index) =>
      index === 0 ? socket.write(ok('fine')) : socket.end(),
    );
    const client = capture();
    for (let count = 0; count < 5; count++) {
      const exchange = await client.exchange({ method: 'GET', url: `${server.url}/x`, headers: [] });
      expect([exchange.status, exchange.body]).toEqual([200, 'fine']);
    }
    expect(server.opened).toBeGreaterThan(1);
  });

  it('does not send a POST twice when the server closed the reused connection without answering', async () => {
    const server = await rawServer((socket, _request, index) =>
      index === 0 ? socket.write(ok('fine')) : socket.end(),
    );
    const client = capture();
    await client.exchange({ method: 'POST', url: `${server.url}/x`, headers: [], body: '{}' });
    await expect(client.exchange({ method: 'POST', url: `${server.url}/x`, headers: [], body: '{}' })).rejects.toThrow(
      /^cannot reach http:\/\/127\.0\.0\.1:\d+ \(POST \/x\): ECONNRESET$/,
    );
    expect(server.received.filter((request) => request.startsWith('POST'))).toHaveLength(2);
  });

  it.each([
    ['Connection: close', ok('a', 'connection: close\r\n')],
    ['HTTP/1.0 without keep-alive', ok('a').replace('HTTP/1.1', 'HTTP/1.0')],
  ])('does not reuse a connection after an answer with %s', async (_name, answer) => {
    const server = await rawServer((socket) => socket.write(answer));
    const client = capture();
    for (let count = 0; count < 3; count++)
      await client.exchange({ method: 'GET', url: `${server.url}/x`, headers: [] });
    expect(server.opened).toBe(3);
  });

  it('reads a body delimited by the close of the connection', async () => {
    const server = await rawServer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\nsome ');
      setTimeout(() => socket.end('more'), 20);
    });
    const exchange = await capture().exchange({ method: 'GET', url: `${server.url}/x`, headers: [] });
    expect(exchange.body).toBe('some more');
  });

  it.each([
    ['in the same write as the answer', (socket: net.Socket) => socket.write(ok('first') + ok('bogus'))],
    [
      'in part, in the same write as the answer',
      (socket: net.Socket) => socket.write(`${ok('first')}HTTP/1.1 200 OK\r\ncontent-length: 5\r\n`),
    ],
    [
      'later, on the idle connection',
      (socket: net.Socket) => {
        socket.write(ok('first'));
        setTimeout(() => socket.writable && socket.write(ok('bogus')), 20);
      },
    ],
  ])('drops a connection that sends an answer nobody asked for (%s)', async (_name, answer) => {
    const server = await rawServer((socket) => answer(socket));
    const client = capture();
    for (let count = 0; count < 3; count++) {
      const exchange = await client.exchange({ method: 'GET', url: `${server.url}/x`, headers: [] });
      expect(exchange.body).toBe('first');
      // The client drops the connection once the stray answer comes: the next request goes on a new one.
      await server.whenClosed(count + 1);
    }
    expect(server.opened).toBe(3);
  });

  it.each([
    ['in one write', (socket: net.Socket) => socket.write(`HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(40_000)}\r\n\r\n`)],
    [
      'streamed without end',
      (socket: net.Socket) => {
        socket.write('HTTP/1.1 200 OK\r\n');
        const timer = setInterval(() => {
          if (!socket.writable) return clearInterval(timer);
          socket.write(`x-more: ${'b'.repeat(1000)}\r\n`);
        }, 1);
      },
    ],
  ])('refuses response headers over the limit (%s) in one line', async (_name, answer) => {
    const server = await rawServer((socket) => answer(socket));
    await expect(
      capture({ timeoutMs: 20_000 }).exchange({ method: 'GET', url: `${server.url}/x`, headers: [] }),
    ).rejects.toThrow(/^http:\/\/127\.0\.0\.1:\d+ \(GET \/x\): response headers too large \(over \d+ bytes/);
    await server.whenClosed(1);
  });

  it('reports a declared body over the cap at once and drops its connection', async () => {
    const server = await rawServer((socket) =>
      socket.write(`HTTP/1.1 200 OK\r\ncontent-length: 1000000\r\n\r\n${'z'.repeat(100)}`),
    );
    const exchange = await capture({ timeoutMs: 20_000 }).exchange({
      method: 'GET',
      url: `${server.url}/x`,
      headers: [],
    });
    expect([exchange.body, exchange.bodyTooLarge]).toEqual(['', 1000]);
    await server.whenClosed(1);
  });

  it('reports a gzip body that decodes past the cap as too large', async () => {
    const { gzipSync } = await import('node:zlib');
    const zipped = gzipSync(Buffer.alloc(1_000_000, 'x'));
    const server = await rawServer((socket) =>
      socket.write(
        Buffer.concat([
          Buffer.from(
            `HTTP/1.1 200 OK\r\ncontent-encoding: gzip\r\ntransfer-encoding: chunked\r\n\r\n${zipped.length.toString(16)}\r\n`,
          ),
          zipped,
          Buffer.from('\r\n0\r\n\r\n'),
        ]),
      ),
    );
    const exchange = await capture().exchange({ method: 'GET', url: `${server.url}/x`, headers: [] });
    expect([exchange.body, exchange.bodyTooLarge]).toEqual(['', 1000]);
  });

  it('skips an interim 100 answer and captures the final one', async () => {
    const server = await rawServer((socket) => socket.write(`HTTP/1.1 100 Continue\r\n\r\n${ok('final')}`));
    const exchange = await capture().exchange({ method: 'GET', url: `${server.url}/x`, headers: [] });
    expect([exchange.status, exchange.body]).toEqual([200, 'final']);
  });

  it('reads no body after the answer to a HEAD, and reuses the connection', async () => {
    const server = await rawServer((socket) => socket.write('HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\n'));
    const client = capture({ timeoutMs: 20_000 });
    for (let count = 0; count < 3; count++) {
      const exchange = await client.exchange({ method: 'HEAD', url: `${server.url}/x`, headers: [] });
      expect([exchange.status, exchange.body]).toEqual([200, '']);
    }
    expect(server.opened).toBe(1);
  });

  it.each([
    [
      'a body cut off',
      'HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npartial',
      /the connection broke while reading the response body \(aborted\)$/,
    ],
    [
      'a Content-Length that is not a count',
      'HTTP/1.1 200 OK\r\ncontent-length: 0x10\r\n\r\n',
      /\(GET \/x\): the target's answer is not well-formed HTTP\/1\.1: Content-Length "0x10" is not a byte count$/,
    ],
    [
      'a negative chunk size',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n',
      /: the target's answer is not well-formed HTTP\/1\.1: a chunk size that is not a hexadecimal count: "-5"$/,
    ],
    ['a status line that is not HTTP', 'SSH-2.0-OpenSSH\r\n\r\n', /: HPE_INVALID_CONSTANT$/],
    // Framing two readers could take differently: read one way, the bytes left over would answer the next request.
    [
      'both Content-Length and chunked encoding',
      'HTTP/1.1 200 OK\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
      /^http:\/\/127\.0\.0\.1:\d+ \(GET \/x\): the target's answer is not well-formed HTTP\/1\.1: both Transfer-Encoding and Content-Length: the framing is ambiguous$/,
    ],
    [
      'two Content-Length headers',
      'HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 2\r\n\r\n{}',
      /: the target's answer is not well-formed HTTP\/1\.1: more than one Content-Length header$/,
    ],
    [
      'two Transfer-Encoding headers',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
      /: the target's answer is not well-formed HTTP\/1\.1: more than one Transfer-Encoding header$/,
    ],
  ])('fails on %s with a clear error, not a hang', async (_name, answer, message) => {
    const server = await rawServer((socket) => socket.end(answer));
    await expect(
      capture({ timeoutMs: 20_000 }).exchange({ method: 'GET', url: `${server.url}/x`, headers: [] }),
    ).rejects.toThrow(message);
  });

  it('aborts what is in flight on a second interrupt, but not a cleanup request', async () => {
    const server = await rawServer((socket, request) => {
      if (request.startsWith('DELETE')) setTimeout(() => socket.write(ok('cleaned')), 300);
    });
    const client = capture({ timeoutMs: 60_000 });
    const pending = client.exchange({ method: 'GET', url: `${server.url}/silent`, headers: [] });
    const cleanup = client.exchange({ method: 'DELETE', url: `${server.url}/hook`, headers: [] }, true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.interrupt();
    client.interrupt();
    await expect(pending).rejects.toMatchObject({ code: 'INTERRUPTED' });
    expect((await cleanup).body).toBe('cleaned');
  });

  it('opens no more connections than requests in flight, reuses them, and keeps at most 64 idle', async () => {
    const server = await rawServer((socket) => socket.write(ok('x')));
    const client = capture();
    const batch = (size: number) =>
      Promise.all(
        Array.from({ length: size }, () => client.exchange({ method: 'GET', url: `${server.url}/x`, headers: [] })),
      );
    await batch(8);
    expect(server.opened).toBeLessThanOrEqual(8);
    const first = server.opened;
    await batch(8);
    expect(server.opened).toBe(first);
    await batch(80);
    // 80 in flight at most 80 connections; once answered, the pool keeps 64 of them.
    await server.whenClosed(server.opened - 64);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.opened - server.closed).toBe(64);
  });

  it('closes its connections on close(), and an idle one does not keep the process alive', async () => {
    const server = await rawServer((socket) => socket.write(ok('x')));
    const script = `
      import { HttpCapture } from ${JSON.stringify(path.join(root, 'src/http/http-capture.ts'))};
      const capture = new HttpCapture({ timeoutMs: 5000 });
      const exchange = await capture.exchange({ method: 'GET', url: ${JSON.stringify(`${server.url}/x`)}, headers: [] });
      const done = performance.now();
      process.on('exit', () => console.log(exchange.body, Math.round(performance.now() - done)));
    `;
    // Without close(): the process ends as soon as the exchange is over, not when the idle connection expires (4 s).
    // Not spawnSync: the server answering it runs in this process.
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script],
        { cwd: root, encoding: 'utf8', timeout: 20_000 },
        (error, out) => (error ? reject(error) : resolve(out)),
      ),
    );
    const [body, lingeredMs] = stdout.trim().split(' ');
    expect(body).toBe('x');
    expect(Number(lingeredMs)).toBeLessThan(2_000);
    await server.whenClosed(1);
    const client = capture();
    await client.exchange({ method: 'GET', url: `${server.url}/x`, headers: [] });
    client.close();
    // At once, not when the idle connection would have expired (4 s).
    const late = new Promise((_resolve, reject) => setTimeout(() => reject(new Error('still open after 2 s')), 2_000));
    await Promise.race([server.whenClosed(2), late]);
  });

  it('closes a connection left idle for about 4 s, before a server would', { timeout: 20_000 }, async () => {
    const server = await rawServer((socket) => socket.write(ok('x')));
    await capture().exchange({ method: 'GET', url: `${server.url}/x`, headers: [] });
    const idle = performance.now();
    await server.whenClosed(1);
    expect(performance.now() - idle).toBeGreaterThan(2_000);
  });

  it('carries the exchange over HTTPS to a certificate trusted through NODE_EXTRA_CA_CERTS', async () => {
    const fixtures = path.join(root, 'tests/fixtures/tls');
    const server = https.createServer(
      { cert: readFileSync(path.join(fixtures, 'cert.pem')), key: readFileSync(path.join(fixtures, 'key.pem')) },
      (request, response) => response.end(`${request.method} ${request.url} ${request.headers.host}`),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://127.0.0.1:${(server.address() as net.AddressInfo).port}/x?y=1`;
      const script = `
        import { HttpCapture } from ${JSON.stringify(path.join(root, 'src/http/http-capture.ts'))};
        const capture = new HttpCapture({ timeoutMs: 5000 });
        const exchange = await capture.exchange({ method: 'GET', url: ${JSON.stringify(url)}, headers: [] });
        capture.close();
        console.log(exchange.status, exchange.body);
      `;
      // Node reads NODE_EXTRA_CA_CERTS at startup: a child process, not spawnSync (the server runs here).
      const stdout = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          ['--import', 'tsx', '--input-type=module', '-e', script],
          {
            cwd: root,
            encoding: 'utf8',
            timeout: 20_000,
            env: { ...process.env, NODE_EXTRA_CA_CERTS: path.join(fixtures, 'cert.pem') },
          },
          (error, out) => (error ? reject(error) : resolve(out)),
        ),
      );
      expect(stdout.trim()).toBe(`200 GET /x?y=1 ${new URL(url).host}`);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('names an untrusted certificate as a TLS failure', async () => {
    const fixtures = path.join(root, 'tests/fixtures/tls');
    const server = https.createServer(
      { cert: readFileSync(path.join(fixtures, 'cert.pem')), key: readFileSync(path.join(fixtures, 'key.pem')) },
      (_request, response) => response.end('secret'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://127.0.0.1:${(server.address() as net.AddressInfo).port}/x`;
      await expect(capture().exchange({ method: 'GET', url, headers: [] })).rejects.toThrow(
        /^cannot reach https:\/\/127\.0\.0\.1:\d+ \(GET \/x\): TLS failure \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\)$/,
      );
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
