// The repository-webhooks sequences. Full (staging, sandbox): creates two hooks and exercises every rule the
// suite checks, then deletes what it created, also when a check fails or the run is interrupted. Mock: each
// operation once, stateful rules skipped. Read-only: GET operations on an existing hook.
import { randomBytes } from 'node:crypto';
import { createRepositoryWebhooksClient, type RepositoryWebhooksClient } from '../../clients/repository-webhooks-client.js';
import {
  addEvents, deletedHook404, eventsDefaultPush, eventsReplace, perPageCapped, perPageRespected, redeliveryFlag, removeEvents, secretMasked,
} from '../../core/behaviour/index.js';
import type { CheckName } from '../../core/finding.js';
import { judge, observe, skip, type Observed, type SequenceContext } from '../sequence-context.js';

export interface WebhooksTarget {
  owner: string;
  repo: string;
  /** For --read-only: the hook to read. */
  hookId?: number;
  /** config.url of the hooks the full sequence creates. */
  hookUrl: string;
  /** How long to wait for a delivery to show up after a ping or a redelivery. */
  deliveryWaitMs?: number;
}

const perExchange: CheckName[] = ['status_code_conformance', 'content_type_conformance', 'response_schema_conformance'];
const statelessReason = 'needs a stateful server; the Prism mock is stateless (use --base-url)';

export async function runRepositoryWebhooks(context: SequenceContext, target: WebhooksTarget): Promise<void> {
  const token = context.env.WEBHOOKS_TOKEN;
  if (token) context.addSecret(token);
  const client = createRepositoryWebhooksClient({ baseUrl: context.baseUrl, ...(token ? { token } : {}), fetch: context.capture.fetch });
  if (context.mode === 'mock') return runStateless(context, client, target);
  if (context.mode === 'read-only') return runReadOnly(context, client, target);
  const cleanup = createRepositoryWebhooksClient({ baseUrl: context.baseUrl, ...(token ? { token } : {}), fetch: context.capture.cleanupFetch });
  const created = new Set<number>();
  // Every hook this run creates carries the run's marker in config.url, so a hook whose create was still in
  // flight when the run stopped (its id never seen) is found and deleted too.
  const marker = `contracts-run=${randomBytes(8).toString('hex')}`;
  const hookUrl = `${target.hookUrl}${target.hookUrl.includes('?') ? '&' : '?'}${marker}`;
  try {
    await runFull(context, client, { ...target, hookUrl }, created);
  } finally {
    await deleteHooks(cleanup, target, created, marker);
  }
}

async function deleteHooks(cleanup: RepositoryWebhooksClient, target: WebhooksTarget, created: Set<number>, marker: string): Promise<void> {
  const repo = { owner: target.owner, repo: target.repo };
  const remove = (hookId: number) => cleanup.DELETE('/repos/{owner}/{repo}/hooks/{hook_id}', { params: { path: { ...repo, hook_id: hookId } } }).catch(() => undefined);
  for (const hookId of created) await remove(hookId);
  for (let page = 1; page <= 10; page++) {
    const listed = await cleanup.GET('/repos/{owner}/{repo}/hooks', { params: { path: repo, query: { per_page: 100, page } } }).catch(() => undefined);
    const hooks = Array.isArray(listed?.data) ? listed.data : [];
    for (const hook of hooks) if (typeof hook.id === 'number' && hook.config?.url?.includes(marker) && !created.has(hook.id)) await remove(hook.id);
    if (hooks.length < 100) break;
  }
}

async function listProbes(context: SequenceContext, operationId: 'listWebhooks' | 'listWebhookDeliveries', list: (perPage: number) => Promise<unknown>): Promise<Observed> {
  const page = await observe(context, operationId, () => list(1));
  if (page.status >= 200 && page.status < 300) judge(context, operationId, 'per_page_respected', perPageRespected(operationId, 1, page.json));
  const tooMany = await observe(context, operationId, () => list(101), { probe: true });
  judge(context, operationId, 'per_page_capped', perPageCapped(operationId, tooMany.status, tooMany.json));
  return page;
}

