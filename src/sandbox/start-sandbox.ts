// The sandbox server. With a spec: the stateful engine of any spec (src/mock/engine/start-stateful.ts). Without one:
// one node:http server for the seed project's APIs that have a sandbox plug-in (src/plugins/*/sandbox/): each API
// is the same stateful engine on its spec (its store, request checks and judged answers), with the plug-in's hooks
// around it (sandbox-plugin.ts, as a user's hooks module is: src/mock/engine/answer-hooked.ts) saying what the spec
// cannot. Requests are routed here once among the APIs by each spec's own operation index; a body that is not JSON
// is refused here, as the example APIs take JSON only.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ApiEntry, specPath } from '../config/project.js';
import { ContractsError } from '../core/errors.js';
import { seedProject } from '../config/seed-project.js';
import { flatHeaders } from '../http/flat-headers.js';
import { headDeadline } from '../http/head-deadline.js';
import { listen } from '../http/listen.js';
import { loadSpec, type LoadedSpec } from '../core/load-spec.js';
import { answerHooked, type HookRunner } from '../mock/engine/answer-hooked.js';
import type { EngineAnswer } from '../mock/engine/engine-answer.js';
import { adminPrefix } from '../mock/engine/admin.js';
import { hookStore } from '../mock/engine/hook-store.js';
import { plant } from '../mock/engine/seed-data.js';
import { sendAnswer } from '../mock/engine/start-stateful.js';
import { statefulEngine, type Stateful } from '../mock/engine/stateful-engine.js';
import { parseBody, readBody } from './request-body.js';
import type { SandboxResponse } from './sandbox-http.js';
import { judgeAnswer, pluginJudge, routeAmong } from './sandbox-judge.js';
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
   * Without `spec`: the sandbox plug-ins of the APIs served (src/plugins/example-sandbox.ts hands the registry's).
   * The seed project's APIs that have one are served, in its order; without any, there is nothing to serve.
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
/** The reset path of the engine's admin surface (admin.ts), answered alike here. */
const adminResetPath = `${adminPrefix}reset`;

/** An API served without a spec: the engine on its spec, and its plug-in's hooks around it. */
interface Served {
  /** The engine's compiled spec and base paths, which route and judge its requests. */
  api: Stateful['engine'];
  stateful: Stateful;
  runner: HookRunner;
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
async function startPlugins(
  options: SandboxOptions,
  setup: Omit<SandboxSetup, 'spec' | 'store' | 'resourceOf'>,
): Promise<Served[]> {
  const lookup: SandboxPluginLookup = options.plugins ?? (async () => undefined);
  const found = await Promise.all(seedProject.apis.map(async (seed) => ({ seed, plugin: await lookup(seed.name) })));
  const wanted = found.flatMap(({ seed, plugin }) => (plugin ? [{ seed, plugin }] : []));
  if (wanted.length === 0)
    throw new ContractsError('USAGE', 'the sandbox has no API to serve: give it a spec, or the plug-ins to serve');
  const specs = await Promise.all(wanted.map(({ seed }) => loadSpec(seedSpecPath(seed, options.apis))));
  const served: Served[] = [];
  // One after the other: a plug-in's bad option is the first said, in the seed project's order.
  for (const [index, { seed, plugin }] of wanted.entries()) {
    const spec = specs[index]!;
    const stateful = statefulEngine(spec, { onEvict: warn });
    const sandbox = await plugin.start({
      ...setup,
      spec,
      store: hookStore(stateful, {}, { shared: true }),
      resourceOf: (operationId) => stateful.operations.get(operationId)?.resource.resource.name,
    });
    const runner: HookRunner = {
      hooks: sandbox.hooks,
      source: `the ${seed.name} plug-in`,
      warn,
      said: new Set(),
      judge: pluginJudge,
    };
    served.push({ api: stateful.engine, stateful, runner, sandbox });
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
    for (const route of routes) {
      plant(route.stateful, []);
      route.sandbox.reset();
    }
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
    if (url.pathname === resetPath || url.pathname === adminResetPath) {
      if (method !== 'POST') return send(outgoing, notAllowed(method, ['POST']));
      await reset();
      return send(outgoing, { status: 204 });
    }
    // Routed once, by the engine's router; the methods a path allows are gathered on the way for a 405.
    const found = routeAmong(routes, method, url.pathname);
    if ('allow' in found) {
      if (found.allow.length === 0) return send(outgoing, { status: 404, body: { message: 'Not Found' } });
      return send(outgoing, notAllowed(method, found.allow));
    }
    const { served, routed } = found;
    const parsed = parseBody(raw);
    if ('refused' in parsed) return send(outgoing, parsed.refused, (answer) => judgeAnswer(served.api, routed, answer));
    const headers = flatHeaders(incoming.headers);
    // The example APIs take JSON only, and a body that is not JSON was refused above: one sent without a JSON
    // Content-Type (curl -d says form) is read as the JSON it is, as these sandboxes always read it.
    if (parsed.body !== undefined && !/json/i.test(headers['content-type'] ?? ''))
      headers['content-type'] = 'application/json';
    const record = { method, path: url.pathname, query: url.search.slice(1), headers, body: raw.toString('utf8') };
    const route = { kind: 'operation' as const, ...routed };
    sendAnswer(outgoing, method === 'HEAD', await answerHooked(served.stateful, served.runner, record, route));
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

const warn = (line: string) => process.stderr.write(`${line}\n`);

const notAllowed = (method: string, allowed: readonly string[]): SandboxResponse => ({
  status: 405,
  body: { message: `${method} is not allowed here; allowed: ${allowed.join(', ')}` },
  headers: { allow: allowed.join(', ') },
});

/** The answer as it goes out: the body serialized and encoded once (a string body would be measured, then encoded). */
function encoded(response: SandboxResponse): { answer: EngineAnswer; bytes: Buffer | undefined } {
  const bytes = response.body === undefined ? undefined : Buffer.from(JSON.stringify(response.body));
  const json = bytes !== undefined && bytes.length > 0;
  const answer = {
    status: response.status,
    headers: { ...(json ? { 'content-type': 'application/json; charset=utf-8' } : {}), ...response.headers },
    body: json ? bytes.toString('utf8') : '',
  };
  return { answer, bytes: json ? bytes : undefined };
}

/**
 * Sends the answer as `judge` (the spec's checks, sandbox-judge.ts) lets it out, and applies the handler's commit
 * only when it is the answer sent: an answer that fails, in encoding or in judgement, changes nothing.
 */
function send(
  outgoing: http.ServerResponse,
  response: SandboxResponse,
  judge?: (answer: EngineAnswer) => EngineAnswer,
): void {
  if (outgoing.headersSent) return;
  const { answer, bytes } = encoded(response);
  const out = judge ? judge(answer) : answer;
  if (out === answer) response.commit?.();
  const body = out === answer ? bytes : Buffer.from(out.body);
  outgoing.writeHead(out.status, {
    ...out.headers,
    ...(body?.length ? { 'content-length': String(body.length) } : {}),
  });
  outgoing.end(body?.length ? body : undefined);
}
