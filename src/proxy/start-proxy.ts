// The validating reverse proxy: node:http in front of a target. Bodies stream both ways (only a bounded copy is
// kept for checking), connections are kept alive, redirects are relayed and never followed, an upstream fault is
// answered 502 with its reason. Each request and response is judged by the core; with `errors`, a request that
// breaks the contract is answered 400 naming its violations and is not forwarded.
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { checkExchange, type ExchangeResult } from '../core/check-exchange.js';
import { checkRequest, splitTarget, type RequestRecord, type RequestResult } from '../core/check-request.js';
import type { Contract } from '../core/compile-contract.js';
import { isJsonMediaType } from '../core/checks/check-context.js';
import { decodeBody, headerValue, mediaTypeOf, type Exchange } from '../core/exchange.js';
import type { Finding } from '../core/finding.js';
import { decodeContentEncoding } from '../runner/decode-content-encoding.js';
import { BoundedCopy } from './bounded-copy.js';

export interface ProxyOptions {
  contract: Contract;
  /** Where requests go: `http://host:port` with an optional path prefix. */
  target: string;
  port?: number;
  host?: string;
  /** Answer a request that breaks the contract 400, without forwarding it. */
  errors?: boolean;
  /** Largest body (each way) kept for checking; a larger one streams on and is reported as not checked. */
  maxBodyBytes: number;
  /** Upstream inactivity timeout, in milliseconds. */
  timeoutMs?: number;
  /** Makes text safe to send or record (the CLI's Redactor). */
  redact?: (text: string) => string;
  /** Called once per request, when its exchange is over (answered, blocked, or failed upstream). */
  onExchange?: (exchange: ProxiedExchange) => void;
}

export interface ProxiedExchange {
  method: string;
  /** Path and query as the client sent them. */
  target: string;
  startedAt: Date;
  durationMs: number;
  operationId: string | undefined;
  request: RequestRecord;
  requestResult: RequestResult;
  /** What the client was answered (the target's status, 400 when blocked, 502 on an upstream fault). */
  status: number;
  response: Exchange | undefined;
  responseResult: ExchangeResult | undefined;
  blocked: boolean;
  /** Why the target could not answer. */
  upstreamError?: string;
}

export interface Proxy {
  url: string;
  port: number;
  /** Stops accepting, closes idle connections, and waits for the exchanges in flight. */
  stop(): Promise<void>;
}

// RFC 9110 section 7.6.1: meaningful for one connection only, never forwarded.
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

