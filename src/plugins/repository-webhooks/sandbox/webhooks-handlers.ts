// The 12 repository-webhooks operations in the sandbox, as the engine's hooks (sandbox-hooks.ts): the seed's rules
// the spec cannot say. A webhook is kept in the engine's store: a create is the engine's (it draws the id and stores
// the hook), and so are a read and a delete, with hooks around them (unknown repositories 404, the seed's defaults
// and the shared-config rule before a create, the secret kept apart and the url fields added after). The rest answer
// from the seed's rules alone: updates (events semantics, seed rule 3's secret), the config's masked secret, and
// deliveries, which are real, signed, and kept by the plug-in (deliver.ts, webhooks-state.ts).
import type { CompiledSpec } from '../../../core/compile-spec.js';
import type { OperationHooks, SandboxHooks } from '../../../mock/engine/sandbox-hooks.js';
import { answeredBy, hookAnswer, sandboxRequest } from '../../../sandbox/plugin-answer.js';
import { deliver, incomingDeliveryDepth, type DeliveryOptions } from './deliver.js';
import { configUrlProblem, type ListenAddress } from './hook-url.js';
import {
  notFound,
  validationFailed,
  type SandboxRequest,
  type SandboxResponse,
} from '../../../sandbox/sandbox-http.js';
import type { Repository, WebhooksState, StoredDelivery, StoredHook } from './webhooks-state.js';

export interface WebhooksDeps {
  state: WebhooksState;
  compiled: CompiledSpec;
  delivery: DeliveryOptions;
  /** Deliveries run in the background; the server awaits them on stop and reset. */
  track(work: Promise<unknown>): void;
  /** Where the sandbox listens, so a hook cannot be pointed at it. */
  listening(): ListenAddress;
}

type Handler = (deps: WebhooksDeps, request: SandboxRequest) => SandboxResponse | Promise<SandboxResponse>;

const defaultPerPage = 30;
const masked = '********';

const bodySchema = (path: string, method: string) => [
  'paths',
  path,
  method,
  'requestBody',
  'content',
  'application/json',
  'schema',
];

