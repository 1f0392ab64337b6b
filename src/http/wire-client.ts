// The fuzzer's HTTP/1.1 client at the socket level: a keep-alive pool of raw connections per origin, each sending
// one request at a time and framing its answer with the proxy's strict http-parser-js. It resolves with the status,
// the raw headers and the body bytes (bounded), nothing more: no ClientRequest, Agent, IncomingMessage or streams,
// which cost node:http about a quarter of the fuzzer's CPU per request. What the target sends is hostile: heads
// and bodies are bounded, an answer nobody asked for condemns its connection, and every call has one timer over
// connect, head and body.
import net from 'node:net';
import tls from 'node:tls';
import {
  type FramingParser,
  type HeadInfo,
  kOnBody,
  kOnHeadersComplete,
  kOnMessageComplete,
  messageFraming,
  ParseError,
  rawHeader,
  responseParser,
} from './strict-parser.js';

export interface WireOrigin {
  tls: boolean;
  /** Host name or address (IPv6 without brackets). */
  hostname: string;
  port: number;
}

export interface WireRequest {
  origin: WireOrigin;
  /** Connections are pooled by this key (the URL's origin). */
  key: string;
  method: string;
  /** The request head, ending with the empty line (see `requestHead`). */
  head: string;
  body: Buffer | undefined;
  timeoutMs: number;
  /** The most body bytes read for an answer with these raw headers: over it, the answer is `tooLarge`. */
  bodyLimit: (rawHeaders: readonly string[]) => number;
  /** Largest head accepted (sum of header names and values). */
  maxHeadBytes: number;
  /** The request asked for the connection to close after it. */
  closeAfter: boolean;
}

export interface WireAnswer {
  status: number;
  rawHeaders: string[];
  /** The body's bytes, empty when `tooLarge`. */
  body: Buffer;
  /** The body was over the limit (declared or streamed): not read, its connection dropped. */
  tooLarge: boolean;
}

/** Why a call failed: `cause` carries the code (ECONNREFUSED, a TLS code, HPE_…) or is a TimeoutError. */
export class WireFailure extends Error {
  constructor(
    override readonly cause: Error,
    /** The answer's head had arrived: the failure is in its body. */
    readonly headArrived: boolean,
  ) {
    super(cause.message);
  }
}

/** A request that cannot be sent as given (a header that would be read differently, or inject another). */
export class WireRequestError extends Error {}

/** Idle connections per origin kept for reuse. */
const maxIdlePerOrigin = 64;
/** An idle connection is closed after this long: below the 5 s keep-alive of common servers (Node's included). */
const idleMs = 4_000;
const sweepMs = 250;
/** Methods whose request may be sent again when a reused connection fails before any answer byte (RFC 9110 9.2.2). */
const idempotent = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'TRACE']);
/** node:http adds `Content-Length: 0` to a request of these methods without a body (they default to chunked). */
const bodylessWithoutLength = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);
const token = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What node:http accepts in a header value (latin1 on the wire): no control character but HTAB. */
const fieldValue = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * The head node:http sent for the same request: the headers given (repeated names joined with ", " under the first
 * spelling), `content-length` when there is a body, `Host`, `Connection: keep-alive`, and `Content-Length: 0` for a
 * bodyless POST/PUT/PATCH. Framing headers given by the caller are dropped: the client frames the body itself.
 * Throws WireRequestError for a method, name or value that is not what the server would read.
 */
