// One client connection through the proxy, at the socket level. Requests are framed as they arrive and forwarded
// on one upstream connection of this client's own, their heads rebuilt (hop-by-hop headers dropped, Host set to
// the target's) and their bodies streamed on re-framed; answers come back the same way. No node:http objects on
// either side: a proxied exchange costs two reads and two writes, which is what lets checking keep up with
// forwarding on a small machine. Answers always go back in request order (pipelining included), whether they come
// from the target, are a 400 for a request the contract refuses (`errors`), or a 502 when the target fails.
// A copy of each body (bounded) is kept, and each exchange, once over, is handed on to be judged.
import type { Finding } from '../core/finding.js';
import { streamJudgeFor, type StreamJudge } from './stream-judge.js';
import net from 'node:net';
import tls from 'node:tls';
import { checkRequest } from '../core/check-request.js';
import { BoundedCopy } from './bounded-copy.js';
import { forwardHeaders } from './forward-headers.js';
import { requestRecord, type CapturedExchange } from './judge-exchange.js';
import { localAnswer, violation } from './local-answer.js';
import { MemoryBudget, Reservation } from './memory-budget.js';
import { requestTargetProblem } from './request-target.js';
import type { ProxyOptions } from './start-proxy.js';
import {
  type Framing,
  framingNamedInConnection,
  type FramingParser,
  type HeadInfo,
  kOnBody,
  kOnHeadersComplete,
  kOnMessageComplete,
  messageFraming,
  methods,
  requestFraming,
  requestParser,
  responseParser,
} from '../http/strict-parser.js';

export interface WireUpstream {
  tls: boolean;
  /** Host name or address to connect to (no brackets). */
  hostname: string;
  port: number;
  /** Host header value sent to the target. */
  host: string;
  /** Path prefix of the target URL, without a trailing slash. */
  prefix: string;
  timeoutMs: number;
}

type Piece = string | Buffer;

/** Largest head (sum of header names and values) accepted. */
const maxHeadBytes = 64 * 1024;
/**
 * Between requests, a client connection is closed after this long silent; a request being received is given up
 * after 12 such silences (a minute). While the target is answering, the client's silence is no fault.
 */
const keepAliveMs = 5_000;
const silencesPerRequest = 12;
/** Exchanges a client may have waiting for answers before its further requests are not read. */
const maxQueued = 64;
const crlf = '\r\n';

/** One exchange, from its request line to the end of its answer; once over, it is what gets judged. */
class WireExchange implements CapturedExchange {
  readonly started = performance.now();
  readonly startedAt = Date.now();
  durationMs = 0;
  readonly requestCopy: BoundedCopy;
  responseCopy: BoundedCopy | undefined;
  responseHeaders: string[] | undefined;
  status = 0;
  /** Pieces kept back until the request is judged (with `errors`). */
  held: Piece[] | undefined;
  judged: CapturedExchange['judged'];
  /** An answer of the proxy's own (400 blocked, 502), sent once this exchange is first in line. */
  localAnswer: Buffer | undefined;
  /** Close the client connection once this exchange is answered. */
  closeAfter = false;
  forwarded = false;
  /** The current answer is 1xx: more to come. */
  interim = false;
  /** The target closes its connection after this answer. */
  upstreamCloses = false;
  /** Counted as received (and so to be judged). */
  counted = false;
  /** Cut off by the proxy's stop before it was over: reported, not judged. */
  notJudged: string | undefined;
  /** Bytes of both heads, held in the memory budget with the bodies' copies. */
  headBytes = 0;
  /** The answer's body goes to the client chunked. */
  chunkedDown = false;
  blocked = false;
  clientGone = false;
  upstreamError: string | undefined;
  requestOver = false;
  answerOver = false;
  settled = false;
  /** A streamed answer judged item by item as it passes (OpenAPI 3.2 itemSchema): stream-judge.ts. */
  stream: StreamJudge | undefined;

  constructor(
    readonly method: string,
    readonly target: string,
    readonly requestHeaders: string[],
    readonly http11: boolean,
    readonly keepAlive: boolean,
    readonly chunkedUp: boolean,
    maxBodyBytes: number,
    readonly memory: Reservation,
  ) {
    this.requestCopy = new BoundedCopy(maxBodyBytes);
  }