async function runStateless(context: SequenceContext, client: RepositoryWebhooksClient, target: WebhooksTarget): Promise<void> {
  const repo = { owner: target.owner, repo: target.repo };
  const hook = { ...repo, hook_id: 1 };
  const delivery = { ...hook, delivery_id: 1 };
  await listProbes(context, 'listWebhooks', (perPage) => client.GET('/repos/{owner}/{repo}/hooks', { params: { path: repo, query: { per_page: perPage } }, parseAs: 'text' }));
  await observe(context, 'createWebhook', () => client.POST('/repos/{owner}/{repo}/hooks', { params: { path: repo }, body: { name: 'web' }, parseAs: 'text' }));
  await observe(context, 'getWebhook', () => client.GET('/repos/{owner}/{repo}/hooks/{hook_id}', { params: { path: hook }, parseAs: 'text' }));
  await observe(context, 'updateWebhook', () => client.PATCH('/repos/{owner}/{repo}/hooks/{hook_id}', { params: { path: hook }, body: { active: true }, parseAs: 'text' }));
  await observe(context, 'getWebhookConfig', () => client.GET('/repos/{owner}/{repo}/hooks/{hook_id}/config', { params: { path: hook }, parseAs: 'text' }));
  await observe(context, 'updateWebhookConfig', () => client.PATCH('/repos/{owner}/{repo}/hooks/{hook_id}/config', { params: { path: hook }, body: { content_type: 'json' }, parseAs: 'text' }));
  await listProbes(context, 'listWebhookDeliveries', (perPage) => client.GET('/repos/{owner}/{repo}/hooks/{hook_id}/deliveries', { params: { path: hook, query: { per_page: perPage } }, parseAs: 'text' }));
  await observe(context, 'getWebhookDelivery', () => client.GET('/repos/{owner}/{repo}/hooks/{hook_id}/deliveries/{delivery_id}', { params: { path: delivery }, parseAs: 'text' }));
  await observe(context, 'redeliverWebhookDelivery', () => client.POST('/repos/{owner}/{repo}/hooks/{hook_id}/deliveries/{delivery_id}/attempts', { params: { path: delivery }, parseAs: 'text' }));
  await observe(context, 'pingWebhook', () => client.POST('/repos/{owner}/{repo}/hooks/{hook_id}/pings', { params: { path: hook }, parseAs: 'text' }));
  await observe(context, 'testPushWebhook', () => client.POST('/repos/{owner}/{repo}/hooks/{hook_id}/tests', { params: { path: hook }, parseAs: 'text' }));
  await observe(context, 'deleteWebhook', () => client.DELETE('/repos/{owner}/{repo}/hooks/{hook_id}', { params: { path: hook }, parseAs: 'text' }));
  skip(context, 'createWebhook', ['events_default_push'], statelessReason);
  skip(context, 'updateWebhook', ['events_replace', 'add_events', 'remove_events'], statelessReason);
  skip(context, 'getWebhookConfig', ['secret_masked'], statelessReason);
  skip(context, 'redeliverWebhookDelivery', ['redelivery_flag'], statelessReason);
  skip(context, 'getWebhook', ['deleted_hook_404'], statelessReason);
}

async function runReadOnly(context: SequenceContext, client: RepositoryWebhooksClient, target: WebhooksTarget): Promise<void> {
  const repo = { owner: target.owner, repo: target.repo };
  const hook = { ...repo, hook_id: target.hookId! };
  await listProbes(context, 'listWebhooks', (perPage) => client.GET('/repos/{owner}/{repo}/hooks', { params: { path: repo, query: { per_page: perPage } }, parseAs: 'text' }));
  await observe(context, 'getWebhook', () => client.GET('/repos/{owner}/{repo}/hooks/{hook_id}', { params: { path: hook }, parseAs: 'text' }));
  await observe(context, 'getWebhookConfig', () => client.GET('/repos/{owner}/{repo}/hooks/{hook_id}/config', { params: { path: hook }, parseAs: 'text' }));
  const deliveries = await listProbes(context, 'listWebhookDeliveries', (perPage) => client.GET('/repos/{owner}/{repo}/hooks/{hook_id}/deliveries', { params: { path: hook, query: { per_page: perPage } }, parseAs: 'text' }));
  const first = firstId(deliveries.json);
  if (deliveries.status < 200 || deliveries.status >= 300) skip(context, 'getWebhookDelivery', perExchange, `listing the deliveries of hook ${target.hookId} answered ${deliveries.status}`);
  else if (first === undefined) skip(context, 'getWebhookDelivery', perExchange, `hook ${target.hookId} has no deliveries to read`);
  else await observe(context, 'getWebhookDelivery', () => client.GET('/repos/{owner}/{repo}/hooks/{hook_id}/deliveries/{delivery_id}', { params: { path: { ...hook, delivery_id: first } }, parseAs: 'text' }));
  const reason = '--read-only runs only GET operations';
  for (const operationId of ['createWebhook', 'updateWebhook', 'updateWebhookConfig', 'deleteWebhook', 'pingWebhook', 'testPushWebhook', 'redeliverWebhookDelivery']) skip(context, operationId, perExchange, reason);
  skip(context, 'createWebhook', ['events_default_push'], reason);
  skip(context, 'updateWebhook', ['events_replace', 'add_events', 'remove_events'], reason);
  skip(context, 'getWebhookConfig', ['secret_masked'], reason);
  skip(context, 'redeliverWebhookDelivery', ['redelivery_flag'], reason);
  skip(context, 'getWebhook', ['deleted_hook_404'], reason);
}

