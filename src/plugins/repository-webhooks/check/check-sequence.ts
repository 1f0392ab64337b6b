// The repository-webhooks sequences. Full (staging, sandbox): creates hooks and exercises every seed rule (see
// core/behaviour/seed-rules.ts), then deletes what it created, also when a check fails or the run is interrupted.
// Mock: each operation once. Read-only: GET operations on an existing hook. A check passes only when it was
// exercised and held: when the target's answers keep one from being exercised, it fails with the reason.
import { randomBytes } from 'node:crypto';
import { createRepositoryWebhooksClient, type RepositoryWebhooksClient } from '../repository-webhooks-client.js';
import { configOnly, deliveryRequestHeaders, idOf, idsOf, isSuccess, objectsOf } from '../behaviour/index.js';
import type { CheckName } from '../../../core/finding.js';
import { credentialFetch } from '../../../http/api-credentials.js';
import { parseJson, type SequenceContext } from '../../../runner/sequence-context.js';
import type { DeliveryWatch } from './delivery-watch.js';
import { webhooksCalls, type WebhooksCalls } from './webhooks-calls.js';
import { runFull } from './webhooks-full.js';
import { deliveryListPaging, hookListPaging, judgeOn, perPageProbe } from './webhooks-lists.js';

export interface WebhooksTarget {
  owner: string;
  repo: string;
  /** For --read-only: the hook to read. */
  hookId?: number;
  /** config.url of the hooks the full sequence creates (default: the receiver's URL, else a loopback port where nothing listens). */
  hookUrl?: string;
  /** The receiver the hooks' deliveries arrive at (the full sequence), when the run has one. */
  deliveries?: DeliveryWatch;
  /** How long to wait for a delivery to show up after a ping, a test or a redelivery. */
  deliveryWaitMs?: number;
}

export async function runRepositoryWebhooks(context: SequenceContext, target: WebhooksTarget): Promise<void> {
  // The config's credentials (WEBHOOKS_TOKEN as Authorization: Bearer by default) go on every request.
  const withCredentials = (fetch: (request: Request) => Promise<Response>) =>
    credentialFetch(fetch, context.credentials, context.baseUrl);
  const repo = { owner: target.owner, repo: target.repo };
  const client = createRepositoryWebhooksClient({
    baseUrl: context.baseUrl,
    fetch: withCredentials(context.capture.fetch),
  });
  const calls = webhooksCalls(context, client, repo);
  if (context.mode === 'mock') return runStateless(context, calls);
  if (context.mode === 'read-only') return runReadOnly(context, calls, target);
  const cleanup = createRepositoryWebhooksClient({
    baseUrl: context.baseUrl,
    fetch: withCredentials(context.capture.cleanupFetch),
  });
  const created = new Set<number>();
  // Every hook this run creates carries the run's marker in config.url, so a hook whose create was still in
  // flight when the run stopped (its id never seen) is found and deleted too.
  const marker = `contracts-run=${randomBytes(8).toString('hex')}`;
  const base =
    target.hookUrl ?? (target.deliveries ? `${target.deliveries.receiver.url}/contracts-check` : defaultHookUrl);
  const hookUrl = `${base}${base.includes('?') ? '&' : '?'}${marker}`;
  try {
    await runFull(context, calls, { ...target, hookUrl }, created, marker);
  } finally {
    if (created.size > 0 && context.capture.interrupted)
      context.log(`deleting the ${created.size} webhook${created.size === 1 ? '' : 's'} this run created…`);
    await deleteHooks(cleanup, repo, created, marker);
  }
}

/** Deletes what the run created, and any hook carrying its marker; whatever the target answers, it goes on. */
async function deleteHooks(
  cleanup: RepositoryWebhooksClient,
  repo: { owner: string; repo: string },
  created: Set<number>,
  marker: string,
): Promise<void> {
  const remove = (hookId: number) =>
    cleanup
      .DELETE('/repos/{owner}/{repo}/hooks/{hook_id}', {
        params: { path: { ...repo, hook_id: hookId } },
        parseAs: 'text',
      })
      .catch(() => undefined);
  for (const hookId of created) await remove(hookId);
  for (let page = 1; page <= 10; page++) {
    const listed = await cleanup
      .GET('/repos/{owner}/{repo}/hooks', { params: { path: repo, query: { per_page: 100, page } }, parseAs: 'text' })
      .catch(() => undefined);
    const hooks = objectsOf(parseJson(listed?.data));
    for (const hook of hooks) {
      const id = idOf(hook);
      const url =
        hook.config !== null && typeof hook.config === 'object' ? (hook.config as { url?: unknown }).url : undefined;
      if (id !== undefined && typeof url === 'string' && url.includes(marker) && !created.has(id)) await remove(id);
    }
    if (hooks.length < 100) break;
  }
}

/** Where the hooks deliver without a receiver and without --hook-url: a loopback port where nothing listens. */
export const defaultHookUrl = 'http://127.0.0.1:9/contracts-check';

async function runStateless(context: SequenceContext, calls: WebhooksCalls): Promise<void> {
  const hookId = 1;
  await perPageProbe(context, 'listWebhooks', (query, probe) => calls.list(query, probe));
  await calls.create({ name: 'web' });
  await calls.get(hookId);
  await calls.update(hookId, { active: true });
  await calls.getConfig(hookId);
  await calls.updateConfig(hookId, { content_type: 'json' });
  await perPageProbe(context, 'listWebhookDeliveries', (query, probe) => calls.listDeliveries(hookId, query, probe));
  await calls.getDelivery(hookId, 1);
  await calls.redeliver(hookId, 1);
  await calls.ping(hookId);
  await calls.test(hookId);
  await calls.remove(hookId);
}

async function runReadOnly(context: SequenceContext, calls: WebhooksCalls, target: WebhooksTarget): Promise<void> {
  const hookId = target.hookId!;
  const hook = await calls.get(hookId);
  if (!isSuccess(hook.status)) {
    const reason = `getWebhook answered ${hook.status} for hook ${hookId} of ${target.owner}/${target.repo}: does --hook-id name an existing hook, and may the token read it?`;
    context.results.unexercisedPending(context.api, reason);
    return;
  }
  await hookListPaging(context, calls, await calls.list({ per_page: 100 }));
  const config = await calls.getConfig(hookId);
  judgeOn(context, config, 'getWebhookConfig', 'config_only', () => configOnly('getWebhookConfig', config.json));
  const hasSecret = typeof (config.json as { secret?: unknown } | null)?.secret === 'string';
  const deliveries = await calls.listDeliveries(hookId, { per_page: 100 });
  const first = idsOf(deliveries.json).find((id): id is number => typeof id === 'number');
  await deliveryListPaging(context, calls, hookId, deliveries);
  if (!isSuccess(deliveries.status)) {
    context.results.unexercisedPending(
      context.api,
      `listing the deliveries of hook ${hookId} answered ${deliveries.status}`,
      'getWebhookDelivery',
    );
  } else if (first === undefined) {
    for (const check of pendingOf(context, 'getWebhookDelivery'))
      context.results.markSkipped(
        context.api,
        'getWebhookDelivery',
        check,
        `--read-only: hook ${hookId} has no deliveries, and read-only triggers none`,
      );
  } else {
    const detail = await calls.getDelivery(hookId, first);
    judgeOn(context, detail, 'getWebhookDelivery', 'delivery_request_headers', () =>
      deliveryRequestHeaders('getWebhookDelivery', hookId, hasSecret, detail.json),
    );
  }
}

const pendingOf = (context: SequenceContext, operationId: string): CheckName[] =>
  context.results.pendingChecks(context.api, operationId);
