// The validating reverse proxy: node:http in front of a target. Bodies stream both ways (only a bounded copy is
// kept for checking), connections are kept alive, redirects are relayed and never followed, an upstream fault is
// answered 502 with its reason. Forwarding never waits on the checks: each exchange is judged by the core once
// its answer has gone to the client (check-queue.ts). With `errors`, the request alone is judged before it goes
// anywhere, and one that breaks the contract is answered 400 naming its violations and is not forwarded.
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Contract } from '../core/compile-contract.js';
import type { Finding } from '../core/finding.js';
import { CheckQueue, defaultCheckQueueLimits, type CheckQueueLimits } from './check-queue.js';
import { judgeExchange, type CapturedExchange, type ProxiedExchange } from './judge-exchange.js';
import { ProxiedCall, type Upstream } from './proxied-call.js';

export type { ProxiedExchange } from './judge-exchange.js';

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
  /** How many exchanges may wait to be judged; past it, forwarding waits on checking. */
  checkQueue?: CheckQueueLimits;
  /** Called once per request, in the order exchanges ended, once judged (answered, blocked, or failed upstream). */
  onExchange?: (exchange: ProxiedExchange) => void;
}

export interface ProxyStats {
  /** Requests received. */
  received: number;
  /** Exchanges judged and reported (all of them, once `stop` has resolved). */
  judged: number;
  /** Exchanges judged while forwarding waited, the check queue being full. */
  judgedAtOnce: number;
}

export interface Proxy {
  url: string;
  port: number;
  stats(): ProxyStats;
  /** Stops accepting, closes idle connections, waits for the exchanges in flight, and judges every one. */
  stop(): Promise<void>;
}

export async function startProxy(options: ProxyOptions): Promise<Proxy> {
  const target = new URL(options.target);
  const client = target.protocol === 'https:' ? https : http;
  const upstream: Upstream = {
    client,
    protocol: target.protocol,
    hostname: target.hostname,
    port: target.port,
    host: target.host,
    prefix: target.pathname.replace(/\/+$/, ''),
    // The inactivity timeout is the agent's, set once per socket, not once per request.
    agent: new client.Agent({ keepAlive: true, maxSockets: 256, timeout: options.timeoutMs ?? 30_000 }),
    timeoutMs: options.timeoutMs ?? 30_000,
  };
  const queue = new CheckQueue<CapturedExchange>(
    (captured) => options.onExchange?.(judge(options.contract, captured, options.maxBodyBytes)),
    (captured) => captured.requestCopy.kept + (captured.responseCopy?.kept ?? 0),
    options.checkQueue ?? defaultCheckQueueLimits,
  );
  let received = 0;
  let inFlight = 0;
  let idle: (() => void) | undefined;
  const untilIdle = () => (inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => (idle = resolve)));
  const settle = (captured: CapturedExchange) => {
    queue.push(captured);
    if (--inFlight === 0) idle?.();
  };

  const server = http.createServer((req, res) => {
    received++;
    inFlight++;
    const call = new ProxiedCall(req, res, upstream, options, settle);
    if (options.errors) call.judgeThenForward();
    else call.forward([]);
  });
  server.keepAliveTimeout = 5000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    stats: () => ({ received, judged: queue.judged, judgedAtOnce: queue.judgedAtOnce }),
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await untilIdle();
      server.closeAllConnections();
      await closed;
      // A request that came in on a kept-alive connection meanwhile was cut off with it: it is judged too.
      await untilIdle();
      queue.drain();
      upstream.agent.destroy();
    },
  };
}

/** A check that throws is a fault of ours: the exchange is still reported, with the reason, never as passed. */
function judge(contract: Contract, captured: CapturedExchange, maxBodyBytes: number): ProxiedExchange {
  try {
    return judgeExchange(contract, captured, maxBodyBytes);
  } catch (error) {
    const finding: Finding = {
      check: 'operation_matching',
      severity: 'error',
      operation: `${captured.method} ${captured.target}`,
      instancePath: '',
      message: `could not check this exchange: ${(error as Error).message}`,
    };
    const request = { method: captured.method, path: captured.target, query: '', headers: {}, body: '' };
    return {
      method: captured.method,
      target: captured.target,
      startedAt: new Date(captured.startedAt),
      durationMs: captured.durationMs,
      operationId: undefined,
      request,
      requestResult: { operationId: undefined, applied: [], findings: [finding] },
      status: captured.status,
      response: undefined,
      responseResult: undefined,
      blocked: captured.blocked,
    };
  }
}
