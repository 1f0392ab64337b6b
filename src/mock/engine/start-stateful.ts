// The stateful engine as an HTTP server: `contracts sandbox --spec FILE` / `--api NAME` and the library's
// startSandbox({ spec }). Transport only: each request read (bounded), answered by the admin surface (admin.ts) or
// the stateful engine (stateful-answer.ts), then delayed by --latency and, now and then, made a fault (--faults): the
// operation's documented 5xx (its body made and judged as any answer) or, where none is documented, a dropped
// connection, which is what a client meets when a server fails without a word. With the user's hooks
// (answer-hooked.ts) the engine's answer goes through them; `observe` is told of each exchange once answered.
import http from 'node:http';
import { splitTarget } from '../../core/check-request.js';
import { decodeBody } from '../../core/exchange.js';
import type { LoadedSpec } from '../../core/load-spec.js';
import { flatHeaders } from '../../http/flat-headers.js';
import { headDeadline } from '../../http/head-deadline.js';
import { listen } from '../../http/listen.js';
import { answerAdmin } from './admin.js';
import { answerHooked, type HookRunner } from './answer-hooked.js';
import { engineAnswer } from './dynamic-answer.js';
import { answerRequest } from './answer-request.js';
import { problem, unable, type EngineAnswer } from './engine-answer.js';
import { route } from './route.js';
import { exampleSeeds, fileSeeds, plant, type Seed } from './seed-data.js';
import type { answerStateful } from './stateful-answer.js';
import { statefulEngine, type Stateful } from './stateful-engine.js';
import type { SandboxHooks } from './sandbox-hooks.js';
import type { StoreBounds } from './store.js';

export interface StatefulServerOptions {
  spec: LoadedSpec;
  host?: string;
  port?: number;
  /** The admin surface under /__contracts/ (default on). */
  admin?: boolean;
  /** `--data FILE`: seed items per collection (JSON or YAML). */
  dataFile?: string;
  bounds?: StoreBounds;
  /** Added before every answer. */
  latencyMs?: number;
  /** The share of requests (0 to 1) answered with a fault. */
  faults?: number;
  /** Where the one-time notes go (the store's first eviction). */
  warn?: (line: string) => void;
  /** Largest request body read (default 32 MB). */
  maxBodyBytes?: number;
  headTimeoutMs?: number;
  /** The user's hooks by operationId (sandbox-hooks.ts), and how messages name their module. */
  hooks?: { hooks: SandboxHooks; source: string };
  /** Told of every exchange once answered (`--strict`'s tally, `--record`'s HAR): served-exchange.ts. */
  observe?: (exchange: ServedExchange) => void;
}

/** One exchange as served: the request as read, the answer as sent ('drop': the connection was closed). */
export interface ServedExchange {
  /** `admin`: answered by the admin surface (admin.ts), not the spec's engine. */
  request: { method: string; target: string; headers: Record<string, string>; body: string; admin?: boolean };
  answer: EngineAnswer | 'drop';
  startedAt: Date;
  durationMs: number;
}

export interface StatefulServer {
  url: string;
  port: number;
  stateful: Stateful;
  reset(): Promise<void>;
  settle(): Promise<void>;
  stop(): Promise<void>;
}

