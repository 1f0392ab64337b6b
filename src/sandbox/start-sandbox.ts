// The sandbox server: one node:http server implementing both APIs in memory, routed by the specs' own
// operation index and validating request bodies with the conformance suite's compiled validators.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { packageRoot } from '../config/package-root.js';
import { type ApiEntry, type ApiName, specPath } from '../config/project.js';
import { compileSpec, type SchemaError } from '../core/compile-spec.js';
import { requestSpec, responseSpec } from '../core/read-write-views.js';
import { ContractsError } from '../core/errors.js';
import { headDeadline } from '../http/head-deadline.js';
import { listen } from '../http/listen.js';
import { loadSpec, resolvePointer, type LoadedSpec } from '../core/load-spec.js';
import { httpMethods, indexOperations, matchOperation, type OperationSpec } from '../core/operation-index.js';
import { retrieveClientSession } from '../plugins/client-session/sandbox-handler.js';
import { parseBody, readBody } from './request-body.js';
import type { SandboxRequest, SandboxResponse } from './sandbox-http.js';
import {
  defaultMaxDeliveries,
  defaultMaxDeliveryBytes,
  defaultRepositories,
  demoClientToken,
  SandboxState,
} from './sandbox-state.js';
import { webhooksHandlers, type WebhooksDeps } from '../plugins/repository-webhooks/sandbox/webhooks-handlers.js';

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
  /** Deliveries kept per hook, newest first (default 1,000); older ones are dropped. */
  maxDeliveries?: number;
  /**
   * Memory every hook's deliveries together may hold (default 64 MB, estimated as the receiver does); past it the
   * oldest deliveries, of any hook, are dropped: no longer listed, and fetching one answers 422.
   */
  maxDeliveryBytes?: number;
  /** How long a request's head may take from its first byte (default 10 s); then 408, and closed. */
  headTimeoutMs?: number;
  /**
   * The project's APIs (a command's io.project.apis): a seed API among them is served from its spec there (a
   * variant to try); by default, and for a seed API they do not list, the spec the toolkit ships.
   */
  apis?: readonly ApiEntry[];
  /**
   * Serve this OpenAPI file (or loaded spec) statefully instead, with the engine of any spec
   * (src/mock/engine/start-stateful.ts); then only port, host, headTimeoutMs, data and admin apply.
   */
  spec?: string | LoadedSpec;
  /** With `spec`: seed items per collection, `{ "<collection>": [item, …] }` (JSON or YAML). */
  data?: string;
  /** With `spec`: the admin surface under /__contracts/ (reset, state); default true. */
  admin?: boolean;
  /** With `spec`: the user's hooks by operationId, or the path of a .ts/.js module exporting them (load-hooks.ts). */
  hooks?: string | import('../mock/engine/sandbox-hooks.js').SandboxHooks;
}

export interface Sandbox {
  url: string;
  port: number;
  /** Aborts deliveries in flight, clears every hook and delivery and restores the seeded sessions. */
  reset(): Promise<void>;
  /** Waits for deliveries in flight. */
  settle(): Promise<void>;
  /** Aborts deliveries in flight and closes the server. */
  stop(): Promise<void>;
}

export const resetPath = '/__sandbox/reset';
const sessionSchema = ['paths', '/client-session', 'get', 'responses', '200', 'content', 'application/json', 'schema'];
const exampleValue =
  '#/paths/~1client-session/get/responses/200/content/application~1json/examples/paymentMethodUnderOrder/value';

/**
 * The sandbox implements the seed APIs: their spec from the config when it lists them (a variant to try), else the
 * one the toolkit ships, so the sandbox runs in a project whose config names only its own APIs.
 */
function seedSpecPath(name: ApiName, apis: readonly ApiEntry[] = []): string {
  const entry = apis.find((api) => api.name === name);
  return entry ? specPath(entry) : path.join(packageRoot, 'specs', `${name}.yaml`);
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return options.spec === undefined ? startSeedSandbox(options) : startSpecSandbox(options, options.spec);
}

