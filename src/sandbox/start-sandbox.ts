// The sandbox server. With a spec: the stateful engine of any spec (src/mock/engine/start-stateful.ts). Without one:
// one node:http server for the seed project's APIs that have a sandbox plug-in (src/plugins/*/sandbox/), routed by
// each spec's own operation index, each request's JSON body read and checked here and answered by the API's
// plug-in (sandbox-plugin.ts), which keeps that API's state and says what its spec cannot.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ApiEntry, specPath } from '../config/project.js';
import { seedProject } from '../config/seed-project.js';
import { headDeadline } from '../http/head-deadline.js';
import { listen } from '../http/listen.js';
import { loadSpec, type LoadedSpec } from '../core/load-spec.js';
import { httpMethods, indexOperations, matchOperation, type OperationSpec } from '../core/operation-index.js';
import { parseBody, readBody } from './request-body.js';
import type { SandboxRequest, SandboxResponse } from './sandbox-http.js';
import type { PluginSandbox, SandboxPluginLookup, SandboxSetup } from './sandbox-plugin.js';

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** A JSON file of `{ "<client token>": <client session>, … }` added to the demo session (client-session's). */
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
  /**
   * Without `spec`: the sandbox plug-ins of the APIs served (by default src/plugins/registry.ts's, loaded then).
   * The seed project's APIs that have one are served, in its order.
   */
  plugins?: SandboxPluginLookup;
}

export interface Sandbox {
  url: string;
  port: number;
  /** Aborts deliveries in flight and puts every API back as started (its plug-in's reset: hooks, sessions). */
  reset(): Promise<void>;
  /** Waits for deliveries in flight. */
  settle(): Promise<void>;
  /** Aborts deliveries in flight and closes the server. */
  stop(): Promise<void>;
}

export const resetPath = '/__sandbox/reset';

/** An API served without a spec: its operations and its plug-in, started. */
interface Served {
  operations: OperationSpec[];
  sandbox: PluginSandbox;
}

/**
 * The spec of a seed API: the config's when it lists the API (a variant to try), else the one the toolkit ships, so
 * the sandbox runs in a project whose config names only its own APIs.
 */
function seedSpecPath(seed: ApiEntry, apis: readonly ApiEntry[] = []): string {
  return specPath(apis.find((api) => api.name === seed.name) ?? seed);
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return options.spec === undefined ? startSeedSandbox(options) : startSpecSandbox(options, options.spec);
}

/** The seed APIs' plug-ins, started on their specs. */
async function startPlugins(options: SandboxOptions, setup: Omit<SandboxSetup, 'spec'>): Promise<Served[]> {
  // The library's default lookup is the registry's; a command hands its own (the folders test lists this edge).
  const lookup = options.plugins ?? (await import('../plugins/registry.js')).sandboxPlugins;
  const found = await Promise.all(seedProject.apis.map(async (seed) => ({ seed, plugin: await lookup(seed.name) })));
  const wanted = found.flatMap(({ seed, plugin }) => (plugin ? [{ seed, plugin }] : []));
  const specs = await Promise.all(wanted.map(({ seed }) => loadSpec(seedSpecPath(seed, options.apis))));
  const served: Served[] = [];
  // One after the other: a plug-in's bad option is the first said, in the seed project's order.
  for (const [index, { plugin }] of wanted.entries()) {
    const spec = specs[index]!;
    served.push({ operations: indexOperations(spec.document), sandbox: await plugin.start({ ...setup, spec }) });
  }
  return served;
}

/** The seed APIs, each answered by its plug-in. */
async function startSeedSandbox(options: SandboxOptions): Promise<Sandbox> {
  const inFlight = new Set<Promise<unknown>>();
  // One controller for every delivery in flight, replaced after each reset: stop and reset abort them all at once.
  let deliveries = new AbortController();
  const host = options.host ?? '127.0.0.1';
  let port = 0;
  const routes = await startPlugins(options, {
    options: options as Readonly<Record<string, unknown>>,
    abortSignal: () => deliveries.signal,
    track(work) {
      const tracked = work.catch(() => undefined).finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
    },
    listening: () => ({ host, port }),
  });
  const settle = async () => {
    while (inFlight.size > 0) await Promise.all([...inFlight]);
  };
  const reset = async () => {
    deliveries.abort();
    await settle();
    for (const route of routes) route.sandbox.reset();
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
    let found: { route: Served; match: NonNullable<ReturnType<typeof matchOperation>> } | undefined;
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
    return send(outgoing, await route.sandbox.answer(request));
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
