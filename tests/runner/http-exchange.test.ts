// HttpCapture.exchange, the fuzzer's transport (node:http, keep-alive), holds the contract of the fetch path: the
// same captured exchange for the same answer, the same body cap, timeouts, errors and 429 retries, no redirects
// followed; and it keeps its connections open between requests.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpCapture } from '../../src/http/http-capture.js';
import { freePort } from '../helpers/free-port.js';

let base: string;
let server: http.Server;
const connections = new Set<unknown>();
let tries429 = 0;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    response.sendDate = false;
    const answer = (status: number, headers: [string, string][], body: string | Buffer) => {
      response.writeHead(status, headers.flat());
      response.end(body);
    };
    switch (request.url) {
      case '/json':
        return answer(
          200,
          [
            ['content-type', 'application/json'],
            ['x-a', '1'],
            ['X-A', '2'],
          ],
          '{"ok":true}',
        );
      case '/redirect':
        return answer(302, [['location', 'http://127.0.0.1:9/elsewhere']], '');
      case '/gzip':
        return answer(
          200,
          [
            ['content-type', 'application/json'],
            ['content-encoding', 'gzip'],
          ],
          gzipSync('{"zipped":1}'),
        );
      case '/latin1':
        return answer(200, [['content-type', 'text/plain']], Buffer.from([0x63, 0x61, 0x66, 0xe9]));
      case '/large':
        return answer(200, [['content-type', 'text/plain']], 'x'.repeat(5000));
      case '/large-chunked':
        response.writeHead(200, { 'content-type': 'text/plain' });
        for (let i = 0; i < 50; i++) response.write('y'.repeat(100));
        return response.end();
      case '/echo': {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk));
        return request.on('end', () =>
          answer(
            201,
            [['content-type', 'application/json']],
            JSON.stringify({ method: request.method, body, type: request.headers['content-type'] }),
          ),
        );
      }
      case '/429':
        return ++tries429 < 3
          ? answer(429, [['retry-after', '0']], '')
          : answer(200, [['content-type', 'text/plain']], 'at last');
      case '/silent':
        return undefined;
      case '/slow-body':
        response.writeHead(200, { 'content-type': 'text/plain' });
        return response.write('partial');
      default:
        return answer(404, [], '');
    }
  });
  server.on('connection', (socket) => connections.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('HttpCapture.exchange', () => {
  it.each([
    ['a JSON answer with a repeated header', 'GET', '/json', undefined],
    ['a redirect, not followed', 'GET', '/redirect', undefined],
    ['a gzip body, decoded', 'GET', '/gzip', undefined],
    ['a body that is not UTF-8', 'GET', '/latin1', undefined],
    ['a body over the cap (declared length)', 'GET', '/large', undefined],
    ['a body over the cap (chunked)', 'GET', '/large-chunked', undefined],
    ['a POST with a body', 'POST', '/echo', '{"a":"é"}'],
  ])('captures %s as the fetch path does', async (_name, method, path, body) => {
    const capture = new HttpCapture({ timeoutMs: 5000, maxBodyBytes: 1000 });
    try {
      const headers: [string, string][] = body === undefined ? [] : [['content-type', 'application/json']];
      await capture.fetch(new Request(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body }) }));
      const viaFetch = capture.last;
      const viaExchange = await capture.exchange({
        method,
        url: `${base}${path}`,
        headers,
        ...(body === undefined ? {} : { body }),
      });
      // fetch adds headers of its own to the request (accept, user-agent…): the echo shows only what the server read.
      expect(viaExchange).toEqual(viaFetch);
    } finally {
      capture.close();
    }
  });

  it('retries a 429 that says Retry-After: 0, like the fetch path', async () => {
    const capture = new HttpCapture({ timeoutMs: 5000 });
    try {
      tries429 = 0;
      const exchange = await capture.exchange({ method: 'GET', url: `${base}/429`, headers: [] });
      expect([exchange.status, exchange.body, tries429]).toEqual([200, 'at last', 3]);
    } finally {
      capture.close();
    }
  });

  it.each([
    [
      'no answer at all',
      '/silent',
      /^cannot reach http:\/\/127\.0\.0\.1:\d+ \(GET \/silent\): no answer within 300 ms \(--timeout\)$/,
    ],
    [
      'a body that never ends',
      '/slow-body',
      /^http:\/\/127\.0\.0\.1:\d+ \(GET \/slow-body\) timed out: the response body did not arrive within 300 ms \(--timeout\)$/,
    ],
  ])('gives up on %s after --timeout, in one line', async (_name, path, message) => {
    const capture = new HttpCapture({ timeoutMs: 300 });
    try {
      await expect(capture.exchange({ method: 'GET', url: `${base}${path}`, headers: [] })).rejects.toThrow(message);
    } finally {
      capture.close();
    }
  });

  it('names the URL and ECONNREFUSED when nothing listens', async () => {
    const port = await freePort();
    const capture = new HttpCapture({ timeoutMs: 2000 });
    await expect(capture.exchange({ method: 'GET', url: `http://127.0.0.1:${port}/x`, headers: [] })).rejects.toThrow(
      new RegExp(`^cannot reach http://127\\.0\\.0\\.1:${port} \\(GET /x\\): ECONNREFUSED$`),
    );
    capture.close();
  });

  it('sends 20 requests over one kept-alive connection', async () => {
    const capture = new HttpCapture({ timeoutMs: 5000 });
    try {
      connections.clear();
      for (let index = 0; index < 20; index++)
        await capture.exchange({ method: 'GET', url: `${base}/json`, headers: [] });
      expect(connections.size).toBe(1);
    } finally {
      capture.close();
    }
  });
});