export function requestHead(
  method: string,
  url: URL,
  headers: readonly (readonly [string, string])[],
  bodyLength: number | undefined,
): { head: string; closeAfter: boolean } {
  if (!token.test(method)) throw new WireRequestError(`the method ${JSON.stringify(method)} is not an HTTP token`);
  const joined = new Map<string, [string, string]>();
  for (const [name, value] of headers) {
    if (!token.test(name))
      throw new WireRequestError(`the header name ${JSON.stringify(name.slice(0, 60))} is not an HTTP token`);
    // The value is not shown: it may be a credential.
    if (!fieldValue.test(value))
      throw new WireRequestError(
        `the value of header ${name} has a character that cannot be sent (CR, LF, another control character, or beyond Latin-1)`,
      );
    const lower = name.toLowerCase();
    if (lower === 'content-length' || lower === 'transfer-encoding') continue;
    const known = joined.get(lower);
    if (known === undefined) joined.set(lower, [name, value]);
    else known[1] += `, ${value}`;
  }
  let head = `${method} ${url.pathname}${url.search} HTTP/1.1\r\n`;
  for (const [name, value] of joined.values()) head += `${name}: ${value}\r\n`;
  if (bodyLength !== undefined) head += `content-length: ${bodyLength}\r\n`;
  if (!joined.has('host')) head += `Host: ${url.host}\r\n`;
  const connection = joined.get('connection');
  if (connection === undefined) head += 'Connection: keep-alive\r\n';
  if (bodyLength === undefined && !bodylessWithoutLength.has(method)) head += 'Content-Length: 0\r\n';
  return { head: `${head}\r\n`, closeAfter: connection !== undefined && /close/i.test(connection[1]) };
}

/** One request on the wire, from its first write to its answer's last byte. */
class Call {
  connection: Connection | undefined;
  timer: NodeJS.Timeout | undefined;
  done = false;
  /** Sent on a connection that had served an earlier answer. */
  reused = false;
  /** Sent again once, on a fresh connection, after a reused one failed before answering. */
  retried = false;
  /** Some byte of the answer arrived. */
  answering = false;
  headArrived = false;
  interim = false;
  keepAlive = false;
  status = 0;
  rawHeaders: string[] = [];
  chunks: Buffer[] = [];
  size = 0;
  limit = 0;

  constructor(
    readonly request: WireRequest,
    readonly resolve: (answer: WireAnswer) => void,
    readonly reject: (failure: WireFailure) => void,
  ) {}
}

/** Thrown from inside the parser to stop it: the call is settled, the connection is of no more use. */
const stop = new ParseError('stopped', 'STOPPED');

class Connection {
  readonly parser: FramingParser = responseParser();
  call: Call | undefined;
  /** Answers served: a connection that has served one is reused. */
  served = 0;
  idleSince = 0;
  /** Unusable: closed, closing, or out of step with what was sent. */
  dead = false;
  error: Error | undefined;

  constructor(
    readonly key: string,
    readonly socket: net.Socket,
  ) {}
}

export class WirePool {
  private readonly idle = new Map<string, Connection[]>();
  private readonly all = new Set<Connection>();
  private idleCount = 0;
  private sweeper: NodeJS.Timeout | undefined;

  /** Sends a request; `onAbort` is given the function that aborts it (for an interruption). */
  send(request: WireRequest, onAbort?: (abort: (reason: Error) => void) => void): Promise<WireAnswer> {
    return new Promise<WireAnswer>((resolve, reject) => {
      const call = new Call(request, resolve, reject);
      // The error is made only if the timer fires: an Error's stack costs more than the request.
      call.timer = setTimeout(() => this.fail(call, timeoutError()), request.timeoutMs);
      onAbort?.((reason) => this.fail(call, reason));
      this.assign(call, this.takeIdle(request.key) ?? this.open(request));
    });
  }

  /** Destroys every connection, idle or busy (the run is over). */
  close(): void {
    for (const connection of this.all) this.drop(connection);
    this.idle.clear();
    this.idleCount = 0;
    this.stopSweeping();
  }

  private assign(call: Call, connection: Connection): void {
    call.connection = connection;
    call.reused = connection.served > 0;
    connection.call = call;
    const { head, body } = call.request;
    if (body === undefined || body.length === 0) connection.socket.write(head, 'latin1');
    else {
      const headLength = Buffer.byteLength(head, 'latin1');
      const bytes = Buffer.allocUnsafe(headLength + body.length);
      bytes.write(head, 0, 'latin1');
      body.copy(bytes, headLength);
      connection.socket.write(bytes);
    }
  }

  private takeIdle(key: string): Connection | undefined {
    const list = this.idle.get(key);
    for (;;) {
      const connection = list?.pop();
      if (connection === undefined) return undefined;
      this.idleCount--;
      if (connection.dead) continue;
      connection.socket.ref();
      return connection;
    }
  }

