// readBody over a real socket: a request without Content-Length or Transfer-Encoding has no body and is answered
// at once, keep-alive intact; a chunked body is read whole; one over the limit is refused.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBody } from '../../src/sandbox/request-body.js';

let server: http.Server;
let port: number;
beforeAll(async () => {
  server = http.createServer((incoming, outgoing) => {
    void readBody(incoming, 16).then((body) =>
      outgoing.end(body === undefined ? 'over' : `read ${body.length}: ${body.toString()}`),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Sends raw requests on one connection and collects the answer text until `answers` responses have arrived. */
function exchange(raw: string, answers: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(raw));
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`timed out with: ${text}`));
    }, 5000);
    socket.on('data', (chunk) => {
      text += chunk.toString();
      if ((text.match(/HTTP\/1\.1 200/g) ?? []).length >= answers && /(read \d+: [^\r\n]*|over)$/.test(text)) {
        clearTimeout(timer);
        socket.end();
        resolve(text);
      }
    });
    socket.on('error', reject);
  });
}

describe('readBody', () => {
  it.each([
    [
      'a GET without length, then another on the same connection',
      'GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n',
      2,
      /read 0: .*read 0: /s,
    ],
    ['a GET with Content-Length: 0', 'GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n', 1, /read 0: $/],
    ['a POST with a length', 'POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello', 1, /read 5: hello$/],
    [
      'a chunked POST',
      'POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n',
      1,
      /read 5: abcde$/,
    ],
    [
      'a chunked POST over the limit',
      'POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n14\r\n01234567890123456789\r\n0\r\n\r\n',
      1,
      /over$/,
    ],
  ])('answers %s', async (_name, raw, answers, expected) => {
    expect(await exchange(raw, answers)).toMatch(expected);
  });
});