export async function startProxy(options: ProxyOptions): Promise<Proxy> {
  const target = new URL(options.target);
  const client = target.protocol === 'https:' ? https : http;
  const agent = new client.Agent({ keepAlive: true, maxSockets: 256 });
  const prefix = target.pathname.replace(/\/+$/, '');
  const redact = options.redact ?? ((text: string) => text);
  const inFlight = new Set<Promise<void>>();

  const server = http.createServer((req, res) => {
    const done = handle(req, res).catch(() => {
      if (!res.headersSent) answer(res, 502, { error: 'bad gateway', reason: 'the proxy failed' });
      else res.destroy();
    });
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  });
  server.keepAliveTimeout = 5000;

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const started = performance.now();
    const startedAt = new Date();
    const method = req.method ?? 'GET';
    const requestTarget = req.url ?? '/';
    const { path, query } = splitTarget(requestTarget);
    const headers = forwardHeaders(req.headers);
    const requestCopy = new BoundedCopy(options.maxBodyBytes);
    const report = (fields: Pick<ProxiedExchange, 'status' | 'response' | 'responseResult' | 'blocked'> & { upstreamError?: string }, request: RequestRecord, requestResult: RequestResult) => {
      options.onExchange?.({ method, target: requestTarget, startedAt, durationMs: performance.now() - started, operationId: requestResult.operationId, request, requestResult, ...fields });
    };
    const requestRecord = (): RequestRecord => {
      const record: RequestRecord = { method, path, query, headers: flatHeaders(req.headers), body: '' };
      if (requestCopy.over) return { ...record, bodyTooLarge: options.maxBodyBytes };
      const { text, notUtf8 } = decodeBody(requestCopy.bytes());
      return { ...record, body: text, ...(notUtf8 ? { bodyNotUtf8: true } : {}) };
    };

    // With --errors the request is judged before it goes anywhere: its body is read up to the limit first.
    let judged: { record: RequestRecord; result: RequestResult; head: Buffer[] } | undefined;
    if (options.errors) {
      const head = await readHead(req, requestCopy);
      const record = requestRecord();
      const result = checkRequest(options.contract, record);
      if (result.findings.some((finding) => finding.severity === 'error')) {
        const body = { error: 'the request breaks the contract: not forwarded', operation: result.operationId ?? null, violations: result.findings.map(violation) };
        answer(res, 400, JSON.parse(redact(JSON.stringify(body))) as object);
        report({ status: 400, response: undefined, responseResult: undefined, blocked: true }, record, result);
        return;
      }
      judged = { record, result, head };
    } else {
      req.on('data', (chunk: Buffer) => requestCopy.add(chunk));
    }

    const upstream = client.request({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method,
      path: prefix + requestTarget,
      headers: { ...headers, host: target.host },
      agent,
      timeout: options.timeoutMs ?? 30_000,
    });
    const requestEnded = new Promise<void>((resolve) => {
      if (req.readableEnded) resolve();
      else req.once('end', resolve).once('close', resolve);
    });
    res.once('close', () => {
      // The client went away before its exchange ended: so does the upstream request.
      if (!res.writableFinished) upstream.destroy();
    });
    if (judged) {
      for (const chunk of judged.head) upstream.write(chunk);
      if (req.readableEnded) upstream.end();
      else {
        req.on('data', (chunk: Buffer) => requestCopy.add(chunk));
        req.pipe(upstream);
        req.resume();
      }
    } else {
      req.pipe(upstream);
    }

    const outcome = await new Promise<{ response: http.IncomingMessage } | { error: string }>((resolve) => {
      upstream.once('response', (response) => resolve({ response }));
      upstream.once('timeout', () => upstream.destroy(new Error(`the target did not answer within ${options.timeoutMs ?? 30_000} ms`)));
      upstream.once('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ? `${error.code} ${error.message.replace(/^\w+ /, '')}` : error.message }));
    });
    await requestEnded;
    const request = judged?.record ?? requestRecord();
    const requestResult = judged?.result ?? checkRequest(options.contract, request);
    if ('error' in outcome) {
      if (!res.headersSent) answer(res, 502, { error: 'bad gateway', reason: redact(outcome.error) });
      report({ status: 502, response: undefined, responseResult: undefined, blocked: false, upstreamError: outcome.error }, request, requestResult);
      return;
    }
    const upstreamResponse = outcome.response;
    const responseCopy = new BoundedCopy(options.maxBodyBytes);
    res.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.statusMessage, forwardHeaders(upstreamResponse.headers));
    upstreamResponse.on('data', (chunk: Buffer) => responseCopy.add(chunk));
    upstreamResponse.pipe(res);
    const ended = await new Promise<boolean>((resolve) => {
      upstreamResponse.once('end', () => resolve(true));
      upstreamResponse.once('error', () => resolve(false));
      upstreamResponse.once('aborted', () => resolve(false));
      res.once('close', () => resolve(res.writableFinished));
    });
    if (!ended) res.destroy();
    const responseHeaders = flatHeaders(upstreamResponse.headers);
    const exchange = responseExchange(method, path, upstreamResponse.statusCode ?? 0, responseHeaders, responseCopy, options.maxBodyBytes);
    const responseResult = checkExchange(options.contract, exchange);
    report({ status: exchange.status, response: exchange, responseResult, blocked: false, ...(ended ? {} : { upstreamError: 'the response was cut off' }) }, request, requestResult);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await Promise.allSettled([...inFlight]);
      server.closeAllConnections();
      await closed;
      agent.destroy();
    },
  };
}

function violation(finding: Finding): { check: string; message: string; instancePath?: string } {
  return { check: finding.check, message: finding.message, ...(finding.instancePath ? { instancePath: finding.instancePath } : {}) };
}

function answer(res: http.ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * Reads the request body into the copy until it ends or goes past the copy's limit (the rest is left unread), and
 * returns what it read, to be forwarded: at most the limit and one chunk.
 */
function readHead(req: http.IncomingMessage, copy: BoundedCopy): Promise<Buffer[]> {
  const head: Buffer[] = [];
  return new Promise((resolve) => {
    const finish = () => {
      req.off('data', onData);
      req.off('end', finish);
      req.off('close', finish);
      resolve(head);
    };
    const onData = (chunk: Buffer) => {
      head.push(chunk);
      copy.add(chunk);
      if (copy.over) {
        req.pause();
        finish();
      }
    };
    req.on('data', onData);
    req.once('end', finish);
    req.once('close', finish);
  });
}

function forwardHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const named = new Set(String(headers.connection ?? '').toLowerCase().split(',').map((name) => name.trim()).filter(Boolean));
  const forwarded: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || hopByHop.has(name) || named.has(name)) continue;
    forwarded[name] = value;
  }
  return forwarded;
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

function responseExchange(method: string, path: string, status: number, headers: Record<string, string>, copy: BoundedCopy, limit: number): Exchange {
  if (copy.over) return { method, path, status, headers, body: '', bodyTooLarge: limit };
  const decoded = decodeContentEncoding(copy.bytes(), headerValue(headers, 'content-encoding'), limit);
  if ('tooLarge' in decoded) return { method, path, status, headers, body: '', bodyTooLarge: limit };
  const { text, notUtf8 } = decodeBody(decoded.bytes);
  const exchange: Exchange = { method, path, status, headers, body: text, ...(notUtf8 ? { bodyNotUtf8: true } : {}) };
  // Parsed once here, for the checks and for whoever reads the exchange (coverage); a body that does not parse is
  // left to the checks, which say why.
  if (text !== '' && isJsonMediaType(mediaTypeOf(headerValue(headers, 'content-type')))) {
    try {
      exchange.json = JSON.parse(text);
    } catch {
      // reported by response_body_wellformed
    }
  }
  return exchange;
}