  private open(request: WireRequest): Connection {
    const { hostname, port } = request.origin;
    const socket = request.origin.tls
      ? tls.connect({ host: hostname, port, servername: net.isIP(hostname) ? undefined : hostname })
      : net.connect({ host: hostname, port });
    socket.setNoDelay(true);
    const connection = new Connection(request.key, socket);
    this.all.add(connection);
    const parser = connection.parser;
    // The parser's own count, for a head that arrives over many reads; answerHead counts the rest.
    (parser as unknown as { maxHeaderSize: number }).maxHeaderSize = request.maxHeadBytes;
    parser[kOnHeadersComplete] = (info) => this.answerHead(connection, info);
    parser[kOnBody] = (chunk, _offset, length) => this.answerBody(connection, chunk, length);
    parser[kOnMessageComplete] = () => this.answerEnd(connection);
    socket.on('data', (chunk: Buffer) => this.data(connection, chunk));
    socket.on('error', (error: Error) => {
      connection.error ??= error;
    });
    socket.on('end', () => {
      // An answer delimited by the end of the connection is over now.
      const call = connection.call;
      if (call?.headArrived && !call.done) {
        const result = connection.parser.finish();
        if (result instanceof Error) connection.error ??= brokenBody();
      }
      this.lost(connection);
    });
    socket.on('close', () => this.lost(connection));
    return connection;
  }

  private data(connection: Connection, chunk: Buffer): void {
    const call = connection.call;
    // Bytes on an idle connection answer nothing that was asked: whatever follows on it cannot be trusted.
    if (call === undefined || call.done) return void this.drop(connection);
    call.answering = true;
    let result: number | Error;
    try {
      result = connection.parser.execute(chunk);
    } catch (error) {
      result = error as Error;
    }
    if (result instanceof Error) {
      if (result !== stop) this.fail(call, overflowed(result) ? headOverflow() : result);
      return void this.drop(connection);
    }
    if (call.done) this.release(connection, call);
  }

  private answerHead(connection: Connection, info: HeadInfo): number {
    const call = connection.call;
    // A second answer in the bytes of the first: the connection is out of step.
    if (call === undefined || call.done) {
      connection.dead = true;
      throw stop;
    }
    let headBytes = 0;
    for (const text of info.headers) headBytes += text.length;
    if (headBytes > call.request.maxHeadBytes) throw headOverflow();
    const status = info.statusCode;
    if (status === 101) throw new ParseError('the target switched protocols unasked', 'HPE_UNEXPECTED_UPGRADE');
    checkFraming(info.headers);
    // 1xx answers are interim: the final answer follows on the same connection.
    if (status < 200) {
      call.interim = true;
      return 1;
    }
    call.headArrived = true;
    call.status = status;
    call.rawHeaders = info.headers;
    call.keepAlive = info.shouldKeepAlive && !call.request.closeAfter;
    call.limit = call.request.bodyLimit(info.headers);
    const noBody = call.request.method === 'HEAD' || status === 204 || status === 304;
    if (!noBody && Number(rawHeader(info.headers, 'content-length') ?? Number.NaN) > call.limit) {
      // Not read: the connection goes with it.
      this.settle(call, { status, rawHeaders: info.headers, body: Buffer.alloc(0), tooLarge: true });
      throw stop;
    }
    return noBody ? 1 : 0;
  }

  private answerBody(connection: Connection, chunk: Buffer, length: number): void {
    const call = connection.call!;
    call.size += length;
    if (call.size > call.limit) {
      this.settle(call, { status: call.status, rawHeaders: call.rawHeaders, body: Buffer.alloc(0), tooLarge: true });
      throw stop;
    }
    call.chunks.push(chunk);
  }

  private answerEnd(connection: Connection): void {
    const call = connection.call;
    if (call === undefined || call.done) return;
    if (call.interim) {
      call.interim = false;
      return;
    }
    const parser = connection.parser as unknown as { offset: number; end: number };
    // Bytes after the answer, in the same read: an answer to nothing that was sent.
    if (parser.offset < parser.end) connection.dead = true;
    const body = call.chunks.length === 1 ? call.chunks[0]! : Buffer.concat(call.chunks, call.size);
    connection.served++;
    this.settle(call, { status: call.status, rawHeaders: call.rawHeaders, body, tooLarge: false });
  }

