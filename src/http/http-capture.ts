// The fetch the typed clients use during a run: a per-request timeout, bounded retries on 429 that honour
// Retry-After, a cap on the body it reads, interruption, and a record of each exchange's raw response
// (status, headers, body text) for the checks. Transport failures become ContractsErrors naming URL and reason.
// Redirects are never followed: fetch would resend X-API-KEY and the query's clientToken to wherever a Location
// points (it strips only Authorization), and would attribute the other server's answer to the target. A 3xx is
// what the checks judge, with its Location. `exchange` is the same contract without the WHATWG layer: a raw
// HTTP/1.1 client over a keep-alive pool (wire-client.ts), for the fuzzer, which sends thousands of requests and
// only needs the captured exchange.
import http from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { backoffMs, retryAfterMs } from './retry-after.js';
import { ContractsError } from '../core/errors.js';
import { decodeBody, type Exchange } from '../core/exchange.js';
import { ParseError, rawHeader } from './strict-parser.js';
import { requestHead, type WireAnswer, WireFailure, WirePool, WireRequestError } from './wire-client.js';
import { setOwn } from '../core/own-key.js';

export interface CapturedExchange extends Exchange {
  url: string;
}

export interface CaptureOptions {
  timeoutMs: number;
  /** Bodies over this many bytes are not read (reported by response_body_wellformed). */
  maxBodyBytes?: number;
  /** How many times a 429 is retried before the run gives up. */
  retries?: number;
  /** Longest wait between retries, whatever Retry-After says. */
  maxRetryWaitMs?: number;
  /** A 429 is returned as any answer, for the caller to wait on (fuzz parks the operation: src/fuzz/rate-limits.ts). */
  rateLimitsToCaller?: boolean;
}

const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

/** A request as plain data: what `exchange` sends. */
export interface RawRequest {
  method: string;
  url: string;
  headers: [string, string][];
  body?: string;
}

export class HttpCapture {
  last: CapturedExchange | undefined;
  private readonly controller = new AbortController();
  private stopping = false;
  private readonly maxBodyBytes: number;
  private readonly retries: number;
  private readonly maxRetryWaitMs: number;
  private readonly rateLimitsToCaller: boolean;
  private readonly timeoutMs: number;
  /** Connections kept open between requests (fetch keeps its own pool; `exchange` uses this one). */
  private readonly pool = new WirePool();
  /** How to abort each `exchange` attempt in flight, for a second Ctrl-C. */
  private readonly inFlight = new Set<(reason: Error) => void>();

  constructor(options: CaptureOptions) {
    this.timeoutMs = options.timeoutMs;
    this.maxBodyBytes = options.maxBodyBytes ?? 10 * 2 ** 20;
    this.retries = options.retries ?? 3;
    this.maxRetryWaitMs = options.maxRetryWaitMs ?? 30_000;
    this.rateLimitsToCaller = options.rateLimitsToCaller ?? false;
  }

  /**
   * The first call refuses new requests but lets the one in flight finish, so a create that reaches the server
   * is known and can be cleaned up; a second call aborts what is in flight. `cleanupFetch` always works.
   */
  interrupt(): void {
    if (this.stopping) {
      this.controller.abort(new Error('interrupted'));
      for (const abort of this.inFlight) abort(new Error('interrupted'));
    }
    this.stopping = true;
  }

  get interrupted(): boolean {
    return this.stopping;
  }

  readonly fetch = (request: Request): Promise<Response> => this.send(request, true);

  /** For cleanup after an interruption: not aborted by interrupt(). */
  readonly cleanupFetch = (request: Request): Promise<Response> => this.send(request, false);

  /**
   * Sends a request and resolves to what was captured, with fetch's contract (timeout over headers and body, body
   * cap, no redirects, 429 retries, interruption, the same errors), but no Request/Response objects and no
   * `last`: safe with many requests in flight at once. `cleanup` requests are not aborted by interrupt().
   */
  async exchange(request: RawRequest, cleanup = false): Promise<CapturedExchange> {
    const url = new URL(request.url);
    const where = `${request.method} ${url.origin}${url.pathname}`;
    for (let attempt = 0; ; attempt++) {
      if (!cleanup && this.stopping) throw new ContractsError('INTERRUPTED', `interrupted before ${where}`);
      try {
        return await this.rawAttempt(request, where, url, !cleanup, attempt);
      } catch (error) {
        if (!(error instanceof RetryLater)) throw error;
        await this.wait(error.ms, !cleanup);
      }
    }
  }

  /** Frees the kept-alive connections (the run is over). */
  close(): void {
    this.pool.close();
  }