/** Both example APIs, by hand-written handlers. */
async function startSeedSandbox(options: SandboxOptions): Promise<Sandbox> {
  const { sessionSpec, webhooksSpec, demoSession, sessions, repositories, bounds } = await sandboxSetup(options);
  const state = new SandboxState(sessions, repositories, bounds);
  const inFlight = new Set<Promise<unknown>>();
  // One controller for every delivery in flight, replaced after each reset: stop and reset abort them all at once.
  let deliveries = new AbortController();
  const host = options.host ?? '127.0.0.1';
  let port = 0;
  const deps: WebhooksDeps = {
    state,
    // It judges request bodies: a required readOnly property is not required of them (read-write-views.ts).
    compiled: compileSpec(requestSpec(webhooksSpec)),
    delivery: {
      timeoutMs: options.deliveryTimeoutMs ?? 10_000,
      maxResponseBytes: 64 * 1024,
      abortSignal: () => deliveries.signal,
    },
    track(work) {
      const tracked = work.catch(() => undefined).finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
    },
    listening: () => ({ host, port }),
  };
  const routes: { api: 'client-session' | 'repository-webhooks'; operations: OperationSpec[] }[] = [
    { api: 'client-session', operations: indexOperations(sessionSpec.document) },
    { api: 'repository-webhooks', operations: indexOperations(webhooksSpec.document) },
  ];
  const settle = async () => {
    while (inFlight.size > 0) await Promise.all([...inFlight]);
  };
  const reset = async () => {
    deliveries.abort();
    await settle();
    state.reset();
    deliveries = new AbortController();
  };
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;

  const server = http.createServer(headDeadline(options.headTimeoutMs ?? 10_000, 300_000), (incoming, outgoing) => {
    void handle(incoming, outgoing).catch((error: unknown) => {
      // A bug must not take the sandbox down: answer 500 and keep serving.
      send(outgoing, { status: 500, body: { message: `sandbox error: ${(error as Error).message}` } });
    });
  });

  async function handle(incoming: http.IncomingMessage, outgoing: http.ServerResponse): Promise<void> {
    const url = new URL(incoming.url ?? '/', 'http://sandbox.invalid');
    const method = incoming.method ?? 'GET';
    const raw = await readBody(incoming, maxBody);
    if (raw === undefined) {
      // The unread rest of the body would be parsed as the next request; closing also lets stop() finish.
      outgoing.shouldKeepAlive = false;
      outgoing.once('finish', () => incoming.socket.destroySoon());
      return send(outgoing, {
        status: 413,
        body: { message: `request body over ${maxBody} bytes` },
        headers: { connection: 'close' },
      });
    }
    // Matched once; the methods allowed on the path (eight more matches) are worked out only for a 404 or 405.
    let found: { route: (typeof routes)[number]; match: NonNullable<ReturnType<typeof matchOperation>> } | undefined;
    for (const route of routes) {
      const match = url.pathname === resetPath ? undefined : matchOperation(route.operations, method, url.pathname);
      if (match) {
        found = { route, match };
        break;
      }
    }
    if (!found && !(url.pathname === resetPath && method === 'POST')) {
      const allowed = allowedMethods(routes, url.pathname);
      if (allowed.length === 0) return send(outgoing, { status: 404, body: { message: 'Not Found' } });
      return send(outgoing, {
        status: 405,
        body: { message: `${method} is not allowed here; allowed: ${allowed.join(', ')}` },
        headers: { allow: allowed.join(', ') },
      });
    }
    if (url.pathname === resetPath) {
      await reset();
      return send(outgoing, { status: 204 });
    }
    const parsed = parseBody(raw);
    if ('refused' in parsed) return send(outgoing, parsed.refused);
    const { route, match } = found!;
    const request: SandboxRequest = {
      operationId: match.operation.operationId,
      pathParams: match.pathParams,
      query: url.searchParams,
      headers: incoming.headers,
      body: parsed.body,
      baseUrl: `http://${incoming.headers.host ?? 'localhost'}`,
    };
    const response =
      route.api === 'client-session'
        ? retrieveClientSession(state, request, demoSession)
        : await webhooksHandlers[match.operation.operationId]!(deps, request);
    return send(outgoing, response);
  }

  const requested = options.port ?? 4020;
  const busy = `port ${requested} for the sandbox is already in use: stop what holds it or choose another --port`;
  await listen(server, host, requested, busy);
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    reset,
    settle,
    async stop() {
      deliveries.abort();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // A client holding a request open (a slow body) must not keep the sandbox from stopping.
      const cut = setTimeout(() => server.closeAllConnections(), 2000).unref();
      await settle();
      await closed;
      clearTimeout(cut);
    },
  };
}

async function startSpecSandbox(options: SandboxOptions, spec: string | LoadedSpec): Promise<Sandbox> {
  const { startStateful } = await import('../mock/engine/start-stateful.js');
  const loadedSpec = typeof spec === 'string' ? await loadSpec(spec) : spec;
  const { specHooks } = await import('../mock/engine/spec-hooks.js');
  const hooks = options.hooks === undefined ? undefined : await specHooks(options.hooks, loadedSpec);
  return startStateful({
    spec: loadedSpec,
    ...(hooks ? { hooks } : {}),
    ...(options.host === undefined ? {} : { host: options.host }),
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.headTimeoutMs === undefined ? {} : { headTimeoutMs: options.headTimeoutMs }),
    ...(options.data === undefined ? {} : { dataFile: options.data }),
    ...(options.admin === undefined ? {} : { admin: options.admin }),
  });
}

