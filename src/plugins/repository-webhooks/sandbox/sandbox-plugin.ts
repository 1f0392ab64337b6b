// The repository-webhooks example in the sandbox: the hooks and their deliveries in memory (sandbox-state.ts),
// repositories that exist (octo/app and --repository; others 404), real signed deliveries (deliver.ts), and the
// seed's rules the spec cannot say (webhooks-handlers.ts).
import { compileSpec } from '../../../core/compile-spec.js';
import { ContractsError } from '../../../core/errors.js';
import { requestSpec } from '../../../core/read-write-views.js';
import type { PluginSandbox, SandboxPlugin, SandboxSetup } from '../../../sandbox/sandbox-plugin.js';
import { defaultMaxDeliveries, defaultMaxDeliveryBytes, WebhooksState } from './webhooks-state.js';
import { defaultRepositories } from './sandbox-options.js';
import { webhooksHandlers, type WebhooksDeps } from './webhooks-handlers.js';

export const repositoryWebhooksSandbox: SandboxPlugin = {
  async start(setup: SandboxSetup): Promise<PluginSandbox> {
    const state = new WebhooksState(repositoriesOf(setup.options), deliveryBounds(setup.options));
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
      answer: (request) => webhooksHandlers[request.operationId]!(deps, request),
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