  private async send(request: Request, abortable: boolean): Promise<Response> {
    const url = new URL(request.url);
    const where = `${request.method} ${url.origin}${url.pathname}`;
    for (let attempt = 0; ; attempt++) {
      if (abortable && this.stopping) throw new ContractsError('INTERRUPTED', `interrupted before ${where}`);
      // One controller per attempt, aborted by its own timer (which also covers reading the body) or by a
      // second Ctrl-C. (AbortSignal.any over AbortSignal.timeout can fail to fire on Node 20.)
      const local = new AbortController();
      const timer = setTimeout(() => local.abort(timeoutError()), this.timeoutMs);
      const onInterrupt = () => local.abort(new Error('interrupted'));
      if (abortable) this.controller.signal.addEventListener('abort', onInterrupt, { once: true });
      try {
        return await this.attempt(request, local.signal, where, url, abortable, attempt);
      } catch (error) {
        if (error instanceof RetryLater) {
          await this.wait(error.ms, abortable);
          continue;
        }
        throw error;
      } finally {
        clearTimeout(timer);
        this.controller.signal.removeEventListener('abort', onInterrupt);
      }
    }
  }

  private async attempt(
    request: Request,
    signal: AbortSignal,
    where: string,
    url: URL,
    abortable: boolean,
    attempt: number,
  ): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(request.clone(), { signal, redirect: 'manual' });
    } catch (error) {
      throw this.failure(signal.reason ?? error, where, url, abortable);
    }
    if (response.status === 429 && attempt < this.retries) {
      await response.body?.cancel();
      throw new RetryLater(retryDelay(response.headers.get('retry-after'), attempt, this.maxRetryWaitMs));
    }
    if (response.status === 429) {
      await response.body?.cancel();
      const after = response.headers.get('retry-after');
      throw new ContractsError(
        'TARGET_RATE_LIMITED',
        `rate-limited by ${url.origin}: ${where} still got 429 after ${this.retries} retries${after ? ` (Retry-After: ${after})` : ''}`,
      );
    }
    const read = await this.readBody(response, where, url, abortable, signal);
    this.last = {
      method: request.method,
      path: url.pathname,
      url: url.toString(),
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body: read.text,
      ...(read.tooLarge ? { bodyTooLarge: this.maxBodyBytes } : {}),
      ...(read.notUtf8 ? { bodyNotUtf8: true } : {}),
    };
    // The typed client gets a copy of what was read: never more than the cap.
    const body = nullBodyStatuses.has(response.status) || read.bytes.length === 0 ? null : read.bytes;
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }

  /**
   * One attempt on the socket-level client. Its timer covers connect, head and body; a second Ctrl-C aborts it
   * through `inFlight`.
   */
  private async rawAttempt(
    request: RawRequest,
    where: string,
    url: URL,
    abortable: boolean,
    attempt: number,
  ): Promise<CapturedExchange> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new ContractsError('USAGE', `cannot send ${where}: only http: and https: URLs can be sent`);
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    let built: { head: string; closeAfter: boolean };
    try {
      built = requestHead(request.method, url, request.headers, body?.length);
    } catch (error) {
      if (!(error instanceof WireRequestError)) throw error;
      // node:http refused these too (ERR_INVALID_CHAR): never sent, so nothing can be injected into the head.
      throw new ContractsError('USAGE', `cannot send ${target(url, where)}: ${error.message}`);
    }
    const secure = url.protocol === 'https:';
    let abort: ((reason: Error) => void) | undefined;
    let answer: WireAnswer;
    try {
      answer = await this.pool.send(
        {
          origin: {
            tls: secure,
            hostname: url.hostname.replace(/^\[|\]$/g, ''),
            port: url.port === '' ? (secure ? 443 : 80) : Number(url.port),
          },
          key: url.origin,
          method: request.method,
          head: built.head,
          body,
          timeoutMs: this.timeoutMs,
          bodyLimit: this.bodyLimit,
          maxHeadBytes: http.maxHeaderSize,
          closeAfter: built.closeAfter,
        },
        abortable
          ? (abortCall) => {
              abort = abortCall;
              this.inFlight.add(abortCall);
            }
          : undefined,
      );
    } catch (error) {
      if (!(error instanceof WireFailure)) throw error;
      throw this.bodyFailure(error.cause, error.headArrived, where, url, abortable);
    } finally {
      if (abort) this.inFlight.delete(abort);
    }
    const { status, rawHeaders } = answer;
    if (status === 429 && !this.rateLimitsToCaller) {
      // Its body has been read (bounded), or its connection dropped: either way the connection is in step.
      const after = rawHeader(rawHeaders, 'retry-after');
      if (attempt < this.retries) throw new RetryLater(retryDelay(after ?? null, attempt, this.maxRetryWaitMs));
      throw new ContractsError(
        'TARGET_RATE_LIMITED',
        `rate-limited by ${url.origin}: ${where} still got 429 after ${this.retries} retries${after ? ` (Retry-After: ${after})` : ''}`,
      );
    }
    if (answer.tooLarge) return captured(request, url, answer, '', { bodyTooLarge: this.maxBodyBytes });
    let bytes = answer.body;
    // fetch decodes these content codings: so does this, and the cap applies to what is decoded (a zip bomb
    // stops at the cap).
    const decode = decoders.get(contentCoding(rawHeaders));
    if (decode && bytes.length > 0) {
      try {
        bytes = await decode(bytes, { maxOutputLength: Math.max(1, this.maxBodyBytes) });
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
          return captured(request, url, answer, '', { bodyTooLarge: this.maxBodyBytes });
        throw this.bodyFailure(error, true, where, url, abortable);
      }
      if (bytes.length > this.maxBodyBytes)
        return captured(request, url, answer, '', { bodyTooLarge: this.maxBodyBytes });
    }
    const { text, notUtf8 } = decodeBody(bytes);
    return captured(request, url, answer, text, notUtf8 ? { bodyNotUtf8: true } : {});
  }

  /**
   * The most body bytes read off the wire: the cap, or for a content-coded body of undeclared length a little
   * more (deflate and brotli grow what they cannot compress by under 0.1%), since the cap is on decoded bytes.
   */
  private readonly bodyLimit = (rawHeaders: readonly string[]): number =>
    decoders.has(contentCoding(rawHeaders)) && rawHeader(rawHeaders, 'content-length') === undefined
      ? this.maxBodyBytes + (this.maxBodyBytes >> 10) + 1024
      : this.maxBodyBytes;

  /** A failure of an attempt, told apart once the head had come: then the target was reached, its body was not. */
  private bodyFailure(
    cause: unknown,
    headArrived: boolean,
    where: string,
    url: URL,
    abortable: boolean,
  ): ContractsError {
    const failure = this.failure(cause, where, url, abortable);
    if (failure.code !== 'TARGET_UNREACHABLE') return failure;
    // The target answered, with a message no reader can frame one way only (Content-Length beside chunked, a bad
    // chunk): that is its answer, which fuzz reports as a finding (executor.ts), as the proxy refuses to relay it.
    if (cause instanceof ParseError && cause.code.startsWith('HPE_') && cause.code !== 'HPE_HEADER_OVERFLOW')
      return new ContractsError('TARGET_UNREACHABLE', `${target(url, where)}: ${malformedAnswer}: ${cause.message}`);
    if (!headArrived) return failure;
    if ((cause as Error).name === 'TimeoutError')
      return new ContractsError(
        'TARGET_UNREACHABLE',
        `${target(url, where)} timed out: the response body did not arrive within ${this.timeoutMs} ms (--timeout)`,
      );
    return new ContractsError(
      'TARGET_UNREACHABLE',
      `cannot reach ${target(url, where)}: the connection broke while reading the response body (${reason(cause, this.timeoutMs)})`,
    );
  }

  private async readBody(
    response: Response,
    where: string,
    url: URL,
    abortable: boolean,
    signal: AbortSignal,
  ): Promise<{ bytes: Uint8Array; text: string; tooLarge: boolean; notUtf8: boolean }> {
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > this.maxBodyBytes) {
      await response.body?.cancel();
      return { bytes: new Uint8Array(), text: '', tooLarge: true, notUtf8: false };
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      const reader = response.body?.getReader();
      for (;;) {
        if (!reader) break;
        const { done, value } = await reader.read();
        if (done) break;
        size += value.length;
        if (size > this.maxBodyBytes) {
          await reader.cancel();
          return { bytes: new Uint8Array(), text: '', tooLarge: true, notUtf8: false };
        }
        chunks.push(value);
      }
    } catch (error) {
      // The status and headers came, so the target was reached: say what went wrong with the body.
      throw this.bodyFailure(signal.reason ?? error, true, where, url, abortable);
    }
    const bytes = Buffer.concat(chunks);
    const { text, notUtf8 } = decodeBody(bytes);
    return { bytes, text, tooLarge: false, notUtf8 };
  }

  private async wait(ms: number, abortable: boolean): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      if (abortable)
        this.controller.signal.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            resolve();
          },
          { once: true },
        );
    });
  }

  private failure(error: unknown, where: string, url: URL, abortable: boolean): ContractsError {
    if (abortable && this.stopping) return new ContractsError('INTERRUPTED', `interrupted during ${where}`);
    // undici's limit is Node's --max-http-header-size (16 KB): the target answered, with more than can be read.
    if (headersOverflowed(error))
      return new ContractsError(
        'TARGET_UNREACHABLE',
        `${target(url, where)}: response headers too large (over ${http.maxHeaderSize} bytes, Node's --max-http-header-size)`,
      );
    return new ContractsError(
      'TARGET_UNREACHABLE',
      `cannot reach ${target(url, where)}: ${reason(error, this.timeoutMs)}`,
    );
  }
}