/** The specs, the sessions (the demo one and --sessions), the repositories and the bound on deliveries, checked. */
async function sandboxSetup(options: SandboxOptions) {
  const [sessionSpec, webhooksSpec] = await Promise.all([
    loadSpec(seedSpecPath('client-session', options.apis)),
    loadSpec(seedSpecPath('repository-webhooks', options.apis)),
  ]);
  // Sessions are what the sandbox answers with: judged as responses (read-write-views.ts).
  const sessionCompiled = compileSpec(responseSpec(sessionSpec));
  const demoSession = structuredClone(resolvePointer(sessionSpec.document, exampleValue)) as Record<string, unknown>;
  const sessions = new Map<string, Record<string, unknown>>([[demoClientToken, demoSession]]);
  if (options.sessionsFile)
    for (const [token, session] of await readSessions(options.sessionsFile, (value) =>
      sessionCompiled.validateAt(sessionSchema, value),
    ))
      sessions.set(token, session);
  const repositories = options.repositories ?? defaultRepositories;
  for (const name of repositories)
    if (!/^[^/\s]+\/[^/\s]+$/.test(name))
      throw new ContractsError('USAGE', `a repository is owner/name, not "${name}"`);

  const maxDeliveries = options.maxDeliveries ?? defaultMaxDeliveries;
  if (!Number.isSafeInteger(maxDeliveries) || maxDeliveries < 1)
    throw new ContractsError(
      'USAGE',
      `the deliveries kept per hook must be a whole number of at least 1, not ${maxDeliveries}`,
    );
  const maxDeliveryBytes = options.maxDeliveryBytes ?? defaultMaxDeliveryBytes;
  if (!(maxDeliveryBytes > 0))
    throw new ContractsError('USAGE', `the memory for deliveries must be more than 0 bytes, not ${maxDeliveryBytes}`);
  const bounds = { maxDeliveries, maxDeliveryBytes };
  return { sessionSpec, webhooksSpec, demoSession, sessions, repositories, bounds };
}

/** The methods some operation takes at a path: for a 405's Allow. */
function allowedMethods(routes: readonly { operations: OperationSpec[] }[], pathname: string): string[] {
  if (pathname === resetPath) return ['POST'];
  return httpMethods
    .map((method) => method.toUpperCase())
    .filter((method) => routes.some((route) => matchOperation(route.operations, method, pathname)));
}

/** Serializes the body first and applies the handler's commit only then, so a failed answer changes nothing. */
function send(outgoing: http.ServerResponse, response: SandboxResponse): void {
  if (outgoing.headersSent) return;
  // Encoded once, here: a string body would be measured and then encoded again on the socket.
  const body = response.json ?? (response.body === undefined ? undefined : Buffer.from(JSON.stringify(response.body)));
  response.commit?.();
  outgoing.writeHead(response.status, {
    ...(body?.length
      ? { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) }
      : {}),
    ...response.headers,
  });
  outgoing.end(body?.length ? body : undefined);
}

async function readSessions(
  file: string,
  validate: (value: unknown) => SchemaError[],
): Promise<[string, Record<string, unknown>][]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ContractsError(
      'INPUT_NOT_READABLE',
      code === 'ENOENT'
        ? `sessions file not found: ${file}`
        : `cannot read sessions file ${file}: ${code ?? (error as Error).message}`,
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ContractsError(
      'INPUT_NOT_READABLE',
      `${file} must hold an object: { "<client token>": <client session>, … }`,
    );
  }
  return Object.entries(parsed as Record<string, unknown>).map(([token, session], index) => {
    const errors = validate(session);
    // Client tokens are credentials: the message names the entry by position, not by token.
    if (errors.length > 0) {
      // The placement rule fails as an anyOf: say it in its own words rather than as one of its branches.
      const placement = errors.some((error) => error.keyword === 'anyOf' && error.instancePath === '');
      const reason = placement
        ? 'paymentMethod is missing: put it at the top level, under order, or both'
        : errors[0]!.message;
      throw new ContractsError(
        'INPUT_NOT_READABLE',
        `${file}: session #${index + 1} does not match the ClientSession schema: ${reason}`,
      );
    }
    return [token, session as Record<string, unknown>];
  });
}
