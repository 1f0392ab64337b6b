// The validating reverse proxy in front of a target, at the socket level (wire-connection.ts): bodies stream both
// ways (only a bounded copy is kept for checking), connections are kept alive, one target connection per client
// connection, redirects are relayed and never followed, an upstream fault is answered 502 with its reason.
// Forwarding never waits on the checks: each exchange is judged by the core once its answer has gone to the client
// (check-queue.ts). With `errors`, the request alone is judged before it goes anywhere, and one that breaks the
// contract is answered 400 naming its violations and is not forwarded.
// What a client can make the proxy hold is bounded: connections at once, the memory of the exchanges in flight
// (memory-budget.ts), the time a request head may take; and `stop` ends within a bound whatever the target does.
import net, { type AddressInfo } from 'node:net';
import type { Contract } from '../core/compile-contract.js';
import type { UserCheckSet } from '../core/user-checks/user-check-set.js';
import type { Finding } from '../core/finding.js';
import { CheckQueue, defaultCheckQueueLimits, type CheckQueueLimits } from './check-queue.js';
import { judgeExchange, type CapturedExchange, type ProxiedExchange } from './judge-exchange.js';
import { localAnswer } from './local-answer.js';
import { MemoryBudget } from './memory-budget.js';
import { WireConnection, type WireUpstream } from './wire-connection.js';

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
  /** The user's own checks (apis[].checks, --checks), run on every answer the core's checks judge. */
  userChecks?: UserCheckSet | undefined;
  /** How many exchanges may wait to be judged; past it, forwarding waits on checking. */
  checkQueue?: CheckQueueLimits;
  /** How long a client may take to send a request head, from its first byte, in milliseconds (then 408). */
  headTimeoutMs?: number;
  /** Client connections served at once; one more is answered 503 and closed. */
  maxConnections?: number;
  /**
   * Bytes the exchanges in flight may hold (heads, and bodies kept for checking; never less than one whole
   * exchange, both ways); a request past it is answered 503.
   */
  maxInFlightBytes?: number;
  /** How long `stop` waits for the exchanges in flight before it cuts them off, in milliseconds. */
  stopTimeoutMs?: number;
  /**
   * Called for each finding on an item of a streamed answer (OpenAPI 3.2 itemSchema) as the item passes, before the
   * exchange ends (one that never ends is judged too): stream-judge.ts. The exchange's report carries the first ones.
   */
  onStreamFinding?: (exchange: { method: string; target: string; status: number }, finding: Finding) => void;
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
  /**
   * Stops accepting, closes idle connections, waits for the exchanges in flight (`stopTimeoutMs` at most, then
   * cuts them off: reported, not judged), and judges every other one.
   */
  stop(): Promise<void>;
}

export const defaultLimits = {
  maxConnections: 256,
  maxInFlightBytes: 128 * 2 ** 20,
  stopTimeoutMs: 5_000,
};

/** A head at its largest (wire-connection.ts refuses more), for the least budget one whole exchange needs. */
const largestHead = 64 * 1024;
/** A connection turned away is given this long to read its 503 before it is closed. */
const turnAwayMs = 1_000;

export async function startProxy(options: ProxyOptions): Promise<Proxy> {
  const target = new URL(options.target);
  const secure = target.protocol === 'https:';
  const upstream: WireUpstream = {
    tls: secure,
    hostname: target.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(target.port || (secure ? 443 : 80)),
    host: target.host,
    prefix: target.pathname.replace(/\/+$/, ''),
    timeoutMs: options.timeoutMs ?? 30_000,
  };
  const queue = new CheckQueue<CapturedExchange>(
    (captured) => options.onExchange?.(judge(options.contract, captured, options.maxBodyBytes, options.userChecks)),
    (captured) => captured.requestCopy.kept + (captured.responseCopy?.kept ?? 0),
    options.checkQueue ?? defaultCheckQueueLimits,
  );
  let received = 0;
  const connections = new Set<WireConnection>();
  const turnedAway = new Set<net.Socket>();
  let allClosed: (() => void) | undefined;
  const onRequest = () => void received++;
  const settle = (captured: CapturedExchange) => queue.push(captured);
  const onClose = (connection: WireConnection) => {
    connections.delete(connection);
    if (connections.size === 0) allClosed?.();
  };
  const maxConnections = options.maxConnections ?? defaultLimits.maxConnections;
  const wireOptions = {
    ...options,
    budget: new MemoryBudget(
      Math.max(options.maxInFlightBytes ?? defaultLimits.maxInFlightBytes, 2 * (options.maxBodyBytes + largestHead)),
    ),
  };

  // Half-open: a client that has sent all it will send still gets its answers.
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    if (connections.size >= maxConnections) return turnAway(socket, maxConnections, turnedAway);
    connections.add(new WireConnection(socket, upstream, wireOptions, onRequest, settle, onClose));
  });

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
      for (const socket of turnedAway) socket.destroy();
      // Idle connections close now; busy ones once their exchanges are answered, or when the time is up, cut off;
      // every exchange is then judged, or reported as not judged.
      const drained =
        connections.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (allClosed = resolve));
      for (const connection of connections) connection.stop();
      const stopTimeoutMs = options.stopTimeoutMs ?? defaultLimits.stopTimeoutMs;
      const cutOff = setTimeout(() => {
        const reason = `the proxy stopped before this exchange was over (cut off ${stopTimeoutMs} ms after the stop)`;
        for (const connection of [...connections]) connection.abort(reason);
      }, stopTimeoutMs);
      await drained;
      clearTimeout(cutOff);
      await closed;
      queue.drain();
    },
  };
}

/** One connection more than the proxy serves: answered 503 at once (what it sends is read and dropped), then closed. */
function turnAway(socket: net.Socket, maxConnections: number, turnedAway: Set<net.Socket>): void {
  turnedAway.add(socket);
  socket.on('error', () => undefined);
  socket.on('close', () => turnedAway.delete(socket));
  socket.resume();
  const error = `the proxy serves at most ${maxConnections} connections at once: try again later`;
  socket.end(localAnswer(503, JSON.stringify({ error }), true));
  setTimeout(() => socket.destroy(), turnAwayMs).unref();
}

/** A check that throws is a fault of ours: the exchange is still reported, with the reason, never as passed. */
function judge(
  contract: Contract,
  captured: CapturedExchange,
  maxBodyBytes: number,
  userChecks: UserCheckSet | undefined,
): ProxiedExchange {
  try {
    return judgeExchange(contract, captured, maxBodyBytes, userChecks);
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