  private settle(call: Call, answer: WireAnswer): void {
    if (call.done) return;
    call.done = true;
    clearTimeout(call.timer);
    call.chunks = [];
    call.resolve(answer);
  }

  private fail(call: Call, cause: Error): void {
    if (call.done) return;
    call.done = true;
    clearTimeout(call.timer);
    call.chunks = [];
    const connection = call.connection;
    call.connection = undefined;
    if (connection) this.drop(connection);
    call.reject(new WireFailure(cause, call.headArrived));
  }

  /** The call is answered: its connection goes back to the pool, or is closed. */
  private release(connection: Connection, call: Call): void {
    connection.call = undefined;
    call.connection = undefined;
    if (connection.dead || !call.keepAlive) return void this.drop(connection);
    let list = this.idle.get(connection.key);
    if (list === undefined) this.idle.set(connection.key, (list = []));
    if (list.length >= maxIdlePerOrigin) return void this.drop(connection);
    connection.idleSince = performance.now();
    connection.socket.unref();
    list.push(connection);
    this.idleCount++;
    if (this.sweeper === undefined) {
      this.sweeper = setInterval(() => this.sweep(), sweepMs);
      this.sweeper.unref();
    }
  }

  /** The connection closed or ended: what was waiting on it fails, or is sent again once. */
  private lost(connection: Connection): void {
    if (!connection.dead) this.drop(connection);
    const call = connection.call;
    connection.call = undefined;
    if (call === undefined || call.done) return;
    const error = connection.error;
    const failedBeforeAnswer = !call.answering && (error === undefined || /^(ECONNRESET|EPIPE)$/.test(codeOf(error)));
    // The server closed the idle connection as the request went out (it read nothing of it): a fresh connection
    // is tried once. Only for idempotent methods: a POST the server read before it closed must not be sent twice.
    if (failedBeforeAnswer && call.reused && !call.retried && idempotent.has(call.request.method)) {
      call.retried = true;
      this.assign(call, this.open(call.request));
      return;
    }
    this.fail(call, error ?? (call.headArrived ? brokenBody() : hangUp()));
  }

  /** Closes a connection for good. */
  private drop(connection: Connection): void {
    connection.dead = true;
    this.all.delete(connection);
    connection.socket.destroy();
  }

  private sweep(): void {
    const oldest = performance.now() - idleMs;
    for (const [key, list] of this.idle) {
      const kept = list.filter((connection) => !connection.dead && connection.idleSince > oldest);
      for (const connection of list) if (!kept.includes(connection)) this.drop(connection);
      if (kept.length === 0) this.idle.delete(key);
      else this.idle.set(key, kept);
      this.idleCount -= list.length - kept.length;
    }
    if (this.idleCount <= 0) this.stopSweeping();
  }

  private stopSweeping(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}

/**
 * The answer's framing, as node:http's parser requires it: chunked the only coding, given once, and never beside a
 * Content-Length (which the parser would let chunked win over), one Content-Length at most. Framing that two readers
 * could take differently is a malformed answer, never read one of the ways.
 */
function checkFraming(headers: readonly string[]): void {
  const framing = messageFraming(headers);
  if ('reason' in framing) throw new ParseError(framing.reason, framing.code);
}

function codeOf(error: Error): string {
  return (error as { code?: string }).code ?? '';
}

function overflowed(error: Error): boolean {
  return error.message === 'max header size exceeded';
}

function headOverflow(): Error {
  return new ParseError('response headers too large', 'HPE_HEADER_OVERFLOW');
}

function timeoutError(): Error {
  const error = new Error('timed out');
  error.name = 'TimeoutError';
  return error;
}

/** What node:http reported when a connection closed before any answer. */
function hangUp(): Error {
  return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
}

/** What node:http reported when a connection closed in the middle of an answer's body. */
function brokenBody(): Error {
  return new Error('aborted');
}