async function runFull(context: SequenceContext, client: RepositoryWebhooksClient, target: WebhooksTarget, created: Set<number>): Promise<void> {
  const repo = { owner: target.owner, repo: target.repo };
  const secret = `contracts-${randomBytes(18).toString('hex')}`;
  context.addSecret(secret);
  await listProbes(context, 'listWebhooks', (perPage) => client.GET('/repos/{owner}/{repo}/hooks', { params: { path: repo, query: { per_page: perPage } }, parseAs: 'text' }));

  // Hook A: created without events, to see them default to push; then updated three ways. Two hooks may share
  // a config only if their events do not overlap (seed): A and B get different URLs.
  const urlA = `${target.hookUrl}&hook=a`;
  const urlB = `${target.hookUrl}&hook=b`;
  const a = await observe(context, 'createWebhook', () => client.POST('/repos/{owner}/{repo}/hooks', { params: { path: repo }, body: { name: 'web', active: true, config: { url: urlA, content_type: 'json' } }, parseAs: 'text' }));
  const aId = idOf(a.json);
  if (a.status !== 201 || aId === undefined) {
    skipAfterFailedCreate(context, a.status);
    return;
  }
  created.add(aId);
  judge(context, 'createWebhook', 'events_default_push', eventsDefaultPush('createWebhook', a.json));

  // Hook B: created with a secret and push events, pinged and tested so it has deliveries.
  const b = await observe(context, 'createWebhook', () => client.POST('/repos/{owner}/{repo}/hooks', { params: { path: repo }, body: { name: 'web', active: true, events: ['push'], config: { url: urlB, content_type: 'json', secret, insecure_ssl: '0' } }, parseAs: 'text' }));
  const bId = idOf(b.json);
  if (bId !== undefined) created.add(bId);
  judge(context, 'createWebhook', 'secret_masked', secretMasked('createWebhook', secret, b.exchange.body, b.json));
  const hookA = { ...repo, hook_id: aId };
  const hookB = { ...repo, hook_id: bId ?? aId };

  for (const call of [
    () => observe(context, 'getWebhookConfig', () => client.GET('/repos/{owner}/{repo}/hooks/{hook_id}/config', { params: { path: hookB }, parseAs: 'text' })),
    () => observe(context, 'updateWebhookConfig', () => client.PATCH('/repos/{owner}/{repo}/hooks/{hook_id}/config', { params: { path: hookB }, body: { url: urlB, content_type: 'json', secret }, parseAs: 'text' })),
  ]) {
    const observed = await call();
    const operationId = observed.exchange.method === 'GET' ? 'getWebhookConfig' : 'updateWebhookConfig';
    judge(context, operationId, 'secret_masked', secretMasked(operationId, secret, observed.exchange.body, observed.json));
  }
  const readB = await observe(context, 'getWebhook', () => client.GET('/repos/{owner}/{repo}/hooks/{hook_id}', { params: { path: hookB }, parseAs: 'text' }));
  judge(context, 'getWebhook', 'secret_masked', secretMasked('getWebhook', secret, readB.exchange.body, readB.json));

  // From the default [push]: a replace gives [pull_request] where an append would give [push, pull_request].
  const replaced = ['pull_request'];
  const afterReplace = await observe(context, 'updateWebhook', () => client.PATCH('/repos/{owner}/{repo}/hooks/{hook_id}', { params: { path: hookA }, body: { events: replaced }, parseAs: 'text' }));
  judge(context, 'updateWebhook', 'events_replace', eventsReplace('updateWebhook', replaced, afterReplace.json));
  const beforeAdd = eventsOf(afterReplace.json);
  const afterAdd = await observe(context, 'updateWebhook', () => client.PATCH('/repos/{owner}/{repo}/hooks/{hook_id}', { params: { path: hookA }, body: { add_events: ['issues'] }, parseAs: 'text' }));
  judge(context, 'updateWebhook', 'add_events', addEvents('updateWebhook', beforeAdd, ['issues'], afterAdd.json));
  const beforeRemove = eventsOf(afterAdd.json);
  const afterRemove = await observe(context, 'updateWebhook', () => client.PATCH('/repos/{owner}/{repo}/hooks/{hook_id}', { params: { path: hookA }, body: { remove_events: ['pull_request'] }, parseAs: 'text' }));
  judge(context, 'updateWebhook', 'remove_events', removeEvents('updateWebhook', beforeRemove, ['pull_request'], afterRemove.json));

  await observe(context, 'pingWebhook', () => client.POST('/repos/{owner}/{repo}/hooks/{hook_id}/pings', { params: { path: hookB }, parseAs: 'text' }));
  await observe(context, 'testPushWebhook', () => client.POST('/repos/{owner}/{repo}/hooks/{hook_id}/tests', { params: { path: hookB }, parseAs: 'text' }));

  const listDeliveries = (perPage: number) => client.GET('/repos/{owner}/{repo}/hooks/{hook_id}/deliveries', { params: { path: hookB, query: { per_page: perPage } }, parseAs: 'text' });
  await listProbes(context, 'listWebhookDeliveries', listDeliveries);
  const waitMs = target.deliveryWaitMs ?? 10_000;
  const before = await poll(() => observe(context, 'listWebhookDeliveries', () => listDeliveries(100)), (o) => firstId(o.json) !== undefined, waitMs);
  const deliveryId = firstId(before.json);
  if (deliveryId === undefined) {
    const reason = `no delivery appeared for hook ${hookB.hook_id} within ${waitMs} ms of a ping`;
    skip(context, 'getWebhookDelivery', perExchange, reason);
    skip(context, 'redeliverWebhookDelivery', [...perExchange, 'redelivery_flag'], reason);
  } else {
    const delivery = { ...hookB, delivery_id: deliveryId };
    await observe(context, 'getWebhookDelivery', () => client.GET('/repos/{owner}/{repo}/hooks/{hook_id}/deliveries/{delivery_id}', { params: { path: delivery }, parseAs: 'text' }));
    const redeliver = await observe(context, 'redeliverWebhookDelivery', () => client.POST('/repos/{owner}/{repo}/hooks/{hook_id}/deliveries/{delivery_id}/attempts', { params: { path: delivery }, parseAs: 'text' }));
    if (redeliver.status === 202) {
      const known = new Set(idsOf(before.json));
      const after = await poll(() => observe(context, 'listWebhookDeliveries', () => listDeliveries(100)), (o) => idsOf(o.json).some((id) => !known.has(id)), waitMs);
      judge(context, 'redeliverWebhookDelivery', 'redelivery_flag', redeliveryFlag('redeliverWebhookDelivery', before.json, after.json));
    } else {
      skip(context, 'redeliverWebhookDelivery', ['redelivery_flag'], `redelivery answered ${redeliver.status}, not 202`);
    }
  }

  const deleted = await observe(context, 'deleteWebhook', () => client.DELETE('/repos/{owner}/{repo}/hooks/{hook_id}', { params: { path: hookA }, parseAs: 'text' }));
  if (deleted.status === 204) created.delete(aId);
  const gone = await observe(context, 'getWebhook', () => client.GET('/repos/{owner}/{repo}/hooks/{hook_id}', { params: { path: hookA }, parseAs: 'text' }));
  judge(context, 'getWebhook', 'deleted_hook_404', deletedHook404('getWebhook', gone.status));
  if (bId !== undefined) {
    const deletedB = await observe(context, 'deleteWebhook', () => client.DELETE('/repos/{owner}/{repo}/hooks/{hook_id}', { params: { path: hookB }, parseAs: 'text' }));
    if (deletedB.status === 204) created.delete(bId);
  }
}