class RetryLater extends Error {
  constructor(readonly ms: number) {
    super('retry later');
  }
}

function timeoutError(): Error {
  const error = new Error('timed out');
  error.name = 'TimeoutError';
  return error;
}

/** `http://host:port (GET /path)`: the query is left out, it may carry a credential. */
function target(url: URL, where: string): string {
  return `${url.origin} (${where.split(' ')[0]} ${url.pathname})`;
}

/** How a failure says the target's answer could not be framed: fuzz tells it from an outage by these words. */
export const malformedAnswer = "the target's answer is not well-formed HTTP/1.1";

function headersOverflowed(error: unknown): boolean {
  const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
  return code === 'UND_ERR_HEADERS_OVERFLOW' || code === 'HPE_HEADER_OVERFLOW';
}

/** What was captured. (A function, not a closure in rawAttempt: tsx names each closure as it is made, per request.) */
function captured(
  request: RawRequest,
  url: URL,
  { status, rawHeaders }: WireAnswer,
  text: string,
  extra: Partial<CapturedExchange>,
): CapturedExchange {
  return {
    method: request.method,
    path: url.pathname,
    url: url.toString(),
    status,
    headers: fetchLikeHeaders(rawHeaders),
    body: text,
    ...extra,
  };
}

/** Response headers as `Object.fromEntries(response.headers)` gives them after fetch: lower-case names, repeats joined. */
function fetchLikeHeaders(raw: string[]): Record<string, string> {
  const values = new Map<string, string>();
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index]!.toLowerCase();
    const value = raw[index + 1]!.trim();
    const before = values.get(name);
    values.set(name, before !== undefined && name !== 'set-cookie' ? `${before}, ${value}` : value);
  }
  const headers: Record<string, string> = {};
  for (const name of [...values.keys()].sort()) setOwn(headers, name, values.get(name)!);
  return headers;
}

