import { once } from 'node:events';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnProxy } from '../helpers/proxy.js';
import { type RawTarget, startRawTarget } from '../helpers/raw-target.js';
import { type ServerProcess, spawnServer } from '../helpers/spawn-server.js';

const ellipsis = Buffer.from('…', 'utf8').toString('latin1');

interface RawAnswer {
  status: number;
  head: string;
  /** The body's bytes as framed (Content-Length, or chunked); undefined when the bytes do not match the framing. */
  body: Buffer | undefined;
  /** What the framing announced against what arrived, for the failure message. */
  framing: string;
}

/** Sends `request` (latin1) on a new connection and reads the one answer until the server closes. */
async function rawAnswer(port: number, request: string): Promise<RawAnswer> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const closed = once(socket, 'close');
  socket.write(Buffer.from(request, 'latin1'));
  const timer = setTimeout(() => socket.destroy(), 5_000);
  await closed;
  clearTimeout(timer);
  const bytes = Buffer.concat(chunks);
  const headEnd = bytes.indexOf('\r\n\r\n');
  expect(headEnd, `no answer head in ${JSON.stringify(bytes.toString('latin1'))}`).toBeGreaterThan(0);
  const head = bytes.subarray(0, headEnd).toString('latin1');
  const rest = bytes.subarray(headEnd + 4);
  const status = Number(head.split(' ')[1]);
  const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
  if (length !== undefined)
    return {
      status,
      head,
      body: rest.length === Number(length) ? rest : undefined,
      framing: `Content-Length ${length}, ${rest.length} bytes arrived`,
    };
  expect(head).toMatch(/\r\ntransfer-encoding: *chunked/i);
  const pieces: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n', at);
    const size = lineEnd < 0 ? Number.NaN : Number.parseInt(rest.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size >= 0) || rest.length < lineEnd + 2 + size + 2)
      return { status, head, body: undefined, framing: 'chunked, cut short' };
    pieces.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
    if (size === 0) break;
  }
  return { status, head, body: Buffer.concat(pieces), framing: `chunked, ${at} of ${rest.length} bytes used` };
}

/** The body as UTF-8 text, refusing any byte sequence that is not UTF-8. */
const utf8 = (body: Buffer) => new TextDecoder('utf-8', { fatal: true }).decode(body);

function expectFramedJson(answer: RawAnswer, status: number, nonAscii: boolean): unknown {
  expect(answer.status).toBe(status);
  expect(answer.body, answer.framing).toBeDefined();
  const text = utf8(answer.body!);
  const json = JSON.parse(text);
  // The case is about a message with a character outside ASCII: the answer has to hold one.
  if (nonAscii) expect(JSON.stringify(json)).toMatch(/[^\x00-\x7f]/);
  return json;
}

const children: ServerProcess[] = [];
let target: RawTarget;

beforeAll(async () => {
  target = await startRawTarget((request) =>
    request.target.endsWith('/hooks/7')
      ? // A coding the proxy does not relay, in bytes outside ASCII: its 502 quotes them.
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: gzip${ellipsis}\r\n\r\n{}`
      : 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]',
  );
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await target?.close();
});

describe("contracts proxy: its own answers' Content-Length counts the bytes sent", () => {
  let port: number;
  beforeAll(async () => {
    const proxy = await spawnProxy(['--target', target.url, '--port', '0', '--errors'], 'repository-webhooks');
    children.push(proxy.child as ServerProcess);
    port = Number(new URL(proxy.url).port);
  }, 60_000);

  it('answers --errors 400 for a request whose violation quotes a value outside ASCII, framed by its UTF-8 bytes', async () => {
    const body = Buffer.from(JSON.stringify({ name: 'web', 'é…': 1, config: { url: 'x' } }), 'utf8');
    const answer = await rawAnswer(
      port,
      `POST /repos/octo/app/hooks HTTP/1.1\r\nHost: proxy\r\nConnection: close\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\n\r\n${body.toString('latin1')}`,
    );
    const json = expectFramedJson(answer, 400, true) as { error: string; violations: { message: string }[] };
    expect(json.error).toBe('the request breaks the contract: not forwarded');
    expect(json.violations[0]!.message).toContain('"é…"');
  });

  it('answers 400 to a request whose Content-Length holds bytes outside ASCII, framed by its UTF-8 bytes', async () => {
    const answer = await rawAnswer(
      port,
      `GET /repos/octo/app/hooks HTTP/1.1\r\nHost: proxy\r\nContent-Length: 1${ellipsis}\r\n\r\n`,
    );
    expectFramedJson(answer, 400, true);
  });

  it('answers 502 when the target sends a Transfer-Encoding with bytes outside ASCII, framed by its UTF-8 bytes', async () => {
    const answer = await rawAnswer(
      port,
      'GET /repos/octo/app/hooks/7 HTTP/1.1\r\nHost: proxy\r\nConnection: close\r\n\r\n',
    );
    const json = expectFramedJson(answer, 502, true) as { error: string; reason: string };
    expect(json.error).toBe('bad gateway');
    expect(json.reason).toContain('Transfer-Encoding "gzip');
  });
});

describe("contracts sandbox and contracts receive: an answer's length counts its bytes", () => {
  it('the sandbox answers a body that repeats a key outside ASCII 400, framed by its UTF-8 bytes', async () => {
    const port = await spawnServer(['sandbox', '--port', '0'], /at (http:\/\/127\.0\.0\.1:\d+)/, children);
    const body = Buffer.from('{"name":"web","é…":1,"é…":2}', 'utf8');
    const answer = await rawAnswer(
      port,
      `POST /repos/octo/app/hooks HTTP/1.1\r\nHost: sandbox\r\nConnection: close\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\n\r\n${body.toString('latin1')}`,
    );
    const json = expectFramedJson(answer, 400, true) as { message: string };
    expect(json.message).toContain('"é…"');
  }, 60_000);

  it("the receiver's answers are framed by their bytes and are UTF-8", async () => {
    const port = await spawnServer(['receive', '--port', '0'], /Receiving webhook deliveries at (\S+)/, children);
    const body = Buffer.from('{"zen":"…"}', 'utf8');
    const answer = await rawAnswer(
      port,
      `POST /hook HTTP/1.1\r\nHost: receiver\r\nConnection: close\r\nContent-Type: application/json\r\n` +
        `X-Service-Event: ping\r\nContent-Length: ${body.length}\r\n\r\n${body.toString('latin1')}`,
    );
    expect(answer.body, answer.framing).toBeDefined();
    expect(utf8(answer.body!)).toMatch(/\n$/);
  }, 60_000);
});