export async function startStateful(options: StatefulServerOptions): Promise<StatefulServer> {
  const stateful = statefulEngine(options.spec, {
    ...(options.bounds ? { bounds: options.bounds } : {}),
    onEvict: options.warn ?? ((line) => process.stderr.write(`${line}\n`)),
  });
  const seeds: Seed[] = [
    ...exampleSeeds(stateful),
    ...(options.dataFile ? await fileSeeds(stateful, options.dataFile) : []),
  ];
  plant(stateful, seeds);
  const maxBody = options.maxBodyBytes ?? 32 * 1024 * 1024;
  const warn = options.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
  const runner: HookRunner | undefined = options.hooks && { ...options.hooks, warn, said: new Set() };
  const server = http.createServer(headDeadline(options.headTimeoutMs ?? 10_000, 300_000), (request, response) => {
    const startedAt = new Date();
    const read: ServedExchange['request'] = {
      method: request.method ?? 'GET',
      target: request.url ?? '/',
      headers: {},
      body: '',
    };
    answer(stateful, seeds, options, request, maxBody, runner, read)
      .then((answered) => {
        options.observe?.({ request: read, answer: answered, startedAt, durationMs: Date.now() - startedAt.getTime() });
        deliver(response, request, answered, options);
      })
      .catch((error: unknown) => sendAnswer(response, false, unable(`internal error: ${(error as Error).message}`)));
  });
  server.keepAliveTimeout = 4000;
  const host = options.host ?? '127.0.0.1';
  const requested = options.port ?? 4020;
  await listen(
    server,
    host,
    requested,
    `port ${requested} for the sandbox is already in use: stop what holds it or choose another --port`,
  );
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : requested;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    stateful,
    reset: async () => plant(stateful, seeds),
    settle: async () => undefined,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The answer, or 'drop' for a fault that closes the connection without one. */
async function answer(
  stateful: Stateful,
  seeds: readonly Seed[],
  options: StatefulServerOptions,
  request: http.IncomingMessage,
  maxBody: number,
  runner: HookRunner | undefined,
  read: ServedExchange['request'],
): Promise<EngineAnswer | 'drop'> {
  const bytes = await readBody(request, maxBody);
  if (bytes === undefined) return problem(413, 'Content Too Large', `request body over ${maxBody} bytes`);
  const { text, notUtf8 } = decodeBody(bytes);
  const { path, query } = splitTarget(request.url ?? '/');
  const method = request.method ?? 'GET';
  if (options.admin !== false) {
    const admin = answerAdmin(stateful, seeds, method, path);
    if (admin) {
      read.admin = true;
      return admin;
    }
  }
  const headers = flatHeaders(request.headers);
  const record = { method, path, query, headers, body: text, ...(notUtf8 ? { bodyNotUtf8: true } : {}) };
  Object.assign(read, { headers, body: text });
  if (options.faults && Math.random() < options.faults) return fault(stateful, record);
  return runner ? answerHooked(stateful, runner, record) : engineAnswer(stateful, record);
}

/**
 * The request's body, or undefined past `maxBody` bytes. By events, not `for await`: the async iterator costs a
 * promise chain per request even for a body-less GET, a tenth of the sandbox's time per request under load.
 */
function readBody(request: http.IncomingMessage, maxBody: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBody) chunks.push(chunk);
      else {
        request.off('data', onData);
        request.resume();
        resolve(undefined);
      }
    };
    request.on('data', onData);
    request.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    request.once('error', reject);
  });
}

/** A documented 5xx of the operation (the lowest), as the stateless engine makes it; else a dropped connection. */
function fault(stateful: Stateful, record: Parameters<typeof answerStateful>[1]): EngineAnswer | 'drop' {
  const { engine } = stateful;
  const routed = route(engine.contract.operations, engine.bases, record.method, record.path);
  if (routed.kind !== 'operation') return 'drop';
  const status = routed.match.operation.responses
    .map((response) => response.status)
    .filter((code) => /^5\d\d$/.test(code))
    .sort()[0];
  if (status === undefined) return 'drop';
  return answerRequest(engine, { ...record, headers: { ...record.headers, prefer: `code=${status}` } });
}

function deliver(
  response: http.ServerResponse,
  request: http.IncomingMessage,
  answered: EngineAnswer | 'drop',
  options: StatefulServerOptions,
): void {
  const go = () =>
    answered === 'drop' ? request.socket.destroy() : sendAnswer(response, request.method === 'HEAD', answered);
  if (options.latencyMs) setTimeout(go, options.latencyMs);
  else go();
}

/** An engine's answer on the wire (the sandbox of the example APIs sends its answers with this too). */
export function sendAnswer(response: http.ServerResponse, head: boolean, answer: EngineAnswer): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  // A string body, not a Buffer: node:http then sends the head and the body as one string in one write, where a
  // Buffer makes it gather the two (writev), the costliest call of the sandbox's profile.
  response.writeHead(answer.status, { ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body)) });
  response.end(head ? undefined : answer.body);
}
