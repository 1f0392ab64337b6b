// The proxy's HTTP/1.1 wire behaviour over real sockets: raw clients write exact bytes to it, and small upstream
// servers (node:http, or node:net where the exact bytes matter) record what reaches them. These are behaviours any
// correct reverse proxy has, whatever engine frames its messages: pipelining, framing of HEAD/204/304, chunked
// bodies both ways, close-delimited answers, 100-continue, smuggling guards, hop-by-hop headers, bytes kept.
import { once } from 'node:events';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileContract, type Contract } from '../../src/core/compile-contract.js';
import { loadSpec } from '../../src/core/load-spec.js';
import type { ProxiedExchange, Proxy } from '../../src/proxy/start-proxy.js';
import { startSandbox, type Sandbox } from '../../src/plugins/example-sandbox.js';
import { specFile } from '../helpers/paths.js';
import { judged, type ProxyTestOptions, withProxyTo } from '../helpers/proxy.js';

const apiKey = 'sk-proxy-wire-secret-key';
let sandbox: Sandbox;
const contracts: Record<string, Contract> = {};

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
  contracts.session = compileContract(await loadSpec(specFile('client-session')));
  contracts.hooks = compileContract(await loadSpec(specFile('repository-webhooks')));
});
afterAll(async () => {
  await sandbox?.stop();
});

/** A proxy for the test, in front of the sandbox unless told otherwise. */
const withProxy = (options: ProxyTestOptions, body: (proxy: Proxy, seen: ProxiedExchange[]) => Promise<void>) =>
  withProxyTo(sandbox.url, options, body);

// ---- A raw HTTP/1.1 client: writes exact bytes, parses the answers it gets back. ----

interface RawResponse {
  version: string;
  status: number;
  /** Header names as sent, in order, repeats kept. */
  headers: [string, string][];
  body: Buffer;
}

const header = (response: RawResponse, name: string) =>
  response.headers.filter(([key]) => key.toLowerCase() === name.toLowerCase()).map(([, value]) => value);

/**
 * The responses complete in `bytes`. `methods` are the methods of the requests sent, in order (only HEAD matters:
 * its answer has no body); a 1xx answer is interim and is returned apart. A body delimited by the close of the
 * connection is complete only once `ended`.
 */
function parseResponses(bytes: Buffer, methods: readonly string[], ended: boolean) {
  const final: RawResponse[] = [];
  const interim: RawResponse[] = [];
  let offset = 0;
  for (;;) {
    const headEnd = bytes.indexOf('\r\n\r\n', offset);
    if (headEnd < 0) break;
    const lines = bytes.subarray(offset, headEnd).toString('latin1').split('\r\n');
    const [version = '', code = ''] = lines[0]!.split(' ');
    const status = Number(code);
    const headers = lines.slice(1).map((line): [string, string] => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon), line.slice(colon + 1).trim()];
    });
    const response: RawResponse = { version, status, headers, body: Buffer.alloc(0) };
    let next = headEnd + 4;
    if (status >= 100 && status < 200) {
      interim.push(response);
      offset = next;
      continue;
    }
    const method = methods[final.length] ?? 'GET';
    const length = header(response, 'content-length')[0];
    const chunked = header(response, 'transfer-encoding').some((value) => /chunked/i.test(value));
    if (method === 'HEAD' || status === 204 || status === 304) {
      // No body, whatever the headers say.
    } else if (chunked) {
      const parts: Buffer[] = [];
      let complete = false;
      for (;;) {
        const lineEnd = bytes.indexOf('\r\n', next);
        if (lineEnd < 0) break;
        const size = Number.parseInt(bytes.subarray(next, lineEnd).toString('latin1'), 16);
        if (size === 0) {
          // No trailers expected here: the last chunk is followed by one empty line.
          if (bytes.length < lineEnd + 4) break;
          next = lineEnd + 4;
          complete = true;
          break;
        }
        if (bytes.length < lineEnd + 2 + size + 2) break;
        parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
        next = lineEnd + 2 + size + 2;
      }
      if (!complete) break;
      response.body = Buffer.concat(parts);
    } else if (length !== undefined) {
      if (bytes.length < next + Number(length)) break;
      response.body = bytes.subarray(next, next + Number(length));
      next += Number(length);
    } else {
      if (!ended) break;
      response.body = bytes.subarray(next);
      next = bytes.length;
    }
    final.push(response);
    offset = next;
  }
  // `consumed` is where the last complete response ended: bytes past it belong to no complete response.
  return { final, interim, consumed: offset };
}

