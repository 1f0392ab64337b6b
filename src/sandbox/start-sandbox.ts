// The sandbox server: one node:http server implementing both APIs in memory, routed by the specs' own
// operation index and validating request bodies with the conformance suite's compiled validators.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { apis, specPath } from '../apis.js';
import { compileSpec, type SchemaError } from '../core/compile-spec.js';
import { ContractsError } from '../core/errors.js';
import { loadSpec, resolvePointer } from '../core/load-spec.js';
import { indexOperations, matchOperation, type OperationSpec } from '../core/operation-index.js';
import { retrieveClientSession } from './client-session-handler.js';
import type { SandboxRequest, SandboxResponse } from './sandbox-http.js';
import { defaultRepositories, demoClientToken, SandboxState } from './sandbox-state.js';
import { webhooksHandlers, type WebhooksDeps } from './webhooks-handlers.js';

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** A JSON file of `{ "<client token>": <client session>, … }` added to the demo session. */
  sessionsFile?: string;
  /** Repositories (`owner/name`) that exist; others answer 404. */
  repositories?: string[];
  /** Per-attempt timeout of a real delivery to a hook's config.url. */
  deliveryTimeoutMs?: number;
  /** Largest request body accepted. */
  maxBodyBytes?: number;
}

export interface Sandbox {
  url: string;
  port: number;
  /** Clears every hook and delivery and restores the seeded sessions. */
  reset(): Promise<void>;
  /** Waits for deliveries in flight. */
  settle(): Promise<void>;
  stop(): Promise<void>;
}

export const resetPath = '/__sandbox/reset';
const sessionSchema = ['paths', '/client-session', 'get', 'responses', '200', 'content', 'application/json', 'schema'];
const exampleValue = '#/paths/~1client-session/get/responses/200/content/application~1json/examples/paymentMethodUnderOrder/value';

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const [sessionSpec, webhooksSpec] = await Promise.all([loadSpec(specPath(apis['client-session'])), loadSpec(specPath(apis['repository-webhooks']))]);
  const sessionCompiled = compileSpec(sessionSpec);
  const demoSession = structuredClone(resolvePointer(sessionSpec.document, exampleValue)) as Record<string, unknown>;
  const sessions = new Map<string, Record<string, unknown>>([[demoClientToken, demoSession]]);
  if (options.sessionsFile) for (const [token, session] of await readSessions(options.sessionsFile, (value) => sessionCompiled.validateAt(sessionSchema, value))) sessions.set(token, session);
  const repositories = options.repositories ?? defaultRepositories;
  for (const name of repositories) if (!/^[^/\s]+\/[^/\s]+$/.test(name)) throw new ContractsError('USAGE', `a repository is owner/name, not "${name}"`);

  const state = new SandboxState(sessions, repositories);
  const inFlight = new Set<Promise<unknown>>();
  const deps: WebhooksDeps = {
    state,
    compiled: compileSpec(webhooksSpec),
    delivery: { timeoutMs: options.deliveryTimeoutMs ?? 10_000, maxResponseBytes: 64 * 1024 },
    track(work) {
      const tracked = work.catch(() => undefined).finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
    },
  };
  const routes: { api: 'client-session' | 'repository-webhooks'; operations: OperationSpec[] }[] = [
    { api: 'client-session', operations: indexOperations(sessionSpec.document) },
    { api: 'repository-webhooks', operations: indexOperations(webhooksSpec.document) },
  ];
  const settle = async () => {
    while (inFlight.size > 0) await Promise.all([...inFlight]);
  };
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;

  const server = http.createServer((incoming, outgoing) => {
    void handle(incoming, outgoing).catch((error: unknown) => {
      // A bug must not take the sandbox down: answer 500 and keep serving.
      send(outgoing, { status: 500, body: { message: `sandbox error: ${(error as Error).message}` } });
    });
  });

  async function handle(incoming: http.IncomingMessage, outgoing: http.ServerResponse): Promise<void> {
    const url = new URL(incoming.url ?? '/', 'http://sandbox.invalid');
    const method = incoming.method ?? 'GET';
    const raw = await readBody(incoming, maxBody);
    if (raw === undefined) return send(outgoing, { status: 413, body: { message: `request body over ${maxBody} bytes` } });
    if (method === 'POST' && url.pathname === resetPath) {
      await settle();
      state.reset();
      return send(outgoing, { status: 204 });
    }
    let body: unknown;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw);
      } catch {
        return send(outgoing, { status: 400, body: { message: 'Problems parsing JSON' } });
      }
    }
    for (const route of routes) {
      const match = matchOperation(route.operations, method, url.pathname);
      if (!match) continue;
      const request: SandboxRequest = {
        operationId: match.operation.operationId,
        pathParams: match.pathParams,
        query: url.searchParams,
        headers: incoming.headers,
        body,
        baseUrl: `http://${incoming.headers.host ?? 'localhost'}`,
      };
      const response = route.api === 'client-session' ? retrieveClientSession(state, request, demoSession) : await webhooksHandlers[match.operation.operationId]!(deps, request);
      return send(outgoing, response);
    }
    send(outgoing, { status: 404, body: { message: 'Not Found' } });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new ContractsError('PORT_IN_USE', `port ${options.port} for the sandbox is already in use: stop what holds it or choose another --port`) : error);
    });
    server.listen(options.port ?? 4020, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    async reset() {
      await settle();
      state.reset();
    },
    settle,
    async stop() {
      await settle();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
    },
  };
}

function send(outgoing: http.ServerResponse, response: SandboxResponse): void {
  if (outgoing.headersSent) return;
  const body = response.body === undefined ? '' : JSON.stringify(response.body);
  outgoing.writeHead(response.status, {
    ...(body ? { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) } : {}),
    ...response.headers,
  });
  outgoing.end(body);
}

async function readBody(incoming: http.IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function readSessions(file: string, validate: (value: unknown) => SchemaError[]): Promise<[string, Record<string, unknown>][]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ContractsError('INPUT_NOT_READABLE', code === 'ENOENT' ? `sessions file not found: ${file}` : `cannot read sessions file ${file}: ${code ?? (error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ContractsError('INPUT_NOT_READABLE', `${file} must hold an object: { "<client token>": <client session>, … }`);
  }
  return Object.entries(parsed as Record<string, unknown>).map(([token, session], index) => {
    const errors = validate(session);
    // Client tokens are credentials: the message names the entry by position, not by token.
    if (errors.length > 0) {
      // The placement rule fails as an anyOf: say it in its own words rather than as one of its branches.
      const placement = errors.some((error) => error.keyword === 'anyOf' && error.instancePath === '');
      const reason = placement ? 'paymentMethod is missing: put it at the top level, under order, or both' : errors[0]!.message;
      throw new ContractsError('INPUT_NOT_READABLE', `${file}: session #${index + 1} does not match the ClientSession schema: ${reason}`);
    }
    return [token, session as Record<string, unknown>];
  });
}
