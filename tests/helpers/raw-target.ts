// A target for proxy tests at the TCP level: it records every byte it receives and reads requests out of them as a
// lenient backend would (header names trimmed, Transfer-Encoding containing "chunked" winning over Content-Length,
// chunk sizes read with parseInt), so that a request smuggled past the proxy shows up as one more request received.
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  /** The request target as received (with the --target prefix). */
  target: string;
  headers: [string, string][];
  body: string;
}

export interface RawTarget {
  url: string;
  port: number;
  /** Every request read, in the order read, across connections. */
  received: ReceivedRequest[];
  /** Every byte received, one string (latin1) per connection. */
  bytes: string[];
  close(): Promise<void>;
}

/** Starts a raw target; `answer` gives the bytes written back for each request read. */
export async function startRawTarget(answer: (request: ReceivedRequest) => string): Promise<RawTarget> {
  const received: ReceivedRequest[] = [];
  const bytes: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const index = bytes.push('') - 1;
    let pending = '';
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', (chunk: Buffer) => {
      const text = chunk.toString('latin1');
      bytes[index] += text;
      pending += text;
      for (let read = readRequest(pending); read !== undefined; read = readRequest(pending)) {
        pending = pending.slice(read.length);
        received.push(read.request);
        if (socket.writable) socket.write(Buffer.from(answer(read.request), 'latin1'));
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    bytes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The first complete request in `text` and how many characters it took, or undefined when it is not all there. */
function readRequest(text: string): { request: ReceivedRequest; length: number } | undefined {
  const headEnd = text.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const [requestLine = '', ...lines] = text.slice(0, headEnd).split('\r\n');
  const [method = '', target = ''] = requestLine.split(' ');
  const headers = lines.map((line): [string, string] => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
  });
  const value = (name: string) => headers.find(([key]) => key.toLowerCase() === name)?.[1];
  const start = headEnd + 4;
  const body = /chunked/i.test(value('transfer-encoding') ?? '')
    ? readChunked(text, start)
    : readSized(text, start, Number.parseInt(value('content-length') ?? '0', 10) || 0);
  if (body === undefined) return undefined;
  return { request: { method, target, headers, body: body.body }, length: body.end };
}

function readSized(text: string, start: number, length: number): { body: string; end: number } | undefined {
  return text.length < start + length ? undefined : { body: text.slice(start, start + length), end: start + length };
}

function readChunked(text: string, start: number): { body: string; end: number } | undefined {
  let body = '';
  let at = start;
  for (;;) {
    const lineEnd = text.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = Number.parseInt(text.slice(at, lineEnd), 16) || 0;
    if (size === 0) {
      // Trailers, if any, then the empty line.
      const end = text.indexOf('\r\n\r\n', lineEnd);
      return end < 0 ? undefined : { body, end: end + 4 };
    }
    if (text.length < lineEnd + 2 + size + 2) return undefined;
    body += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}