/** The operations answered from the seed's rules alone, by operationId. */
const webhooksHandlers: Record<string, Handler> = {
  getWebhookConfig: (deps, request) =>
    withHook(deps, request, (hook) => ({ status: 200, body: configBody(hook.config) })),

  updateWebhookConfig: (deps, request) =>
    withHook(deps, request, (hook) => {
      const invalid = validate(deps, bodySchema('/repos/{owner}/{repo}/hooks/{hook_id}/config', 'patch'), request.body);
      if (invalid) return invalid;
      const config = { ...hook.config, ...(request.body as Record<string, unknown>) };
      const badUrl = urlProblem(deps, config, '/url');
      if (badUrl) return badUrl;
      return {
        status: 200,
        body: configBody(config),
        commit: () => deps.state.changeHook(hook, { config, updatedAt: now() }),
      };
    }),

  listWebhookDeliveries: (deps, request) =>
    withHook(deps, request, (hook) => {
      const perPage = pageSize(request);
      if (typeof perPage !== 'number') return perPage;
      const own = deps.state.deliveriesOf(hook);
      const cursor = request.query.get('cursor');
      const start = cursor === null ? 0 : own.findIndex((delivery) => String(delivery.id) === cursor);
      if (start < 0)
        return validationFailed(`cursor ${cursor} names no delivery of this hook`, [
          { field: 'cursor', message: 'unknown cursor' },
        ]);
      const page = own.slice(start, start + perPage);
      const next = own[start + perPage];
      const headers: Record<string, string> = next
        ? { link: `<${request.baseUrl}${hookPath(hook)}/deliveries?per_page=${perPage}&cursor=${next.id}>; rel="next"` }
        : {};
      return { status: 200, body: page.map(deliveryItem), headers };
    }),

  getWebhookDelivery: (deps, request) =>
    withDelivery(deps, request, (_hook, delivery) => ({
      status: 200,
      body: { ...deliveryItem(delivery), url: delivery.url, request: delivery.request, response: delivery.response },
    })),

  redeliverWebhookDelivery: (deps, request) =>
    withDelivery(deps, request, (hook, delivery, repository) => {
      const send = () =>
        deps.track(
          deliver(deps.state, hook, repository, delivery.event, delivery.request.payload, deps.delivery, {
            redelivery: true,
            depth: depthOf(request),
          }),
        );
      return { status: 202, ...(hook.active ? { commit: send } : {}) };
    }),

  listWebhooks: (deps, request) => {
    const repository = deps.state.repository(request.pathParams.owner!, request.pathParams.repo!);
    if (!repository) return notFound();
    const perPage = pageSize(request);
    if (typeof perPage !== 'number') return perPage;
    const pageText = request.query.get('page') ?? '1';
    if (!/^-?\d+$/.test(pageText))
      return validationFailed('page must be an integer', [
        { field: 'page', message: `not a page number: ${pageText}` },
      ]);
    // The spec (like the seed) sets no minimum: a page before the first is the first.
    const page = Math.min(Math.max(Number(pageText), 1), 2 ** 31);
    const hooks = deps.state.hooksOf(repository);
    const items = hooks.slice((page - 1) * perPage, page * perPage);
    const base = `${request.baseUrl}/repos/${repository.owner}/${repository.repo}/hooks?per_page=${perPage}`;
    const links = [
      page * perPage < hooks.length ? `<${base}&page=${page + 1}>; rel="next"` : '',
      page > 1 ? `<${base}&page=${page - 1}>; rel="prev"` : '',
    ].filter(Boolean);
    const body = items.map((hook) => hookBody(hook, request.baseUrl));
    return { status: 200, body, headers: links.length ? { link: links.join(', ') } : {} };
  },

  updateWebhook: (deps, request) =>
    withHook(deps, request, (hook, repository) => {
      const invalid = validate(deps, bodySchema('/repos/{owner}/{repo}/hooks/{hook_id}', 'patch'), request.body);
      if (invalid) return invalid;
      const body = request.body as {
        config?: Record<string, unknown>;
        events?: string[];
        add_events?: string[];
        remove_events?: string[];
        active?: boolean;
      };
      let events = body.events ? [...new Set(body.events)] : [...hook.events];
      if (body.add_events) events = [...new Set([...events, ...body.add_events])];
      if (body.remove_events) events = events.filter((event) => !body.remove_events!.includes(event));
      // Seed rule 3: a request that sends config without the secret removes a secret that was set.
      const config = body.config ? { ...body.config } : hook.config;
      const badUrl = urlProblem(deps, config);
      if (badUrl) return badUrl;
      const clash = clashingHook(deps.state, repository, config, events, hook.id);
      if (clash) return validationFailed(`hook ${clash.id} already has this config with overlapping events`);
      const changes = {
        config,
        events,
        active: typeof body.active === 'boolean' ? body.active : hook.active,
        updatedAt: now(),
      };
      return {
        status: 200,
        body: hookBody({ ...hook, ...changes }, request.baseUrl),
        commit: () => deps.state.changeHook(hook, changes),
      };
    }),

  pingWebhook: (deps, request) =>
    withHook(deps, request, (hook, repository) => {
      if (!hook.active) return { status: 204 };
      const payload = {
        zen: 'Keep it logically awesome.',
        hook_id: hook.id,
        hook: hookBody(hook, request.baseUrl),
        repository: { id: repository.id, name: repository.repo, full_name: `${repository.owner}/${repository.repo}` },
      };
      return {
        status: 204,
        commit: () =>
          deps.track(
            deliver(deps.state, hook, repository, 'ping', payload, deps.delivery, { depth: depthOf(request) }),
          ),
      };
    }),

  testPushWebhook: (deps, request) =>
    withHook(deps, request, (hook, repository) => {
      // Seed rule 5: only a hook subscribed to push gets a test delivery; the answer is 204 either way.
      if (!hook.active || !hook.events.includes('push')) return { status: 204 };
      const payload = {
        ref: 'refs/heads/main',
        before: '0'.repeat(40),
        after: '1'.repeat(40),
        repository: { id: repository.id, name: repository.repo, full_name: `${repository.owner}/${repository.repo}` },
        commits: [],
      };
      return {
        status: 204,
        commit: () =>
          deps.track(
            deliver(deps.state, hook, repository, 'push', payload, deps.delivery, { depth: depthOf(request) }),
          ),
      };
    }),
};

/**
 * The sandbox's hooks: the operations above answered by their handlers, and a create, a read and a delete of a
 * webhook made by the engine's store with hooks around them.
 */
export function webhooksHooks(deps: WebhooksDeps): SandboxHooks {
  const hooks: SandboxHooks = {};
  for (const [operationId, handler] of Object.entries(webhooksHandlers))
    hooks[operationId] = answeredBy((request) => handler(deps, request));
  return { ...hooks, ...storedHooks(deps) };
}

/** A secret sent on a create, kept from the engine's store (its state is shown on the admin surface) until the hook has its id. */
const secretsSent = new WeakMap<object, unknown>();

