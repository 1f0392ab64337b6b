// The fetch the typed clients use during a run: a per-request timeout, bounded retries on 429 that honour
// Retry-After, a cap on the body it reads, interruption, and a record of each exchange's raw response
// (status, headers, body text) for the checks. Transport failures become ContractsErrors naming URL and reason.
// Redirects are never followed: fetch would resend X-API-KEY and the query's clientToken to wherever a Location
// points (it strips only Authorization), and would attribute the other server's answer to the target. A 3xx is
// what the checks judge, with its Location. `exchange` is the same contract without the WHATWG layer: node:http
// over a keep-alive agent, for the fuzzer, which sends thousands of requests and only needs the captured exchange.
import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import { ContractsError } from '../core/errors.js';
import { decodeBody, type Exchange } from '../core/exchange.js';

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
  private readonly timeoutMs: number;
  /** Connections kept open between requests (fetch keeps its own pool; `exchange` uses these). */
  private readonly agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  /** How to abort each `exchange` attempt in flight, for a second Ctrl-C. */
  private readonly inFlight = new Set<(reason: Error) => void>();

  constructor(options: CaptureOptions) {
    this.timeoutMs = options.timeoutMs;
    this.maxBodyBytes = options.maxBodyBytes ?? 10 * 2 ** 20;
    this.retries = options.retries ?? 3;
    this.maxRetryWaitMs = options.maxRetryWaitMs ?? 30_000;
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
    this.agents.http.destroy();
    this.agents.https.destroy();
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
   * One attempt over node:http. Its timer covers headers and body; a second Ctrl-C aborts it through `inFlight`
   * (no AbortSignal: node:http's signal option costs more per request than the rest of the client).
   */
  private rawAttempt(
    request: RawRequest,
    where: string,
    url: URL,
    abortable: boolean,
    attempt: number,
  ): Promise<CapturedExchange> {
    const headers: Record<string, string> = {};
    // Repeated names are joined as fetch's Headers joins them.
    for (const [name, value] of request.headers) {
      const known = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
      if (known === undefined) headers[name] = value;
      else headers[known] += `, ${value}`;
    }
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    if (body !== undefined) headers['content-length'] = String(body.length);
    const client = url.protocol === 'https:' ? https : http;
    let aborted: Error | undefined;
    let timer: NodeJS.Timeout | undefined;
    let abort: ((reason: Error) => void) | undefined;
    return new Promise<CapturedExchange>((resolve, reject) => {
      let responded = false;
      const fail = (error: unknown) => {
        const cause = aborted ?? error;
        const failure = this.failure(cause, where, url, abortable);
        if (!responded || failure.code !== 'TARGET_UNREACHABLE') return reject(failure);
        if ((cause as Error).name === 'TimeoutError')
          return reject(
            new ContractsError(
              'TARGET_UNREACHABLE',
              `${target(url, where)} timed out: the response body did not arrive within ${this.timeoutMs} ms (--timeout)`,
            ),
          );
        reject(
          new ContractsError(
            'TARGET_UNREACHABLE',
            `cannot reach ${target(url, where)}: the connection broke while reading the response body (${reason(cause, this.timeoutMs)})`,
          ),
        );
      };
      // Options rather than the URL: node:http would parse it again.
      const options = {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers,
        agent: url.protocol === 'https:' ? this.agents.https : this.agents.http,
      };
      const outgoing = client.request(options, (response) => {
        responded = true;
        const status = response.statusCode ?? 0;
        if (status === 429) {
          response.resume();
          const after = response.headers['retry-after'] ?? null;
          if (attempt < this.retries)
            return reject(
              new RetryLater(retryDelay(Array.isArray(after) ? after[0]! : after, attempt, this.maxRetryWaitMs)),
            );
          return reject(
            new ContractsError(
              'TARGET_RATE_LIMITED',
              `rate-limited by ${url.origin}: ${where} still got 429 after ${this.retries} retries${after ? ` (Retry-After: ${after})` : ''}`,
            ),
          );
        }
        const captured = (text: string, extra: Partial<CapturedExchange> = {}): CapturedExchange => ({
          method: request.method,
          path: url.pathname,
          url: url.toString(),
          status,
          headers: fetchLikeHeaders(response.rawHeaders),
          body: text,
          ...extra,
        });
        const tooLarge = () => resolve(captured('', { bodyTooLarge: this.maxBodyBytes }));
        // Settled before the connection is cut: cutting it reports an abort, which must not win.
        if (Number(response.headers['content-length'] ?? NaN) > this.maxBodyBytes) {
          tooLarge();
          return response.destroy();
        }
        // fetch decodes these content codings: so does this, and the cap applies to what is decoded.
        const coding = String(response.headers['content-encoding'] ?? '')
          .trim()
          .toLowerCase();
        const decoder =
          coding === 'gzip' || coding === 'x-gzip'
            ? zlib.createGunzip()
            : coding === 'deflate'
              ? zlib.createInflate()
              : coding === 'br'
                ? zlib.createBrotliDecompress()
                : undefined;
        const source = decoder ? response.pipe(decoder) : response;
        if (decoder) response.on('error', (error) => decoder.destroy(error));
        const chunks: Buffer[] = [];
        let size = 0;
        source.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= this.maxBodyBytes) return void chunks.push(chunk);
          source.removeAllListeners('data');
          tooLarge();
          response.destroy();
          decoder?.destroy();
        });
        source.on('error', fail);
        response.on('aborted', () => fail(new Error('aborted')));
        source.on('end', () => {
          if (size > this.maxBodyBytes) return;
          const { text, notUtf8 } = decodeBody(Buffer.concat(chunks));
          resolve(captured(text, notUtf8 ? { bodyNotUtf8: true } : {}));
        });
      });
      outgoing.on('error', fail);
      abort = (reason) => {
        aborted ??= reason;
        outgoing.destroy(reason);
      };
      // The error is made only if the timer fires: an Error's stack costs more than the request.
      timer = setTimeout(() => abort?.(timeoutError()), this.timeoutMs);
      if (abortable) this.inFlight.add(abort);
      outgoing.end(body);
    }).finally(() => {
      clearTimeout(timer);
      if (abort) this.inFlight.delete(abort);
    });
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
      const cause = signal.reason ?? error;
      const failure = this.failure(cause, where, url, abortable);
      if (failure.code !== 'TARGET_UNREACHABLE') throw failure;
      // The status and headers came, so the target was reached: say what went wrong with the body.
      if ((cause as Error).name === 'TimeoutError')
        throw new ContractsError(
          'TARGET_UNREACHABLE',
          `${target(url, where)} timed out: the response body did not arrive within ${this.timeoutMs} ms (--timeout)`,
        );
      throw new ContractsError(
        'TARGET_UNREACHABLE',
        `cannot reach ${target(url, where)}: the connection broke while reading the response body (${reason(cause, this.timeoutMs)})`,
      );
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

function headersOverflowed(error: unknown): boolean {
  const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
  return code === 'UND_ERR_HEADERS_OVERFLOW' || code === 'HPE_HEADER_OVERFLOW';
}

/** Response headers as `Object.fromEntries(response.headers)` gives them after fetch: lower-case names, repeats joined. */
function fetchLikeHeaders(raw: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index]!.toLowerCase();
    const value = raw[index + 1]!.trim();
    headers[name] = name in headers && name !== 'set-cookie' ? `${headers[name]}, ${value}` : value;
  }
  return Object.fromEntries(
    Object.keys(headers)
      .sort()
      .map((name) => [name, headers[name]!]),
  );
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

/** Milliseconds to wait before retry `attempt`: Retry-After (seconds or an HTTP date) when given, else 1 s, 2 s, 4 s… */
export function retryDelay(retryAfter: string | null, attempt: number, maxMs: number): number {
  let ms = 1000 * 2 ** attempt;
  if (retryAfter !== null) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) ms = seconds * 1000;
    else if (!Number.isNaN(Date.parse(retryAfter))) ms = Math.max(0, Date.parse(retryAfter) - Date.now());
  }
  return Math.min(ms, maxMs);
}