function skipAfterFailedCreate(context: SequenceContext, status: number): void {
  const reason = `createWebhook answered ${status}, so there is no hook to exercise`;
  skip(context, 'createWebhook', ['events_default_push', 'secret_masked'], reason);
  skip(context, 'updateWebhook', [...perExchange, 'events_replace', 'add_events', 'remove_events'], reason);
  for (const operationId of ['getWebhook', 'getWebhookConfig', 'updateWebhookConfig', 'deleteWebhook', 'pingWebhook', 'testPushWebhook', 'listWebhookDeliveries', 'getWebhookDelivery', 'redeliverWebhookDelivery']) {
    skip(context, operationId, perExchange, reason);
  }
  skip(context, 'getWebhook', ['deleted_hook_404'], reason);
  skip(context, 'redeliverWebhookDelivery', ['redelivery_flag'], reason);
}

async function poll<T>(get: () => Promise<T>, done: (value: T) => boolean, waitMs: number): Promise<T> {
  const deadline = Date.now() + waitMs;
  let value = await get();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    value = await get();
  }
  return value;
}

const idOf = (body: unknown): number | undefined => (typeof (body as { id?: unknown } | null)?.id === 'number' ? (body as { id: number }).id : undefined);
const idsOf = (list: unknown): unknown[] => (Array.isArray(list) ? list.map((item) => (item as { id?: unknown } | null)?.id) : []);
const firstId = (list: unknown): number | undefined => idsOf(list).find((id): id is number => typeof id === 'number');
const eventsOf = (body: unknown): string[] => {
  const events = (body as { events?: unknown } | null)?.events;
  return Array.isArray(events) ? events.map(String) : [];
};