function storedHooks(deps: WebhooksDeps): Record<'createWebhook' | 'getWebhook' | 'deleteWebhook', OperationHooks> {
  /** An unknown repository, or a hook id that is no number, is no hook: 404 before the engine looks. */
  const noSuchHook = (params: Record<string, string>) =>
    !deps.state.repository(params.owner!, params.repo!) ||
    (params.hook_id !== undefined && !/^\d+$/.test(params.hook_id))
      ? hookAnswer(notFound())
      : undefined;
  /** The engine's 404 in the seed's words. */
  const seedNotFound = (status: number) => (status === 404 ? hookAnswer(notFound()) : undefined);
  return {
    createWebhook: {
      before(ctx) {
        const request = sandboxRequest(ctx);
        const repository = deps.state.repository(request.pathParams.owner!, request.pathParams.repo!);
        if (!repository) return hookAnswer(notFound());
        const invalid = validate(deps, bodySchema('/repos/{owner}/{repo}/hooks', 'post'), request.body);
        if (invalid) return hookAnswer(invalid);
        const body = request.body as {
          name?: string;
          config?: Record<string, unknown>;
          events?: string[];
          active?: boolean;
        };
        // The seed's defaults: events push, active, name web; an event listed twice is subscribed once.
        const events = [...new Set(body.events ?? ['push'])];
        const config = body.config ?? {};
        const badUrl = urlProblem(deps, config);
        if (badUrl) return hookAnswer(badUrl);
        const clash = clashingHook(deps.state, repository, config, events);
        if (clash)
          return hookAnswer(
            validationFailed(
              `hook ${clash.id} already has this config with overlapping events; hooks may share a config only if their events do not overlap`,
            ),
          );
        const { secret, ...shown } = config;
        secretsSent.set(ctx.request, secret);
        ctx.request.body = { name: body.name ?? 'web', active: body.active ?? true, events, config: shown };
      },
      after(ctx) {
        if (ctx.response.status !== 201) return seedNotFound(ctx.response.status);
        const id = Number((ctx.response.body as { id?: unknown } | undefined)?.id);
        if (!Number.isSafeInteger(id)) return;
        const sent = ctx.request.body as {
          name: string;
          active: boolean;
          events: string[];
          config: Record<string, unknown>;
        };
        const secret = secretsSent.get(ctx.request);
        const made = now();
        const hook: StoredHook = {
          id,
          owner: ctx.request.params.owner!,
          repo: ctx.request.params.repo!,
          name: sent.name,
          active: sent.active,
          events: sent.events,
          config: secret === undefined ? sent.config : { ...sent.config, secret },
          createdAt: made,
          updatedAt: made,
          lastResponse: { code: null, status: 'unused', message: null },
        };
        // The engine stored what it was given; the hook as the seed shows it replaces that.
        deps.state.add(hook);
        const baseUrl = sandboxRequest(ctx).baseUrl;
        return { status: 201, headers: ctx.response.headers, body: hookBody(hook, baseUrl) };
      },
    },
    getWebhook: {
      before: (ctx) => noSuchHook(ctx.request.params),
      after(ctx) {
        if (ctx.response.status !== 200) return seedNotFound(ctx.response.status);
        const stored = ctx.response.body as Record<string, unknown>;
        ctx.response.body = withUrls(stored, ctx.request.params, sandboxRequest(ctx).baseUrl);
      },
    },
    deleteWebhook: {
      before: (ctx) => noSuchHook(ctx.request.params),
      after(ctx) {
        if (ctx.response.status !== 204) return seedNotFound(ctx.response.status);
        const { owner, repo, hook_id: hookId } = ctx.request.params;
        // Its secret and its deliveries go with it.
        deps.state.removeHook({ owner: owner!, repo: repo!, id: Number(hookId) });
      },
    },
  };
}

function withHook(
  deps: WebhooksDeps,
  request: SandboxRequest,
  then: (hook: StoredHook, repository: Repository) => SandboxResponse,
): SandboxResponse {
  const { owner, repo, hook_id: hookId } = request.pathParams;
  const repository = deps.state.repository(owner!, repo!);
  if (!repository || !/^\d+$/.test(hookId ?? '')) return notFound();
  const hook = deps.state.hook(repository.owner, repository.repo, Number(hookId));
  return hook ? then(hook, repository) : notFound();
}

function withDelivery(
  deps: WebhooksDeps,
  request: SandboxRequest,
  then: (hook: StoredHook, delivery: StoredDelivery, repository: Repository) => SandboxResponse,
): SandboxResponse {
  return withHook(deps, request, (hook, repository) => {
    const id = request.pathParams.delivery_id ?? '';
    const delivery = /^\d+$/.test(id)
      ? deps.state.deliveriesOf(hook).find((candidate) => candidate.id === Number(id))
      : undefined;
    // 422 is what the seed documents for deliveries (no 404 there): an unknown delivery id is invalid input.
    return delivery
      ? then(hook, delivery, repository)
      : validationFailed(`delivery ${id} does not exist for hook ${hook.id}`, [
          { field: 'delivery_id', message: 'unknown delivery' },
        ]);
  });
}

