// One request on its way through the proxy: forwarded with its body streamed (a bounded copy kept), the target's
// answer relayed as it comes, and, once both are over, handed on as a captured exchange to be judged. With
// `errors`, the request is judged first and, when it breaks the contract, answered 400 and not forwarded.
import type http from 'node:http';
import type https from 'node:https';
import { checkRequest } from '../core/check-request.js';
import type { Finding } from '../core/finding.js';
import { BoundedCopy } from './bounded-copy.js';
import { forwardHeaders } from './forward-headers.js';
import { requestRecord, type CapturedExchange } from './judge-exchange.js';
import type { ProxyOptions } from './start-proxy.js';

export interface Upstream {
  client: typeof http | typeof https;
  protocol: string;
  hostname: string;
  port: string;
  host: string;
  prefix: string;
  agent: http.Agent;
  timeoutMs: number;
}

/**
 * One request on its way through. A class, not closures: its methods are shared by every request, where named
 * closures would be made (and, under tsx, named with a defineProperty) for each one.
 */
export class ProxiedCall {
  private readonly started = performance.now();
  private readonly startedAt = Date.now();
  private readonly requestCopy: BoundedCopy;
  private upstreamRequest: http.ClientRequest | undefined;
  private response: http.IncomingMessage | undefined;
  private responseCopy: BoundedCopy | undefined;
  private judged: CapturedExchange['judged'];
  private upstreamError: string | undefined;
  private blocked = false;
  private clientGone = false;
  private status = 0;
  private requestOver = false;
  private answerOver = false;
  private settled = false;

  constructor(
    private readonly req: http.IncomingMessage,
    private readonly res: http.ServerResponse,
    private readonly upstream: Upstream,
    private readonly options: Pick<ProxyOptions, 'contract' | 'maxBodyBytes' | 'redact'>,
    private readonly settle: (captured: CapturedExchange) => void,
  ) {
    this.requestCopy = new BoundedCopy(options.maxBodyBytes);
    req.once('end', () => this.endRequest());
    req.once('close', () => this.endRequest());
    res.once('close', () => {
      // The client went away before its answer was complete: so does the upstream request.
      if (this.answerOver || res.writableFinished) return;
      this.clientGone = true;
      this.upstreamRequest?.destroy();
      this.endAnswer();
    });
  }

  /** With `errors`: reads the body up to the copy's limit, judges the request, and forwards it or answers 400. */
  judgeThenForward(): void {
    void readHead(this.req, this.requestCopy).then((head) => {
      if (this.clientGone) return;
      const record = requestRecord(
        {
          method: this.req.method ?? 'GET',
          target: this.req.url ?? '/',
          request: this.req,
          requestCopy: this.requestCopy,
        },
        this.options.maxBodyBytes,
      );
      const result = checkRequest(this.options.contract, record);
      this.judged = { record, result };
      if (!result.findings.some((finding) => finding.severity === 'error')) return this.forward(head);
      const redact = this.options.redact ?? ((text: string) => text);
      const body = {
        error: 'the request breaks the contract: not forwarded',
        operation: result.operationId ?? null,
        violations: result.findings.map(violation),
      };
      this.blocked = true;
      this.status = 400;
      answer(this.res, 400, JSON.parse(redact(JSON.stringify(body))) as object);
      // What was left unread is not wanted: the request is over for the proxy.
      this.endRequest();
      this.endAnswer();
    });
  }

  /** Sends the request on, `head` (what was read to judge it) first, then the rest of its body as it comes. */
  forward(head: Buffer[]): void {
    const { req, upstream } = this;
    const outgoing = upstream.client.request({
      protocol: upstream.protocol,
      hostname: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: upstream.prefix + (req.url ?? '/'),
      headers: forwardHeaders(req.rawHeaders, upstream.host),
      agent: upstream.agent,
    });
    this.upstreamRequest = outgoing;
    outgoing.once('response', (response) => this.relay(response));
    outgoing.once('timeout', () =>
      outgoing.destroy(new Error(`the target did not answer within ${upstream.timeoutMs} ms`)),
    );
    outgoing.on('error', (error: NodeJS.ErrnoException) => this.fail(error));
    for (const chunk of head) outgoing.write(chunk);
    if (req.readableEnded) outgoing.end();
    else {
      req.on('data', (chunk: Buffer) => this.requestCopy.add(chunk));
      req.pipe(outgoing);
      req.resume();
    }
  }

  private relay(response: http.IncomingMessage): void {
    const { res } = this;
    this.response = response;
    this.status = response.statusCode ?? 502;
    if (this.clientGone) return void response.resume();
    const copy = (this.responseCopy = new BoundedCopy(this.options.maxBodyBytes));
    res.writeHead(this.status, response.statusMessage, forwardHeaders(response.rawHeaders));
    response.on('data', (chunk: Buffer) => copy.add(chunk));
    response.pipe(res);
    // After pipe's own listener: the client has the end of the body before the exchange is queued for checking.
    response.once('end', () => this.endAnswer());
    response.once('aborted', () => this.cutOff());
    response.on('error', () => this.cutOff());
  }

  /** The target's answer stopped short: the client's is cut off too. */
  private cutOff(): void {
    if (this.answerOver) return;
    this.upstreamError = 'the response was cut off';
    this.endAnswer();
    this.res.destroy();
  }

  private fail(error: NodeJS.ErrnoException): void {
    // Once the response has begun, its own events say how it ended; once the client is gone, nobody is waiting.
    if (this.response || this.answerOver) return;
    const reason = error.code ? `${error.code} ${error.message.replace(/^\w+ /, '')}` : error.message;
    this.upstreamError = reason;
    this.status = 502;
    if (!this.res.headersSent)
      answer(this.res, 502, {
        error: 'bad gateway',
        reason: (this.options.redact ?? ((text: string) => text))(reason),
      });
    this.endAnswer();
  }

  private endRequest(): void {
    if (this.requestOver) return;
    this.requestOver = true;
    this.settleIfOver();
  }

  private endAnswer(): void {
    if (this.answerOver) return;
    this.answerOver = true;
    this.settleIfOver();
  }

  private settleIfOver(): void {
    if (!this.requestOver || !this.answerOver || this.settled) return;
    this.settled = true;
    const { req } = this;
    this.settle({
      method: req.method ?? 'GET',
      target: req.url ?? '/',
      startedAt: this.startedAt,
      durationMs: performance.now() - this.started,
      request: req,
      requestCopy: this.requestCopy,
      ...(this.judged ? { judged: this.judged } : {}),
      status: this.status,
      ...(this.response ? { response: this.response } : {}),
      ...(this.responseCopy ? { responseCopy: this.responseCopy } : {}),
      blocked: this.blocked,
      ...(this.upstreamError !== undefined ? { upstreamError: this.upstreamError } : {}),
      ...(this.clientGone ? { clientGone: true } : {}),
    });
  }
}

function violation(finding: Finding): { check: string; message: string; instancePath?: string } {
  return {
    check: finding.check,
    message: finding.message,
    ...(finding.instancePath ? { instancePath: finding.instancePath } : {}),
  };
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
