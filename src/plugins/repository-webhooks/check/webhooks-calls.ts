// One method per webhooks operation, each a call through the typed client that is observed (captured, checked,
// recorded) under its operationId: the sequences read as the seed's steps, not as client plumbing.
import type { RepositoryWebhooksClient } from '../repository-webhooks-client.js';
import type { components } from '../../../../generated/repository-webhooks.js';
import { observe, type Observed, type SequenceContext } from '../../../runner/sequence-context.js';

type CreateBody = components['schemas']['CreateWebhookRequest'];
type UpdateBody = components['schemas']['UpdateWebhookRequest'];
type ConfigBody = components['schemas']['UpdateWebhookConfigRequest'];
interface Paging {
  per_page?: number;
  page?: number;
  cursor?: string;
}
/** A probe is deliberately outside the contract: judged only by the check that asked for it. */
type Probe = { probe?: boolean };

export type WebhooksCalls = ReturnType<typeof webhooksCalls>;

export function webhooksCalls(
  context: SequenceContext,
  client: RepositoryWebhooksClient,
  repo: { owner: string; repo: string },
) {
  const hook = (hookId: number) => ({ ...repo, hook_id: hookId });
  const delivery = (hookId: number, deliveryId: number) => ({ ...repo, hook_id: hookId, delivery_id: deliveryId });
  const text = { parseAs: 'text' } as const;
  const run = (operationId: string, call: () => Promise<unknown>, options: Probe = {}): Promise<Observed> =>
    observe(context, operationId, call, options);
  return {
    list: (query: Paging, options?: Probe) =>
      run(
        'listWebhooks',
        () => client.GET('/repos/{owner}/{repo}/hooks', { params: { path: repo, query }, ...text }),
        options,
      ),
    create: (body: CreateBody) =>
      run('createWebhook', () => client.POST('/repos/{owner}/{repo}/hooks', { params: { path: repo }, body, ...text })),
    get: (hookId: number) =>
      run('getWebhook', () =>
        client.GET('/repos/{owner}/{repo}/hooks/{hook_id}', { params: { path: hook(hookId) }, ...text }),
      ),
    update: (hookId: number, body: UpdateBody) =>
      run('updateWebhook', () =>
        client.PATCH('/repos/{owner}/{repo}/hooks/{hook_id}', { params: { path: hook(hookId) }, body, ...text }),
      ),
    remove: (hookId: number) =>
      run('deleteWebhook', () =>
        client.DELETE('/repos/{owner}/{repo}/hooks/{hook_id}', { params: { path: hook(hookId) }, ...text }),
      ),
    getConfig: (hookId: number) =>
      run('getWebhookConfig', () =>
        client.GET('/repos/{owner}/{repo}/hooks/{hook_id}/config', { params: { path: hook(hookId) }, ...text }),
      ),
    updateConfig: (hookId: number, body: ConfigBody) =>
      run('updateWebhookConfig', () =>
        client.PATCH('/repos/{owner}/{repo}/hooks/{hook_id}/config', { params: { path: hook(hookId) }, body, ...text }),
      ),
    ping: (hookId: number) =>
      run('pingWebhook', () =>
        client.POST('/repos/{owner}/{repo}/hooks/{hook_id}/pings', { params: { path: hook(hookId) }, ...text }),
      ),
    test: (hookId: number) =>
      run('testPushWebhook', () =>
        client.POST('/repos/{owner}/{repo}/hooks/{hook_id}/tests', { params: { path: hook(hookId) }, ...text }),
      ),
    listDeliveries: (hookId: number, query: Paging, options?: Probe) =>
      run(
        'listWebhookDeliveries',
        () =>
          client.GET('/repos/{owner}/{repo}/hooks/{hook_id}/deliveries', {
            params: { path: hook(hookId), query },
            ...text,
          }),
        options,
      ),
    getDelivery: (hookId: number, deliveryId: number) =>
      run('getWebhookDelivery', () =>
        client.GET('/repos/{owner}/{repo}/hooks/{hook_id}/deliveries/{delivery_id}', {
          params: { path: delivery(hookId, deliveryId) },
          ...text,
        }),
      ),
    redeliver: (hookId: number, deliveryId: number) =>
      run('redeliverWebhookDelivery', () =>
        client.POST('/repos/{owner}/{repo}/hooks/{hook_id}/deliveries/{delivery_id}/attempts', {
          params: { path: delivery(hookId, deliveryId) },
          ...text,
        }),
      ),
  };
}