  /** Bytes this exchange keeps now: its heads and the copies of its bodies. */
  get kept(): number {
    return this.headBytes + this.requestCopy.kept + (this.responseCopy?.kept ?? 0);
  }
}

/** The connection to the target that serves one client connection, with the exchanges sent on it. */
interface Link {
  socket: net.Socket;
  parser: FramingParser;
  /** Forwarded exchanges not yet answered, in order. */
  sent: WireExchange[];
  error: string | undefined;
}

export type WireOptions = Pick<
  ProxyOptions,
  'contract' | 'errors' | 'maxBodyBytes' | 'redact' | 'headTimeoutMs' | 'onStreamFinding'
> & {
  /** Shared by every connection: what the exchanges in flight may keep in memory (unbounded without). */
  budget?: MemoryBudget;
};

/** How long a request head may take to arrive, from its first byte, unless told. */
export const defaultHeadTimeoutMs = 10_000;

export class WireConnection {
  /** Exchanges not yet fully answered, in request order; the first is the one being answered. */
  private readonly line: WireExchange[] = [];
  /** The request being received. */
  private current: WireExchange | undefined;
  private link: Link | undefined;
  private readonly parser = requestParser();
  /** No more requests are read on this connection (it closes once the line is answered). */
  private reading = true;
  private stopping = false;
  private closed = false;
  private up: Piece[] = [];
  /** Silences in a row while a request is being received. */
  private silences = 0;
  private down: Piece[] = [];
  private readonly redact: (text: string) => string;
  private readonly budget: MemoryBudget;
  private readonly headTimeoutMs: number;
  /** Runs from the first byte of a request head until the head is read. */
  private headTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly client: net.Socket,
    private readonly upstream: WireUpstream,
    private readonly options: WireOptions,
    private readonly onRequest: () => void,
    private readonly settle: (captured: CapturedExchange) => void,
    private readonly onClose: (connection: WireConnection) => void,
  ) {
    this.redact = options.redact ?? ((text) => text);
    this.budget = options.budget ?? new MemoryBudget(Number.POSITIVE_INFINITY);
    this.headTimeoutMs = options.headTimeoutMs ?? defaultHeadTimeoutMs;
    client.setNoDelay(true);
    this.parser[kOnHeadersComplete] = (info) => this.requestHead(info);
    this.parser[kOnBody] = (chunk) => this.requestBody(chunk);
    this.parser[kOnMessageComplete] = () => this.requestEnd();
    client.on('data', (chunk: Buffer) => this.clientData(chunk));
    client.on('drain', () => this.link?.socket.resume());
    client.on('end', () => this.clientEnded());
    client.on('close', () => this.clientClosed());
    client.on('error', () => undefined);
    // One inactivity timer per socket, set once: the handlers look at the state, so no request re-arms it.
    client.on('timeout', () => this.clientSilent());
    client.setTimeout(keepAliveMs);
  }

  /** Stop taking requests: an idle connection closes now, a busy one once its exchanges are answered. */
  stop(): void {
    this.stopping = true;
    if (this.idle()) this.client.destroy();
  }

  /** Cuts off at once what is in flight (the stop's time is up): each exchange not over is reported, not judged. */
  abort(reason: string): void {
    this.closed = true;
    this.reading = false;
    clearTimeout(this.headTimer);
    for (const exchange of this.line.splice(0)) {
      // One whose answer the proxy had decided (400, 502) is judged as that answer; the others are not judged.
      if (!exchange.answerOver && exchange.localAnswer === undefined) exchange.notJudged = reason;
      exchange.requestOver = true;
      exchange.answerOver = true;
      this.settleIfOver(exchange);
    }
    this.current = undefined;
    this.dropLink();
    this.client.destroy();
  }

  private clientSilent(): void {
    if (this.closed || this.idle()) return void this.client.destroy();
    if (this.current === undefined) return;
    if (++this.silences >= silencesPerRequest) return void this.client.destroy();
    this.client.setTimeout(keepAliveMs);
  }

  private idle(): boolean {
    return this.current === undefined && this.line.length === 0;
  }

  /** Part of a request head has been read, and not all of it. */
  private midHead(): boolean {
    const parser = this.parser as unknown as { state: string; line: string };
    return this.current === undefined && (parser.state === 'HEADER' || parser.line !== '');
  }

  /** The head's deadline, from its first byte: a head trickled in a line at a time still has to end in time. */
  private headDeadline(): NodeJS.Timeout {
    return setTimeout(() => {
      this.headTimer = undefined;
      if (this.closed || !this.reading || this.current !== undefined) return;
      // Not read because the proxy stopped reading (its own backpressure): no fault of the client's.
      if (this.client.isPaused()) return void (this.headTimer = this.headDeadline());
      if (this.midHead()) {
        this.refuse(408, `the request head did not arrive within ${this.headTimeoutMs} ms`);
        this.flush();
      } else if (this.idle()) this.client.destroy();
    }, this.headTimeoutMs);
  }

  // ─── requests ────────────────────────────────────────────────────────────────────────────────────────────────

  private clientData(chunk: Buffer): void {
    if (!this.reading) return;
    this.silences = 0;
    // Blank lines before a request count towards its head's time too.
    if (this.current === undefined) this.headTimer ??= this.headDeadline();
    const result = this.parser.execute(chunk);
    if (result instanceof Error && this.reading)
      this.refuse(
        /max header size/.test(result.message) ? 431 : 400,
        /max header size/.test(result.message)
          ? 'the request head is too large'
          : `the request is not well-formed HTTP/1.1 (${result.message === 'Parse Error' ? (result as { code?: string }).code : result.message})`,
      );
    if (this.reading && this.midHead()) this.headTimer ??= this.headDeadline();
    this.flush();
    if (this.line.length >= maxQueued) this.client.pause();
  }

  private requestHead(info: HeadInfo): number {
    clearTimeout(this.headTimer);
    this.headTimer = undefined;
    if (!this.reading) return 1;
    const method = methods[info.method] ?? 'GET';
    let headBytes = 0;
    for (const text of info.headers) headBytes += text.length;
    if (headBytes > maxHeadBytes) return this.refuse(431, 'the request head is too large');
    if (info.versionMajor !== 1) return this.refuse(505, 'only HTTP/1.x is relayed');
    if (info.upgrade)
      return this.refuse(501, `the proxy does not relay ${method === 'CONNECT' ? 'CONNECT' : 'protocol upgrades'}`);
    if (!info.url.startsWith('/')) return this.refuse(400, 'the request target must be a path (origin form)');
    const targetProblem = requestTargetProblem(info.url);
    if (targetProblem !== undefined) return this.refuse(400, targetProblem);
    const framing = requestFraming(info.headers);
    if ('status' in framing) return this.refuse(framing.status, framing.reason);
    // A declared body is held for at once: a request that would not fit is refused before anything is sent.
    const memory = new Reservation(this.budget);
    if (!memory.cover(headBytes + Math.min(framing.length ?? 0, this.options.maxBodyBytes)))
      return this.refuse(503, this.budgetSpent());
    // Judged as the target gets it: a header the client's Connection names (`Connection: x-api-key`) is not
    // forwarded, so the request is judged without it too.
    const exchange = new WireExchange(
      method,
      info.url,
      forwardHeaders(info.headers),
      info.versionMinor >= 1,
      info.shouldKeepAlive,
      framing.chunked,
      this.options.maxBodyBytes,
      memory,
    );
    exchange.headBytes = headBytes;
    exchange.counted = true;
    this.onRequest();
    // The last request on this connection: its body is still read, nothing after it.
    if (!exchange.keepAlive || this.stopping) exchange.closeAfter = true;
    this.current = exchange;
    this.line.push(exchange);
    const { head, expectContinue } = this.upstreamHead(method, info, framing.chunked);
    if (this.options.errors) {
      exchange.held = [head];
      if (expectContinue && this.line[0] === exchange) this.down.push(`HTTP/1.1 100 Continue${crlf}${crlf}`);
    } else this.send(exchange, [head]);
    return 0;
  }

  /** The request's head as the target gets it; with `errors`, Expect is answered here and not passed on. */
  private upstreamHead(method: string, info: HeadInfo, chunked: boolean): { head: string; expectContinue: boolean } {
    let expectContinue = false;
    let head = `${method} ${this.upstream.prefix}${info.url} HTTP/1.1${crlf}`;
    const forwarded = forwardHeaders(info.headers, this.upstream.host);
    for (let index = 0; index < forwarded.length; index += 2) {
      // With `errors` the proxy answers 100 Continue itself: the body must come before the request is judged.
      if (this.options.errors && forwarded[index]!.toLowerCase() === 'expect') {
        expectContinue = forwarded[index + 1]!.toLowerCase() === '100-continue';
        continue;
      }
      head += `${forwarded[index]}: ${forwarded[index + 1]}${crlf}`;
    }
    if (chunked) head += `transfer-encoding: chunked${crlf}`;
    return { head: head + crlf, expectContinue };
  }

  private budgetSpent(): string {
    const megabytes = Math.round((this.budget.limit / 2 ** 20) * 100) / 100;
    return `the proxy holds all the memory it may for exchanges in flight (${megabytes} MB): try again later`;
  }

  private requestBody(chunk: Buffer): void {
    const exchange = this.current;
    if (!exchange || !this.reading || exchange.answerOver) return;
    const copy = exchange.requestCopy;
    // A body of unknown length is held for as it comes: past the budget, the request is cut off and answered 503.
    if (!copy.over && copy.kept + chunk.length <= this.options.maxBodyBytes)
      if (!exchange.memory.cover(exchange.kept + chunk.length)) return void this.refuse(503, this.budgetSpent());
    copy.add(chunk);
    const pieces = exchange.chunkedUp ? [`${chunk.length.toString(16)}${crlf}`, chunk, crlf] : [chunk];
    if (exchange.held) {
      exchange.held.push(...pieces);
      if (copy.over) this.judgeHeld(exchange, false);
    } else if (exchange.forwarded) this.up.push(...pieces);
  }

  private requestEnd(): void {
    const exchange = this.current;
    if (!exchange) return;
    this.current = undefined;
    if (exchange.chunkedUp && !exchange.answerOver) {
      if (exchange.held) exchange.held.push(`0${crlf}${crlf}`);
      else if (exchange.forwarded) this.up.push(`0${crlf}${crlf}`);
    }
    if (exchange.held) this.judgeHeld(exchange, true);
    exchange.requestOver = true;
    if (exchange.closeAfter) this.reading = false;
    this.settleIfOver(exchange);
  }

  /** With `errors`: judges the request (its body read, or as much as is kept), then forwards or blocks it. */
  private judgeHeld(exchange: WireExchange, complete: boolean): void {
    const held = exchange.held!;
    exchange.held = undefined;
    const record = requestRecord(exchange, this.options.maxBodyBytes);
    const result = checkRequest(this.options.contract, record);
    exchange.judged = { record, result };
    if (!result.findings.some((finding) => finding.severity === 'error')) {
      this.send(exchange, held);
      return;
    }
    const body = {
      error: 'the request breaks the contract: not forwarded',
      operation: result.operationId ?? null,
      violations: result.findings.map(violation),
    };
    exchange.blocked = true;
    // The rest of a body not yet read is not wanted: the connection closes after the answer.
    if (!complete) this.stopReading(exchange);
    this.answerLocally(exchange, 400, this.redact(JSON.stringify(body)));
  }

  /** Answers a request the proxy cannot relay, and closes the connection: what follows cannot be framed. */
  private refuse(status: number, reason: string): number {
    let exchange = this.current;
    if (!exchange) {
      exchange = new WireExchange('GET', '/', [], true, false, false, 0, new Reservation(this.budget));
      this.line.push(exchange);
      this.current = exchange;
    }
    this.current = undefined;
    exchange.requestOver = true;
    exchange.blocked = true;
    exchange.upstreamError = reason;
    this.stopReading(exchange);
    // Refused before it was taken in, it is not an exchange to judge; one cut off mid-body is, with the reason.
    if (!exchange.counted) exchange.settled = true;
    if (exchange.forwarded && this.link) {
      // The target is still waiting for the rest of it: that connection is of no more use.
      const link = this.link;
      link.sent = link.sent.filter((sent) => sent !== exchange);
      this.linkFailed(link, `an earlier request on the connection was cut off: ${reason}`);
    }
    this.answerLocally(exchange, status, JSON.stringify({ error: reason }));
    return 1;
  }

  /** Reads no more: `exchange`, if still being received, is over as far as the proxy is concerned. */
  private stopReading(exchange: WireExchange): void {
    exchange.closeAfter = true;
    this.reading = false;
    if (this.current === exchange) {
      this.current = undefined;
      exchange.requestOver = true;
    }
  }

  // ─── the target ─────────────────────────────────────────────────────────────────────────────────────────────

  /** Sends an exchange's request (what is known of it so far) to the target. */
  private send(exchange: WireExchange, pieces: Piece[]): void {
    const link = this.link ?? this.connect();
    exchange.forwarded = true;
    link.sent.push(exchange);
    this.up.push(...pieces);
  }

  private connect(): Link {
    const { hostname, port } = this.upstream;
    const socket = this.upstream.tls
      ? tls.connect({ host: hostname, port, servername: net.isIP(hostname) ? undefined : hostname })
      : net.connect({ host: hostname, port });
    socket.setNoDelay(true);
    // The target's silence past the timeout fails what it owes; an idle connection to it is closed.
    socket.setTimeout(this.upstream.timeoutMs);
    const link: Link = { socket, parser: responseParser(), sent: [], error: undefined };
    link.parser[kOnHeadersComplete] = (info) => this.answerHead(link, info);
    link.parser[kOnBody] = (chunk) => this.answerBody(link, chunk);
    link.parser[kOnMessageComplete] = () => this.answerEnd(link);
    socket.on('data', (chunk: Buffer) => {
      const result = link.parser.execute(chunk);
      if (result instanceof Error) this.linkFailed(link, `the target's answer is not well-formed HTTP/1.1`);
      this.flush();
    });
    socket.on('drain', () => this.client.resume());
    socket.on('timeout', () => {
      if (link.sent.length > 0) this.linkFailed(link, `the target did not answer within ${this.upstream.timeoutMs} ms`);
      else socket.destroy();
      this.flush();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      link.error ??= error.code ? `${error.code} ${error.message.replace(/^\w+ /, '')}` : error.message;
    });
    socket.on('end', () => {
      // An answer delimited by the end of the connection is over now.
      if (link.parser.finish() instanceof Error) link.error ??= 'the target closed the connection mid-answer';
      this.flush();
    });
    socket.on('close', () => {
      this.linkFailed(link, link.error ?? 'the target closed the connection before answering');
      this.flush();
    });
    this.link = link;
    return link;
  }

  private answerHead(link: Link, info: HeadInfo): number {
    const exchange = link.sent[0];
    if (!exchange || exchange.clientGone) {
      if (!exchange) this.linkFailed(link, 'the target answered a request it was not sent');
      return 1;
    }
    const status = info.statusCode;
    if (status === 101 || /[\0-\x08\n-\x1f\x7f]/.test(info.statusMessage)) {
      this.linkFailed(link, status === 101 ? 'the target switched protocols unasked' : 'a bad status line');
      return 1;
    }
    const noBody = exchange.method === 'HEAD' || status === 204 || status === 304 || status < 200;
    const chunked = link.parser.isChunked && !noBody;
    const framing = status >= 200 ? this.answerFraming(exchange, info) : undefined;
    if (framing !== undefined && 'status' in framing) {
      this.linkFailed(link, framing.reason, framing.status);
      return 1;
    }
    const delimitedByClose = !noBody && !chunked && framing?.length === undefined;
    let head = `HTTP/1.1 ${status} ${info.statusMessage}${crlf}`;
    const forwarded = forwardHeaders(info.headers);
    for (let index = 0; index < forwarded.length; index += 2)
      head += `${forwarded[index]}: ${forwarded[index + 1]}${crlf}`;
    if (status < 200) {
      exchange.interim = true;
      // No interim answers to an HTTP/1.0 client (RFC 9110 section 15.2).
      if (exchange.http11) this.down.push(head + crlf);
      return 1;
    }
    exchange.upstreamCloses = !info.shouldKeepAlive;
    exchange.status = status;
    exchange.responseHeaders = info.headers;
    exchange.responseCopy = new BoundedCopy(this.options.maxBodyBytes);
    if (!noBody)
      exchange.stream = streamJudgeFor(this.options.contract, exchange, info.headers, this.options.maxBodyBytes);
    exchange.chunkedDown = chunked && exchange.http11;
    if (delimitedByClose || (chunked && !exchange.http11) || this.stopping) exchange.closeAfter = true;
    if (exchange.closeAfter) head += `connection: close${crlf}`;
    else if (!exchange.http11) head += `connection: keep-alive${crlf}`;
    if (exchange.chunkedDown) head += `transfer-encoding: chunked${crlf}`;
    this.down.push(head + crlf);
    return noBody ? 1 : 0;
  }

  /**
   * A final answer's framing, or why its head is not relayed: framing another reader could take differently (502),
   * or the memory it would hold, with its declared length, not to be had (503).
   */
  private answerFraming(exchange: WireExchange, info: HeadInfo): Framing | { status: number; reason: string } {
    const named = framingNamedInConnection(info.headers);
    if (named !== undefined)
      return { status: 502, reason: `the target's answer names ${named} in its Connection header, which frames it` };
    const framing = messageFraming(info.headers);
    if ('reason' in framing) return { status: 502, reason: `the target's answer is not relayed: ${framing.reason}` };
    for (const text of info.headers) exchange.headBytes += text.length;
    const noBody = exchange.method === 'HEAD' || info.statusCode === 204 || info.statusCode === 304;
    const declared = noBody ? 0 : Math.min(framing.length ?? 0, this.options.maxBodyBytes);
    if (!exchange.memory.cover(exchange.kept + declared)) return { status: 503, reason: this.budgetSpent() };
    return framing;
  }

  private answerBody(link: Link, chunk: Buffer): void {
    const exchange = link.sent[0];
    if (!exchange || exchange.clientGone) return;
    const copy = exchange.responseCopy!;
    // An answer of unknown length is held for as it comes: past the budget, it is cut off (its head went on).
    if (!copy.over && copy.kept + chunk.length <= this.options.maxBodyBytes)
      if (!exchange.memory.cover(exchange.kept + chunk.length)) return void this.linkFailed(link, this.budgetSpent());
    copy.add(chunk);
    if (exchange.chunkedDown) this.down.push(`${chunk.length.toString(16)}${crlf}`, chunk, crlf);
    else this.down.push(chunk);
    // Judged once forwarded: the chunk has gone on whatever its items say.
    if (exchange.stream) this.streamFindings(exchange, exchange.stream.push(chunk));
  }

  private streamFindings(exchange: WireExchange, findings: Finding[]): void {
    for (const finding of findings) this.options.onStreamFinding?.(exchange, finding);
  }

  private answerEnd(link: Link): void {
    const exchange = link.sent[0];
    if (!exchange) return;
    if (exchange.interim) {
      exchange.interim = false;
      return;
    }
    link.sent.shift();
    if (exchange.chunkedDown) this.down.push(`0${crlf}${crlf}`);
    if (exchange.stream) this.streamFindings(exchange, exchange.stream.end());
    // Answered before its request was all sent: the target's connection is out of step, and so is the client's.
    if (!exchange.requestOver) this.stopReading(exchange);
    this.answered(exchange);
    // The target closes after this answer: requests sent after it on that connection are lost, and the next one
    // goes on a new connection.
    if (exchange.upstreamCloses && link.socket.readyState !== 'closed')
      this.linkFailed(link, 'the target closed the connection after answering an earlier request');
  }

  /** The target's connection is gone or unusable: what it still owed is answered 502 (or 503), or cut off if begun. */
  private linkFailed(link: Link, reason: string, status = 502): void {
    if (this.link === link) this.link = undefined;
    const owed = link.sent.splice(0);
    link.socket.destroy();
    for (const exchange of owed) {
      if (exchange.clientGone) continue;
      exchange.upstreamError = reason;
      // The target has begun answering (its head went on to the client).
      if (exchange.responseHeaders !== undefined) {
        // Part of the answer has gone to the client: it cannot be completed, nor can the connection be reused.
        exchange.upstreamError = `the response was cut off: ${reason}`;
        exchange.requestOver = true;
        exchange.answerOver = true;
        this.settleIfOver(exchange);
        this.closed = true;
        this.client.destroy();
        return;
      }
      if (!exchange.requestOver) this.stopReading(exchange);
      const error = status === 503 ? 'service unavailable' : 'bad gateway';
      this.answerLocally(exchange, status, JSON.stringify({ error, reason: this.redact(reason) }));
    }
  }

  // ─── answers ────────────────────────────────────────────────────────────────────────────────────────────────

  private answerLocally(exchange: WireExchange, status: number, body: string): void {
    exchange.status = status;
    exchange.localAnswer = localAnswer(status, body, exchange.closeAfter || this.stopping);
    this.answerWaiting();
  }

  /** The first exchange in line is answered: on to the next, sending the proxy's own answers that are due. */
  private answered(exchange: WireExchange): void {
    exchange.answerOver = true;
    if (this.line[0] === exchange) this.line.shift();
    this.settleIfOver(exchange);
    if (exchange.closeAfter) {
      this.finish();
      return;
    }
    this.answerWaiting();
    if (this.line.length < maxQueued / 2 && this.reading) this.client.resume();
    if (this.idle() && (this.stopping || !this.reading)) this.finish();
  }

  private answerWaiting(): void {
    const first = this.line[0];
    if (first?.localAnswer === undefined) return;
    this.down.push(first.localAnswer);
    first.localAnswer = undefined;
    this.answered(first);
  }

  /** Ends the client connection once what is due has been written. */
  private finish(): void {
    this.flush();
    if (this.closed) return;
    this.closed = true;
    this.client.end();
    const link = this.link;
    this.link = undefined;
    if (link && link.sent.length === 0) link.socket.end();
    else link?.socket.destroy();
  }

  private settleIfOver(exchange: WireExchange): void {
    if (!exchange.requestOver || !exchange.answerOver || exchange.settled) return;
    exchange.settled = true;
    exchange.durationMs = performance.now() - exchange.started;
    exchange.held = undefined;
    // Handed on to the check queue, which bounds what waits there on its own.
    exchange.memory.release();
    this.settle(exchange);
  }

  /** Writes what is due each way, as one write per direction. */
  private flush(): void {
    if (this.up.length > 0) {
      const pieces = this.up;
      this.up = [];
      const socket = this.link?.socket;
      if (socket && !socket.destroyed) {
        if (write(socket, pieces)) this.client.pause();
      }
    }
    if (this.down.length > 0) {
      const pieces = this.down;
      this.down = [];
      if (!this.client.destroyed && write(this.client, pieces)) this.link?.socket.pause();
    }
  }

  // ─── the client goes ─────────────────────────────────────────────────────────────────────────────────────────

  private clientEnded(): void {
    // As Node's own server does: a client that stops sending is gone, and so are the answers it was waiting for.
    this.reading = false;
    if (this.idle()) this.finish();
    else this.client.destroy();
  }

  private clientClosed(): void {
    clearTimeout(this.headTimer);
    if (this.closed && this.line.length === 0) {
      this.onClose(this);
      return;
    }
    this.closed = true;
    this.reading = false;
    for (const exchange of this.line.splice(0)) {
      exchange.clientGone = !exchange.answerOver;
      exchange.requestOver = true;
      exchange.answerOver = true;
      this.settleIfOver(exchange);
    }
    this.current = undefined;
    this.dropLink();
    this.onClose(this);
  }

  /** Lets the target's connection go, whatever it still owes. */
  private dropLink(): void {
    const link = this.link;
    this.link = undefined;
    if (link) {
      link.sent = [];
      link.socket.destroy();
    }
  }
}

/** Up to this many bytes, the pieces are joined into one buffer: one write call, not a corked series. */
const joinBelow = 64 * 1024;

/** Writes the pieces in one go; true when the socket wants a drain before more. */
function write(socket: net.Socket, pieces: Piece[]): boolean {
  if (pieces.length === 1) return !socket.write(pieces[0]!, 'latin1');
  let size = 0;
  for (const piece of pieces) size += piece.length;
  if (size <= joinBelow) {
    const joined = Buffer.allocUnsafe(size);
    let at = 0;
    for (const piece of pieces)
      at += typeof piece === 'string' ? joined.write(piece, at, 'latin1') : piece.copy(joined, at);
    return !socket.write(joined);
  }
  socket.cork();
  for (const piece of pieces) socket.write(piece, 'latin1');
  socket.uncork();
  return socket.writableNeedDrain;
}