/** The content codings fetch decodes, each as one bounded call (maxOutputLength). */
const decoders = new Map<string, (bytes: Buffer, options: zlib.ZlibOptions) => Promise<Buffer>>([
  ['gzip', promisify(zlib.gunzip)],
  ['x-gzip', promisify(zlib.gunzip)],
  ['deflate', promisify(zlib.inflate)],
  ['br', promisify(zlib.brotliDecompress) as (bytes: Buffer, options: zlib.ZlibOptions) => Promise<Buffer>],
]);

/** Content-Encoding as node:http gave it (repeats joined: two codings are not decoded, as before). */
function contentCoding(raw: readonly string[]): string {
  const values: string[] = [];
  for (let index = 0; index + 1 < raw.length; index += 2)
    if (raw[index]!.length === 16 && raw[index]!.toLowerCase() === 'content-encoding') values.push(raw[index + 1]!);
  return values.join(', ').trim().toLowerCase();
}

function reason(error: unknown, timeoutMs: number): string {
  const name = (error as Error).name;
  if (name === 'TimeoutError') return `no answer within ${timeoutMs} ms (--timeout)`;
  const cause = (error as { cause?: { code?: string; message?: string; cause?: { code?: string } } }).cause;
  const code = cause?.code ?? cause?.cause?.code ?? (error as { code?: string }).code;
  if (code && /CERT|SSL|TLS|EPROTO/i.test(code)) return `TLS failure (${code})`;
  if (code) return code;
  return cause?.message ?? (error as Error).message;
}

/**
 * Milliseconds to wait before retry `attempt`: Retry-After (seconds or an HTTP date) when given, never less than the
 * back-off of 1 s, 2 s, 4 s… that applies without one. A limiter that rounds its wait down says `Retry-After: 0`
 * while the window is still closed (Directus does, with 0.4 s left): three immediate retries would all meet it.
 */
export function retryDelay(retryAfter: string | null, attempt: number, maxMs: number): number {
  return Math.min(Math.max(retryAfterMs(retryAfter ?? undefined) ?? 0, backoffMs(attempt)), maxMs);
}
