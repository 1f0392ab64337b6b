// The repository-webhooks example in the sandbox: the engine on its spec, webhooks kept in the engine's store (their
// secrets apart, in memory, so the store never holds one), repositories that exist (octo/app and --repository;
// others 404), real signed deliveries (deliver.ts, kept in webhooks-state.ts), and the seed's rules the spec cannot
// say, as the engine's hooks (webhooks-handlers.ts).
import { compileSpec } from '../../../core/compile-spec.js';
import { ContractsError } from '../../../core/errors.js';
import { requestSpec } from '../../../core/read-write-views.js';
import type { HookStore } from '../../../mock/engine/sandbox-hooks.js';
import type { PluginSandbox, SandboxPlugin, SandboxSetup } from '../../../sandbox/sandbox-plugin.js';
import {
  defaultMaxDeliveries,
  defaultMaxDeliveryBytes,
  type HookRecords,
  hookKeyOf,
  type StoredHook,
  WebhooksState,
} from './webhooks-state.js';
import { defaultRepositories } from './sandbox-options.js';
import { storedItem, webhooksHooks, type WebhooksDeps } from './webhooks-handlers.js';

export const repositoryWebhooksSandbox: SandboxPlugin = {
  async start(setup: SandboxSetup): Promise<PluginSandbox> {
    const resource = setup.resourceOf('createWebhook');
    if (resource === undefined)
      throw new ContractsError('USAGE', 'the repository-webhooks spec given has no webhook a createWebhook makes');
    const records = storeRecords(setup.store, resource);
    const state = new WebhooksState(repositoriesOf(setup.options), deliveryBounds(setup.options), records);
    const timeout = setup.options.deliveryTimeoutMs;
    const deps: WebhooksDeps = {
      state,
      // It judges request bodies: a required readOnly property is not required of them (read-write-views.ts).
      compiled: compileSpec(requestSpec(setup.spec)),
      delivery: {
        timeoutMs: typeof timeout === 'number' ? timeout : 10_000,
        maxResponseBytes: 64 * 1024,
        abortSignal: setup.abortSignal,
      },
      track: setup.track,
      listening: setup.listening,
    };
    return {
      hooks: webhooksHooks(deps),
      reset: () => state.reset(),
    };
  },
};

function repositoriesOf(options: SandboxSetup['options']): readonly string[] {
  const repositories = (options.repositories as readonly string[] | undefined) ?? defaultRepositories;
  for (const name of repositories)
    if (!/^[^/\s]+\/[^/\s]+$/.test(name))
      throw new ContractsError('USAGE', `a repository is owner/name, not "${name}"`);
  return repositories;
}

function deliveryBounds(options: SandboxSetup['options']) {
  const maxDeliveries = (options.maxDeliveries as number | undefined) ?? defaultMaxDeliveries;
  if (!Number.isSafeInteger(maxDeliveries) || maxDeliveries < 1)
    throw new ContractsError(
      'USAGE',
      `the deliveries kept per hook must be a whole number of at least 1, not ${maxDeliveries}`,
    );
  const maxDeliveryBytes = (options.maxDeliveryBytes as number | undefined) ?? defaultMaxDeliveryBytes;
  if (!(maxDeliveryBytes > 0))
    throw new ContractsError('USAGE', `the memory for deliveries must be more than 0 bytes, not ${maxDeliveryBytes}`);
  return { maxDeliveries, maxDeliveryBytes };
}

/** Webhooks kept in the engine's store, as storedItem shows them; their secrets kept here, never in the store. */
function storeRecords(store: HookStore, resource: string): HookRecords {
  const secrets = new Map<string, unknown>();
  const parents = (owner: string, repo: string) => ({ owner, repo });
  const stored = (owner: string, repo: string, item: Record<string, unknown>): StoredHook => {
    const id = Number(item.id);
    const secret = secrets.get(hookKeyOf({ owner, repo, id }));
    const config = (item.config ?? {}) as Record<string, unknown>;
    return {
      id,
      owner,
      repo,
      name: item.name as string,
      active: item.active as boolean,
      events: (item.events ?? []) as string[],
      config: secret === undefined ? config : { ...config, secret },
      createdAt: item.created_at as string,
      updatedAt: item.updated_at as string,
      lastResponse: item.last_response as StoredHook['lastResponse'],
    };
  };
  return {
    list: (owner, repo) => store.list(resource, parents(owner, repo)).map((item) => stored(owner, repo, item)),
    get(owner, repo, id) {
      const item = store.get(resource, String(id), parents(owner, repo));
      return item && stored(owner, repo, item);
    },
    put(hook) {
      const secret = hook.config.secret;
      if (secret === undefined) secrets.delete(hookKeyOf(hook));
      else secrets.set(hookKeyOf(hook), secret);
      store.put(resource, String(hook.id), storedItem(hook), parents(hook.owner, hook.repo));
    },
    remove(key) {
      secrets.delete(hookKeyOf(key));
      store.remove(resource, String(key.id), parents(key.owner, key.repo));
    },
    clear: () => secrets.clear(),
  };
}