function validate(deps: WebhooksDeps, schemaPath: string[], body: unknown): SandboxResponse | undefined {
  if (body === undefined) return validationFailed('a JSON body is required');
  const errors = deps.compiled.validateAt(schemaPath, body);
  if (errors.length === 0) return undefined;
  return validationFailed(
    'Validation failed',
    errors.map((error) => ({
      field: error.instancePath || '(body)',
      message: error.message.replace(/^body\b/, 'the body'),
    })),
  );
}

function urlProblem(
  deps: WebhooksDeps,
  config: Record<string, unknown>,
  field = '/config/url',
): SandboxResponse | undefined {
  // Seed: url is required only when config is sent on update, which the schema already checks.
  if (config.url === undefined) return undefined;
  const problem = configUrlProblem(config.url, deps.listening());
  return problem ? validationFailed(problem, [{ field, message: problem }]) : undefined;
}

/** A delivery this request triggers goes one level deeper than the request (see deliver.ts). */
const depthOf = (request: SandboxRequest) => incomingDeliveryDepth(request.headers) + 1;

function pageSize(request: SandboxRequest): number | SandboxResponse {
  const text = request.query.get('per_page');
  if (text === null) return defaultPerPage;
  if (!/^-?\d+$/.test(text))
    return validationFailed('per_page must be an integer', [
      { field: 'per_page', message: `not a number of results: ${text}` },
    ]);
  const perPage = Number(text);
  if (perPage > 100)
    return validationFailed('per_page must be at most 100', [{ field: 'per_page', message: `${perPage} is over 100` }]);
  // The spec (like the seed) says only "max 100": a size under 1 is taken as the default.
  return perPage < 1 ? defaultPerPage : perPage;
}

function clashingHook(
  state: WebhooksState,
  repository: Repository,
  config: Record<string, unknown>,
  events: string[],
  except?: number,
): StoredHook | undefined {
  if (config.url === undefined) return undefined;
  return state
    .hooksOf(repository)
    .find(
      (hook) =>
        hook.id !== except && hook.config.url === config.url && hook.events.some((event) => events.includes(event)),
    );
}

const now = () => new Date().toISOString();
const hookPath = (hook: StoredHook) => `/repos/${hook.owner}/${hook.repo}/hooks/${hook.id}`;

function configBody(config: Record<string, unknown>): Record<string, unknown> {
  const { secret, ...rest } = config;
  return secret === undefined || secret === '' ? rest : { ...rest, secret: masked };
}

/** A hook as the engine's store keeps it: what answers show but the url fields, and no secret. */
export function storedItem(hook: StoredHook): Record<string, unknown> {
  return {
    type: 'Repository',
    id: hook.id,
    name: hook.name,
    active: hook.active,
    events: hook.events,
    config: Object.hasOwn(hook.config, 'secret') ? withoutSecret(hook.config) : hook.config,
    updated_at: hook.updatedAt,
    created_at: hook.createdAt,
    last_response: hook.lastResponse,
  };
}

function withoutSecret(config: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const shown: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(config)) if (name !== 'secret') shown[name] = value;
  return shown;
}

/**
 * A stored hook as answers show it: with its url fields, made from the base URL the client used. Written out field
 * by field (no rest or spread): a list of 30 hooks makes 30 of these per request.
 */
function withUrls(item: Record<string, unknown>, params: { owner?: string; repo?: string }, baseUrl: string) {
  const url = `${baseUrl}/repos/${params.owner}/${params.repo}/hooks/${String(item.id)}`;
  return {
    type: item.type,
    id: item.id,
    name: item.name,
    active: item.active,
    events: item.events,
    config: item.config,
    updated_at: item.updated_at,
    created_at: item.created_at,
    url,
    test_url: `${url}/tests`,
    ping_url: `${url}/pings`,
    deliveries_url: `${url}/deliveries`,
    last_response: item.last_response,
  };
}

export function hookBody(hook: StoredHook, baseUrl: string): Record<string, unknown> {
  return withUrls(storedItem(hook), hook, baseUrl);
}

function deliveryItem(delivery: StoredDelivery): Record<string, unknown> {
  return {
    id: delivery.id,
    guid: delivery.guid,
    delivered_at: delivery.deliveredAt,
    redelivery: delivery.redelivery,
    duration: delivery.duration,
    status: delivery.status,
    status_code: delivery.statusCode,
    event: delivery.event,
    ...(delivery.action === null ? {} : { action: delivery.action }),
    installation_id: 0,
    repository_id: delivery.repositoryId,
  };
}