class RawClient {
  received = Buffer.alloc(0);
  closed = false;
  private readonly waiters = new Set<() => void>();

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.wake();
    });
    // A reset (the proxy closing on bytes it did not read) counts as a close.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }

  static async connect(port: number): Promise<RawClient> {
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    return new RawClient(socket);
  }

  write(bytes: string | Buffer): void {
    this.socket.write(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes);
  }

  /** Resolves once `test` holds, checked on each arrival of bytes and on close; fails after `timeoutMs`. */
  async until(test: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    if (test()) return;
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!test()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(
          new Error(
            `no ${what} within ${timeoutMs} ms (closed: ${this.closed}); received: ${JSON.stringify(this.received.toString('latin1').slice(0, 500))}`,
          ),
        );
      }, timeoutMs);
      this.waiters.add(check);
    });
  }

  /** The first `count` complete final responses, or fewer when the connection closed first. */
  async responses(count: number, methods: readonly string[] = []): Promise<RawResponse[]> {
    const parsed = () => parseResponses(this.received, methods, this.closed).final;
    await this.until(() => parsed().length >= count || this.closed, `${count} responses`);
    return parsed().slice(0, count);
  }

  /** True when the proxy closes the connection within `timeoutMs`. */
  async closesWithin(timeoutMs: number): Promise<boolean> {
    return this.until(() => this.closed, 'close', timeoutMs).then(
      () => true,
      () => false,
    );
  }

  destroy(): void {
    this.socket.destroy();
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

/** Opens a raw client, hands it to `body`, and always destroys it. */
async function withClient(port: number, body: (client: RawClient) => Promise<void>): Promise<void> {
  const client = await RawClient.connect(port);
  try {
    await body(client);
  } finally {
    client.destroy();
  }
}

// ---- Upstream servers. ----

interface Received {
  method: string;
  url: string;
  rawHeaders: string[];
  body: string;
  remotePort: number;
}

/** A plain node:http upstream recording each request it received (in full, body included) before answering. */
async function httpUpstream(answer: (req: http.IncomingMessage, res: http.ServerResponse, index: number) => void) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method!,
        url: req.url!,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks).toString('latin1'),
        remotePort: req.socket.remotePort!,
      });
      answer(req, res, received.length - 1);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A node:net upstream: `onHead` gets each connection, its index, and the bytes of the first request head. */
async function rawUpstream(onHead: (socket: net.Socket, index: number, head: Buffer) => void) {
  const connections: Buffer[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const index = connections.length;
    connections.push(Buffer.alloc(0));
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    let answered = false;
    socket.on('data', (chunk: Buffer) => {
      connections[index] = Buffer.concat([connections[index]!, chunk]);
      const end = connections[index]!.indexOf('\r\n\r\n');
      if (answered || end < 0) return;
      answered = true;
      onHead(socket, index, connections[index]!.subarray(0, end + 4));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    /** The bytes received, one buffer per connection. */
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const sessionHeaders = `X-API-KEY: ${apiKey}\r\nX-API-VERSION: 2.4\r\n`;
const sessionGet = `GET /client-session HTTP/1.1\r\nHost: proxy\r\n${sessionHeaders}\r\n`;
const hookJson = JSON.stringify({ config: { url: 'https://example.com/hook', content_type: 'json' } });
const hooksGet = (path = '/repos/octo/app/hooks') => `GET ${path} HTTP/1.1\r\nHost: proxy\r\n\r\n`;

describe('contracts proxy on the wire, message framing', () => {
  it('answers three requests pipelined in one write on one connection, in order, and reports each', async () => {
    await withProxy({ contract: contracts.session! }, async (proxy, seen) => {
      await withClient(proxy.port, async (client) => {
        client.write(sessionGet.repeat(3));
        const responses = await client.responses(3);
        expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
        expect(client.closed).toBe(false);
      });
      await judged(seen, 3);
      expect(seen.map((exchange) => [exchange.method, exchange.target, exchange.status])).toEqual([
        ['GET', '/client-session', 200],
        ['GET', '/client-session', 200],
        ['GET', '/client-session', 200],
      ]);
    });
  });

  it('forwards a chunked request body sent in several chunks and writes whole, and reports it', async () => {
    const upstream = await httpUpstream((_req, res) =>
      res.writeHead(201, { 'content-type': 'application/json' }).end('{}'),
    );
    try {
      await withProxy({ contract: contracts.hooks!, target: upstream.url }, async (proxy, seen) => {
        await withClient(proxy.port, async (client) => {
          client.write(
            'POST /repos/octo/app/hooks HTTP/1.1\r\nHost: proxy\r\nContent-Type: application/json\r\n' +
              'Transfer-Encoding: chunked\r\n\r\n',
          );
          const pieces = [hookJson.slice(0, 5), hookJson.slice(5, 30), hookJson.slice(30)];
          for (const piece of pieces) {
            await sleep(20);
            client.write(`${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`);
          }
          await sleep(20);
          client.write('0\r\n\r\n');
          const [response] = await client.responses(1);
          expect(response!.status).toBe(201);
        });
        expect(upstream.received.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
          { method: 'POST', url: '/repos/octo/app/hooks', body: hookJson },
        ]);
        await judged(seen, 1);
        expect(seen[0]!.request.body).toBe(hookJson);
      });
    } finally {
      await upstream.close();
    }
  });

  it('relays the headers of a HEAD answer without a body, and frames the next answer on the connection', async () => {
    const upstream = await httpUpstream((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '5' });
      res.end(req.method === 'HEAD' ? undefined : 'hello');
    });
    try {
      await withProxy({ contract: contracts.hooks!, target: upstream.url }, async (proxy) => {
        await withClient(proxy.port, async (client) => {
          client.write('HEAD /repos/octo/app/hooks HTTP/1.1\r\nHost: proxy\r\n\r\n');
          const [head] = await client.responses(1, ['HEAD']);
          expect(head!.status).toBe(200);
          expect(header(head!, 'content-length')).toEqual(['5']);
          client.write(hooksGet());
          const responses = await client.responses(2, ['HEAD', 'GET']);
          expect(responses).toHaveLength(2);
          expect(responses[1]!.status).toBe(200);
          expect(responses[1]!.body.toString()).toBe('hello');
          // Nothing but the two answers came: the HEAD answer carried no body.
          expect(parseResponses(client.received, ['HEAD', 'GET'], false).consumed).toBe(client.received.length);
        });
        expect(upstream.received.map((request) => request.method)).toEqual(['HEAD', 'GET']);
      });
    } finally {
      await upstream.close();
    }
  });

  it('relays 204 and 304 answers without a body, and frames the next answer on the connection', async () => {
    const upstream = await httpUpstream((req, res) => {
      if (req.url!.endsWith('/1')) res.writeHead(204).end();
      else if (req.url!.endsWith('/2')) res.writeHead(304, { etag: '"v1"' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    try {
      await withProxy({ contract: contracts.hooks!, target: upstream.url }, async (proxy) => {
        await withClient(proxy.port, async (client) => {
          client.write(hooksGet('/repos/octo/app/hooks/1'));
          await client.responses(1);
          client.write(hooksGet('/repos/octo/app/hooks/2'));
          await client.responses(2);
          client.write(hooksGet());
          const responses = await client.responses(3);
          expect(responses.map((response) => [response.status, response.body.toString()])).toEqual([
            [204, ''],
            [304, ''],
            [200, '[]'],
          ]);
          // Nothing but the three answers came: neither the 204 nor the 304 carried a body.
          expect(parseResponses(client.received, [], false).consumed).toBe(client.received.length);
        });
      });
    } finally {
      await upstream.close();
    }
  });

  it('relays a chunked answer written in several pieces whole, and reports its body', async () => {
    const pieces = ['[{"id":1,', '"name":"web",', '"active":true', '}]'];
    const upstream = await httpUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      void (async () => {
        for (const piece of pieces) {
          res.write(piece);
          await sleep(20);
        }
        res.end();
      })();
    });
    try {
      await withProxy({ contract: contracts.hooks!, target: upstream.url }, async (proxy, seen) => {
        await withClient(proxy.port, async (client) => {
          client.write(hooksGet());
          const [response] = await client.responses(1);
          expect(response!.status).toBe(200);
          expect(response!.body.toString()).toBe(pieces.join(''));
        });
        await judged(seen, 1);
        expect(seen[0]!.response!.body).toBe(pieces.join(''));
      });
    } finally {
      await upstream.close();
    }
  });

  it('relays an answer delimited by the close of the target connection, and then closes the client or says so', async () => {
    const upstream = await rawUpstream((socket) =>
      socket.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{"a":1}'),
    );
    try {
      await withProxy({ contract: contracts.hooks!, target: upstream.url }, async (proxy, seen) => {
        await withClient(proxy.port, async (client) => {
          client.write(hooksGet());
          const [response] = await client.responses(1);
          expect(response!.status).toBe(200);
          expect(response!.body.toString()).toBe('{"a":1}');
          const saysClose = header(response!, 'connection').some((value) => /\bclose\b/i.test(value));
          expect(saysClose || (await client.closesWithin(5_000))).toBe(true);
        });
        await judged(seen, 1);
        expect(seen[0]!.response!.body).toBe('{"a":1}');
      });
    } finally {
      await upstream.close();
    }
  });

  it('keeps the client connection when the target closes its own after an answer, and reconnects for the next', async () => {
    const upstream = await httpUpstream((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json', connection: 'close' }).end('[]'),
    );
    try {
      await withProxy({ contract: contracts.hooks!, target: upstream.url }, async (proxy) => {
        await withClient(proxy.port, async (client) => {
          client.write(hooksGet());
          const [first] = await client.responses(1);
          expect(first!.status).toBe(200);
          expect(header(first!, 'connection').some((value) => /close/i.test(value))).toBe(false);
          client.write(hooksGet());
          const responses = await client.responses(2);
          expect(responses.map((response) => [response.status, response.body.toString()])).toEqual([
            [200, '[]'],
            [200, '[]'],
          ]);
        });
        expect(upstream.received).toHaveLength(2);
        expect(upstream.received[1]!.remotePort).not.toBe(upstream.received[0]!.remotePort);
      });
    } finally {
      await upstream.close();
    }
  });

  it('answers an HTTP/1.0 client without keep-alive, then closes its connection', async () => {
    await withProxy({ contract: contracts.session! }, async (proxy) => {
      await withClient(proxy.port, async (client) => {
        client.write(`GET /client-session HTTP/1.0\r\n${sessionHeaders}\r\n`);
        const [response] = await client.responses(1);
        expect(response!.status).toBe(200);
        expect(await client.closesWithin(5_000)).toBe(true);
      });
    });
  });

  it('answers Expect: 100-continue with 100 before the body is sent, then the final answer', async () => {
    await sandbox.reset();
    await withProxy({ contract: contracts.hooks! }, async (proxy, seen) => {
      await withClient(proxy.port, async (client) => {
        client.write(
          'POST /repos/octo/app/hooks HTTP/1.1\r\nHost: proxy\r\nContent-Type: application/json\r\n' +
            `Content-Length: ${Buffer.byteLength(hookJson)}\r\nExpect: 100-continue\r\n\r\n`,
        );
        await client.until(() => client.received.toString('latin1').startsWith('HTTP/1.1 100'), '100 Continue', 5_000);
        client.write(hookJson);
        const [response] = await client.responses(1, ['POST']);
        expect(response!.status).toBe(201);
        // The 100 may be the proxy's own or the target's relayed; either way only 100s came before the answer.
        const interim = parseResponses(client.received, ['POST'], false).interim.map(({ status }) => status);
        expect(interim).toContain(100);
        expect(new Set(interim)).toEqual(new Set([100]));
      });
      await judged(seen, 1);
      expect(seen[0]!.request.body).toBe(hookJson);
    });
  });
});

describe('contracts proxy on the wire, hostile requests', () => {
  const smuggling: [string, string][] = [
    [
      'both Content-Length and Transfer-Encoding: chunked',
      'POST /repos/octo/app/hooks HTTP/1.1\r\nHost: proxy\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
    [
      'two different Content-Length values',
      'POST /repos/octo/app/hooks HTTP/1.1\r\nHost: proxy\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}x',
    ],
    [
      'Transfer-Encoding: gzip, not chunked',
      'POST /repos/octo/app/hooks HTTP/1.1\r\nHost: proxy\r\nTransfer-Encoding: gzip\r\n\r\nabc',
    ],
    ['a header name with a space inside', 'GET /repos/octo/app/hooks HTTP/1.1\r\nHost: proxy\r\nBad Header: x\r\n\r\n'],
  ];

  it.each(smuggling)('refuses a request with %s, without forwarding it, and closes', async (_name, bytes) => {
    const upstream = await httpUpstream((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]'),
    );
    try {
      await withProxy({ contract: contracts.hooks!, target: upstream.url }, async (proxy) => {
        await withClient(proxy.port, async (client) => {
          client.write(bytes);
          const [response] = await client.responses(1);
          expect([400, 501]).toContain(response?.status);
          expect(await client.closesWithin(5_000)).toBe(true);
        });
        expect(upstream.received).toEqual([]);
      });
    } finally {
      await upstream.close();
    }
  });

  it('refuses a header section of 100 KB with 431 and closes, and serves other connections meanwhile', async () => {
    await withProxy({ contract: contracts.session! }, async (proxy) => {
      await withClient(proxy.port, async (client) => {
        const filler = Array.from({ length: 1000 }, (_, index) => `X-Filler-${index}: ${'f'.repeat(90)}\r\n`).join('');
        client.write(`GET /client-session HTTP/1.1\r\nHost: proxy\r\n${sessionHeaders}${filler}\r\n`);
        const [response] = await client.responses(1);
        expect([431, 400]).toContain(response?.status);
        expect(await client.closesWithin(5_000)).toBe(true);
      });
      await withClient(proxy.port, async (client) => {
        client.write(sessionGet);
        const [response] = await client.responses(1);
        expect(response!.status).toBe(200);
      });
    });
  });

  it('drops hop-by-hop request headers and those Connection names, sets Host, and keeps the others in order', async () => {
    const upstream = await httpUpstream((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]'),
    );
    try {
      await withProxy({ contract: contracts.hooks!, target: upstream.url }, async (proxy) => {
        await withClient(proxy.port, async (client) => {
          client.write(
            'GET /repos/octo/app/hooks HTTP/1.1\r\nHost: client.example\r\n' +
              `X-API-KEY: ${apiKey}\r\nConnection: keep-alive, X-Drop-Me\r\nX-Many: 1\r\nX-Drop-Me: 1\r\n` +
              'Keep-Alive: timeout=30\r\nProxy-Authorization: Basic c2VjcmV0\r\nTE: trailers\r\nX-Many: 2\r\n' +
              'Upgrade: h2c\r\nX-Other: three\r\n\r\n',
          );
          const [response] = await client.responses(1);
          expect(response!.status).toBe(200);
        });
        expect(upstream.received).toHaveLength(1);
        const raw = upstream.received[0]!.rawHeaders;
        const pairs: [string, string][] = [];
        for (let index = 0; index < raw.length; index += 2) pairs.push([raw[index]!, raw[index + 1]!]);
        const named = (name: string) => pairs.filter(([key]) => key.toLowerCase() === name).map(([, value]) => value);
        for (const name of ['x-drop-me', 'keep-alive', 'proxy-authorization', 'te', 'upgrade'])
          expect(named(name), name).toEqual([]);
        // The client's Connection header is not forwarded; the proxy may speak its own for its own hop.
        for (const value of named('connection')) expect(value.toLowerCase()).toMatch(/^(keep-alive|close)$/);
        expect(named('host')).toEqual([`127.0.0.1:${upstream.port}`]);
        expect(pairs.filter(([key]) => !/^(host|connection)$/i.test(key))).toEqual([
          ['X-API-KEY', apiKey],
          ['X-Many', '1'],
          ['X-Many', '2'],
          ['X-Other', 'three'],
        ]);
      });
    } finally {
      await upstream.close();
    }
  });

  it('drops hop-by-hop answer headers and those Connection names, and keeps repeated Set-Cookie', async () => {
    const upstream = await httpUpstream((_req, res) => {
      res.writeHead(200, [
        'Content-Type',
        'application/json',
        'Keep-Alive',
        'timeout=1',
        'Connection',
        'close, X-Secret-Hop',
        'X-Secret-Hop',
        '1',
        'Set-Cookie',
        'a=1; Path=/',
        'Set-Cookie',
        'b=2; Path=/',
      ]);
      res.end('[]');
    });
    try {
      await withProxy({ contract: contracts.hooks!, target: upstream.url }, async (proxy) => {
        await withClient(proxy.port, async (client) => {
          client.write(hooksGet());
          const [response] = await client.responses(1);
          expect(response!.status).toBe(200);
          expect(response!.body.toString()).toBe('[]');
          expect(header(response!, 'x-secret-hop')).toEqual([]);
          expect(header(response!, 'keep-alive')).not.toContain('timeout=1');
          for (const value of header(response!, 'connection')) expect(value).not.toMatch(/x-secret-hop/i);
          expect(header(response!, 'set-cookie')).toEqual(['a=1; Path=/', 'b=2; Path=/']);
        });
      });
    } finally {
      await upstream.close();
    }
  });

  it('answers an upgrade request 501, or closes, without reaching the target', async () => {
    const upstream = await httpUpstream((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]'),
    );
    try {
      await withProxy({ contract: contracts.hooks!, target: upstream.url }, async (proxy) => {
        await withClient(proxy.port, async (client) => {
          client.write(
            'GET /repos/octo/app/hooks HTTP/1.1\r\nHost: proxy\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
              'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
          );
          const responses = await client.responses(1);
          if (responses.length > 0) expect(responses[0]!.status).toBe(501);
          else expect(client.closed).toBe(true);
        });
        expect(upstream.received).toEqual([]);
      });
    } finally {
      await upstream.close();
    }
  });

  it('answers a blocked request pipelined between two good ones in its place: 200, 400, 200', async () => {
    await withProxy({ contract: contracts.session!, errors: true }, async (proxy, seen) => {
      await withClient(proxy.port, async (client) => {
        const broken = `GET /client-session HTTP/1.1\r\nHost: proxy\r\nX-API-KEY: ${apiKey}\r\nX-API-VERSION: 2.3\r\n\r\n`;
        client.write(sessionGet + broken + sessionGet);
        const responses = await client.responses(3);
        expect(responses.map((response) => response.status)).toEqual([200, 400, 200]);
        expect(JSON.parse(responses[1]!.body.toString())).toMatchObject({ operation: 'retrieveClientSession' });
      });
      await judged(seen, 3);
      // Reported in the order the exchanges ended, which need not be the order they came in.
      expect(seen.map((exchange) => [exchange.status, exchange.blocked]).sort()).toEqual([
        [200, false],
        [200, false],
        [400, true],
      ]);
    });
  });
});

describe('contracts proxy on the wire, upstream faults and bytes', () => {
  it('answers 502 with a reason when the target closes without answering, and serves the next request', async () => {
    const upstream = await rawUpstream((socket, index) => {
      if (index === 0) socket.destroy();
      else socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]');
    });
    try {
      await withProxy({ contract: contracts.hooks!, target: upstream.url }, async (proxy, seen) => {
        await withClient(proxy.port, async (client) => {
          client.write(hooksGet());
          const [failed] = await client.responses(1);
          expect(failed!.status).toBe(502);
          expect(JSON.parse(failed!.body.toString())).toEqual(expect.objectContaining({ reason: expect.any(String) }));
          client.write(hooksGet());
          const responses = await client.responses(2);
          expect(responses[1]!.status).toBe(200);
          expect(responses[1]!.body.toString()).toBe('[]');
        });
        expect(upstream.connections.length).toBeGreaterThanOrEqual(2);
        await judged(seen, 2);
        expect(seen[0]!.upstreamError).toEqual(expect.any(String));
        expect(seen[1]!.status).toBe(200);
      });
    } finally {
      await upstream.close();
    }
  });

  it('survives a client that hangs up in the middle of a slow large answer, reports it gone, and serves on', async () => {
    let stopped = false;
    const upstream = await httpUpstream((req, res) => {
      if (req.url!.endsWith('/small')) return void res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(64 << 20) });
      res.on('error', () => undefined);
      res.on('close', () => (stopped = true));
      void (async () => {
        const chunk = Buffer.alloc(64 << 10, ' ');
        for (let sent = 0; sent < 1024 && !res.destroyed; sent++) {
          res.write(chunk);
          await sleep(10);
        }
      })();
    });
    try {
      await withProxy({ contract: contracts.hooks!, target: upstream.url }, async (proxy, seen) => {
        await withClient(proxy.port, async (client) => {
          client.write(hooksGet());
          await client.until(() => client.received.length > 200 << 10, 'the first bytes of the answer');
        });
        await judged(seen, 1);
        expect(seen[0]!.clientGone).toBe(true);
        await expect.poll(() => stopped, { timeout: 10_000 }).toBe(true);
        await withClient(proxy.port, async (client) => {
          client.write(hooksGet('/repos/octo/app/hooks/small'));
          const [response] = await client.responses(1);
          expect(response!.status).toBe(200);
        });
      });
    } finally {
      await upstream.close();
    }
  });

  it('keeps bytes as they are: a binary answer body, and a latin1 byte in a request header value', async () => {
    const binary = Buffer.from(Array.from({ length: 128 }, (_, index) => 0x80 + index));
    const upstream = await rawUpstream((socket) => {
      socket.write(
        Buffer.concat([
          Buffer.from(
            `HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: ${binary.length}\r\n\r\n`,
          ),
          binary,
        ]),
      );
    });
    try {
      await withProxy({ contract: contracts.hooks!, target: upstream.url }, async (proxy) => {
        await withClient(proxy.port, async (client) => {
          client.write(
            Buffer.concat([
              Buffer.from('GET /repos/octo/app/hooks HTTP/1.1\r\nHost: proxy\r\nX-Name: caf'),
              Buffer.from([0xe9]),
              Buffer.from('\r\n\r\n'),
            ]),
          );
          const [response] = await client.responses(1);
          expect(response!.status).toBe(200);
          expect(response!.body.equals(binary)).toBe(true);
        });
        const sent = Buffer.concat([Buffer.from('X-Name: caf'), Buffer.from([0xe9]), Buffer.from('\r\n')]);
        expect(upstream.connections[0]!.includes(sent)).toBe(true);
      });
    } finally {
      await upstream.close();
    }
  });
});

describe('contracts proxy on the wire, last requests and stopping', () => {
  it('forwards the whole body of a request that asks to close the connection, answers it, then closes', async () => {
    const upstream = await httpUpstream((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]'),
    );
    try {
      await withProxy({ contract: contracts.hooks!, target: upstream.url }, async (proxy, seen) => {
        await withClient(proxy.port, async (client) => {
          client.write(
            'POST /repos/octo/app/hooks HTTP/1.1\r\nHost: proxy\r\nConnection: close\r\nContent-Type: application/json\r\n' +
              `Content-Length: ${Buffer.byteLength(hookJson)}\r\n\r\n`,
          );
          await sleep(50);
          client.write(hookJson);
          const [response] = await client.responses(1, ['POST']);
          expect(response!.status).toBe(200);
          expect(await client.closesWithin(5_000)).toBe(true);
        });
        await judged(seen, 1);
        expect(upstream.received.map(({ body }) => body)).toEqual([hookJson]);
        expect(seen[0]!.request.body).toBe(hookJson);
      });
    } finally {
      await upstream.close();
    }
  });

  it('closes the client after a target answers before the request body is all sent, and still judges it', async () => {
    // The target answers 413 as soon as the head arrives, keeps its connection, and never reads the body.
    const upstream = await rawUpstream((socket) =>
      socket.write('HTTP/1.1 413 Payload Too Large\r\nContent-Length: 0\r\n\r\n'),
    );
    try {
      await withProxy({ contract: contracts.hooks!, target: upstream.url }, async (proxy, seen) => {
        await withClient(proxy.port, async (client) => {
          client.write(
            'POST /repos/octo/app/hooks HTTP/1.1\r\nHost: proxy\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{',
          );
          const [response] = await client.responses(1, ['POST']);
          expect(response!.status).toBe(413);
          // The rest of the body would be read by the target as a next request: the connections are not reused.
          expect(await client.closesWithin(5_000)).toBe(true);
        });
        await judged(seen, 1);
        expect(seen[0]).toMatchObject({ status: 413, blocked: false });
      });
    } finally {
      await upstream.close();
    }
  });

  it('stops at once with an idle keep-alive client, and with a client that never closes its side', async () => {
    await withProxy({ contract: contracts.session! }, async (proxy, seen) => {
      const idle = await RawClient.connect(proxy.port);
      idle.write(sessionGet);
      await idle.responses(1);
      // This one asks the proxy to close, and then keeps its own side open.
      const lingering = await RawClient.connect(proxy.port);
      lingering.write(`GET /client-session HTTP/1.1\r\nHost: proxy\r\nConnection: close\r\n${sessionHeaders}\r\n`);
      await lingering.responses(1);
      await judged(seen, 2);
      const started = performance.now();
      await proxy.stop();
      // The lingering socket is let go after one keep-alive period (5 s) at most, not held open forever.
      expect(performance.now() - started).toBeLessThan(9_000);
      expect(await idle.closesWithin(1_000)).toBe(true);
      expect(await lingering.closesWithin(1_000)).toBe(true);
      idle.destroy();
      lingering.destroy();
    });
  });
});
