// The repository-webhooks sequences. Full (staging, sandbox): creates hooks and exercises every seed rule (see
// core/behaviour/seed-rules.ts), then deletes what it created, also when a check fails or the run is interrupted.
// Mock: each operation once. Read-only: GET operations on an existing hook. A check passes only when it was
// exercised and held: when the target's answers keep one from being exercised, it fails with the reason.
import { randomBytes } from 'node:crypto';
import {
  createRepositoryWebhooksClient,
  type RepositoryWebhooksClient,
} from '../../clients/repository-webhooks-client.js';
import {
  addEvents,
  configOnly,
  deletedHook404,
  deliveriesCursor,
  deliveryRequestHeaders,
  eventsDefaultPush,
  eventsReplace,
  hookAddressable,
  idOf,
  idsOf,
  isSuccess,
  newItems,
  nextCursor,
  objectsOf,
  pageParameter,
  perPageCapped,
  perPageRespected,
  pingDelivery,
  redeliveryFlag,
  removeEvents,
  secretMasked,
  secretRemovedUnlessResent,
  sharedConfigRefused,
  testPushDelivery,
  testSkipsUnsubscribed,
  deliveryRecordMatches,
  pingDelivered,
  redeliveryDelivered,
  testDelivered,
  testNotDelivered,
} from '../../core/behaviour/index.js';
import { behaviourFinding } from '../../core/behaviour/behaviour-finding.js';
import { eventsOf as eventsIn } from '../../core/behaviour/behaviour-finding.js';
import { headerValue } from '../../core/exchange.js';
import type { CheckName, Finding } from '../../core/finding.js';
import type { StoredDelivery } from '../../receiver/start-receiver.js';
import { credentialFetch } from '../../http/api-credentials.js';
import { judge, parseJson, unexercised, type Observed, type SequenceContext } from '../sequence-context.js';
import { arrivedOf, deliveryChecks, judgeArrivals, type DeliveryWatch } from './delivery-watch.js';
import { webhooksCalls, type WebhooksCalls } from './webhooks-calls.js';

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

type ListCall = (
  query: { per_page: number; page?: number; cursor?: string },
  options?: { probe?: boolean },
) => Promise<Observed>;

/** per_page=1 as the control, then per_page=101 as the probe; returns the control. */
async function perPageProbe(context: SequenceContext, operationId: string, list: ListCall): Promise<Observed> {
  const control = await list({ per_page: 1 });
  const tooMany = await list({ per_page: 101 }, { probe: true });
  judge(
    context,
    operationId,
    'per_page_capped',
    perPageCapped(operationId, control.status, tooMany.status, tooMany.json),
  );
  return control;
}

/** Judges `check` on a response that had to succeed for it to mean anything; otherwise it could not be exercised. */
function judgeOn(
  context: SequenceContext,
  observed: Observed,
  operationId: string,
  check: CheckName,
  findings: () => Finding[],
): void {
  if (isSuccess(observed.status)) judge(context, operationId, check, findings());
  else
    unexercised(
      context,
      operationId,
      [check],
      `${observed.exchange.method} ${observed.exchange.path} answered ${observed.status}`,
    );
}

async function runReadOnly(context: SequenceContext, calls: WebhooksCalls, target: WebhooksTarget): Promise<void> {
  const hookId = target.hookId!;
  const hook = await calls.get(hookId);
  if (!isSuccess(hook.status)) {
    const reason = `getWebhook answered ${hook.status} for hook ${hookId} of ${target.owner}/${target.repo}: does --hook-id name an existing hook, and may the token read it?`;
    context.results.unexercisedPending(context.api, reason);
    return;
  }
  const all = await calls.list({ per_page: 100 });
  const control = await perPageProbe(context, 'listWebhooks', (query, probe) => calls.list(query, probe));
  await pagination(
    context,
    'listWebhooks',
    all,
    control,
    async () => {
      const second = await calls.list({ per_page: 1, page: 2 });
      judge(
        context,
        'listWebhooks',
        'page_parameter',
        pageParameter('listWebhooks', control.json, second.status, second.json),
      );
    },
    'hooks',
  );
  const config = await calls.getConfig(hookId);
  judgeOn(context, config, 'getWebhookConfig', 'config_only', () => configOnly('getWebhookConfig', config.json));
  const hasSecret = typeof (config.json as { secret?: unknown } | null)?.secret === 'string';
  const deliveries = await calls.listDeliveries(hookId, { per_page: 100 });
  const first = idsOf(deliveries.json).find((id): id is number => typeof id === 'number');
  const deliveryControl = await perPageProbe(context, 'listWebhookDeliveries', (query, probe) =>
    calls.listDeliveries(hookId, query, probe),
  );
  await pagination(
    context,
    'listWebhookDeliveries',
    deliveries,
    deliveryControl,
    () => cursorCheck(context, calls, hookId, deliveries, deliveryControl),
    'deliveries',
  );
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

/**
 * per_page_respected and the paging check of a list, once it holds at least two items (`all`: the list read with
 * per_page=100; `control`: with per_page=1). In read-only mode fewer than two is the user's choice of what to read.
 */
async function pagination(
  context: SequenceContext,
  operationId: string,
  all: Observed,
  control: Observed,
  page: () => Promise<void>,
  what: string,
): Promise<void> {
  const paging: CheckName = operationId === 'listWebhooks' ? 'page_parameter' : 'deliveries_cursor';
  if (!isSuccess(all.status)) {
    unexercised(
      context,
      operationId,
      ['per_page_respected', paging],
      `listing the ${what} with per_page=100 answered ${all.status}`,
    );
    return;
  }
  const available = Array.isArray(all.json) ? all.json.length : 0;
  if (available < 2) {
    const reason = `the list holds ${available} ${what}; paging needs two`;
    if (context.mode === 'read-only') {
      for (const check of ['per_page_respected', paging] as const)
        context.results.markSkipped(
          context.api,
          operationId,
          check,
          `--read-only: ${reason}, and read-only creates none`,
        );
    } else {
      unexercised(context, operationId, ['per_page_respected', paging], `${reason}, after this run made at least two`);
    }
    return;
  }
  judge(
    context,
    operationId,
    'per_page_respected',
    perPageRespected(operationId, 1, control.status, control.json, available),
  );
  await page();
}

async function cursorCheck(
  context: SequenceContext,
  calls: WebhooksCalls,
  hookId: number,
  all: Observed,
  control: Observed,
): Promise<void> {
  const expectedFirst = idsOf(all.json)[1];
  const cursor =
    nextCursor(headerValue(control.exchange.headers, 'link')) ??
    (typeof expectedFirst === 'number' ? String(expectedFirst) : undefined);
  if (cursor === undefined) {
    unexercised(
      context,
      'listWebhookDeliveries',
      ['deliveries_cursor'],
      'the second delivery of the list has no integer id and the page has no Link rel="next"',
    );
    return;
  }
  const page = await calls.listDeliveries(hookId, { per_page: 1, cursor });
  judge(
    context,
    'listWebhookDeliveries',
    'deliveries_cursor',
    deliveriesCursor('listWebhookDeliveries', cursor, expectedFirst, page.status, page.json),
  );
}

function createHint(status: number, context: SequenceContext): string {
  const variables = [
    ...new Set(context.credentials.map((credential) => credential.env).filter((env) => env !== undefined)),
  ];
  if (status === 404) return 'does the repository exist, and may the token write hooks?';
  if (status === 401 || status === 403)
    return `is ${variables.length > 0 ? variables.join(' or ') : 'a credential (contracts.config.yaml: credentials)'} set, and may it write hooks?`;
  if (status === 422) return 'does the service accept --hook-url as a delivery address?';
  return 'the hooks the sequence needs could not be made';
}

async function runFull(
  context: SequenceContext,
  calls: WebhooksCalls,
  target: WebhooksTarget & { hookUrl: string },
  created: Set<number>,
  marker: string,
): Promise<void> {
  const where = `${target.owner}/${target.repo}`;
  const watch = target.deliveries;
  const secret = `contracts-${randomBytes(18).toString('hex')}`;
  context.addSecret(secret);
  const waitMs = target.deliveryWaitMs ?? 10_000;
  // Two hooks may share a config only if their events do not overlap (seed): A and B get different URLs.
  const urlA = `${target.hookUrl}&hook=a`;
  const urlB = `${target.hookUrl}&hook=b`;
  const configB = { url: urlB, content_type: 'json', secret, insecure_ssl: '0' };
  // The receiver tells the hooks' deliveries apart by the marker and hook letter in the URL they came to.
  const keyA = `${marker}&hook=a`;
  const keyB = `${marker}&hook=b`;
  watch?.expect(keyA, { secret: null, contentType: 'json' });
  watch?.expect(keyB, { secret, contentType: 'json' });
  const block = (reason: string) => context.results.unexercisedPending(context.api, reason);

  // Hook A: created without events, to see them default to push; then updated three ways.
  const a = await calls.create({ name: 'web', active: true, config: { url: urlA, content_type: 'json' } });
  const aId = a.status === 201 ? idOf(a.json) : undefined;
  if (aId !== undefined) created.add(aId);
  if (aId === undefined) {
    const reason =
      a.status === 201
        ? `createWebhook answered 201 without an integer id for ${where}, so the hook cannot be addressed`
        : `createWebhook answered ${a.status} for ${where}: ${createHint(a.status, context)}`;
    return block(reason);
  }
  judge(context, 'createWebhook', 'events_default_push', eventsDefaultPush('createWebhook', a.json));
  const readA = await calls.get(aId);
  judge(context, 'createWebhook', 'hook_addressable', hookAddressable('createWebhook', aId, readA.status, readA.json));

  // Hook B: a secret and events [push]; pinged and tested so it has deliveries.
  const b = await calls.create({ name: 'web', active: true, events: ['push'], config: configB });
  judgeOn(context, b, 'createWebhook', 'secret_masked', () =>
    secretMasked('createWebhook', secret, b.exchange.body, b.json),
  );
  const bId = b.status === 201 ? idOf(b.json) : undefined;
  if (bId === undefined)
    return block(
      `the second createWebhook (events [push], with a secret) answered ${b.status}${b.status === 201 ? ' without an integer id' : ''}`,
    );
  created.add(bId);
  const shared = await calls.create({ name: 'web', active: true, events: ['push'], config: configB });
  const sharedId = shared.status === 201 ? idOf(shared.json) : undefined;
  if (sharedId !== undefined) created.add(sharedId);
  judge(context, 'createWebhook', 'shared_config_refused', sharedConfigRefused('createWebhook', shared.status));

  // The hook list, now that it holds at least two hooks.
  const allHooks = await calls.list({ per_page: 100 });
  const firstPage = await perPageProbe(context, 'listWebhooks', (query, probe) => calls.list(query, probe));
  await pagination(
    context,
    'listWebhooks',
    allHooks,
    firstPage,
    async () => {
      const second = await calls.list({ per_page: 1, page: 2 });
      judge(
        context,
        'listWebhooks',
        'page_parameter',
        pageParameter('listWebhooks', firstPage.json, second.status, second.json),
      );
    },
    'hooks',
  );

  // Hook B's secret is never returned in clear; its config endpoints return only the config.
  const readB = await calls.get(bId);
  judgeOn(context, readB, 'getWebhook', 'secret_masked', () =>
    secretMasked('getWebhook', secret, readB.exchange.body, readB.json),
  );
  const config = await calls.getConfig(bId);
  judgeOn(context, config, 'getWebhookConfig', 'secret_masked', () =>
    secretMasked('getWebhookConfig', secret, config.exchange.body, config.json),
  );
  judgeOn(context, config, 'getWebhookConfig', 'config_only', () => configOnly('getWebhookConfig', config.json));
  const changed = await calls.updateConfig(bId, { url: urlB, content_type: 'json', secret });
  judgeOn(context, changed, 'updateWebhookConfig', 'secret_masked', () =>
    secretMasked('updateWebhookConfig', secret, changed.exchange.body, changed.json),
  );
  judgeOn(context, changed, 'updateWebhookConfig', 'config_only', () =>
    configOnly('updateWebhookConfig', changed.json),
  );

  // Hook A's events, from the default [push]: a replace gives [pull_request] where an append would give both.
  const replaced = await calls.update(aId, { events: ['pull_request'] });
  judgeOn(context, replaced, 'updateWebhook', 'events_replace', () =>
    eventsReplace('updateWebhook', ['pull_request'], replaced.json),
  );
  const added = await calls.update(aId, { add_events: ['issues'] });
  judgeOn(context, added, 'updateWebhook', 'add_events', () =>
    addEvents('updateWebhook', eventsOf(replaced.json), ['issues'], added.json),
  );
  const removed = await calls.update(aId, { remove_events: ['pull_request'] });
  judgeOn(context, removed, 'updateWebhook', 'remove_events', () =>
    removeEvents('updateWebhook', eventsOf(added.json), ['pull_request'], removed.json),
  );

  // Rule 3, first half: an update whose config carries the secret keeps it.
  await secretAfterUpdate(context, calls, bId, { url: urlB, content_type: 'json', secret }, true);

  // Deliveries: a ping and a test on B, a test on A (not subscribed to push).
  const poll = (hookId: number, done: (list: unknown) => boolean) =>
    pollUntil(
      () => calls.listDeliveries(hookId, { per_page: 100 }),
      (o) => isSuccess(o.status) && done(o.json),
      waitMs,
    );
  const initial = await calls.listDeliveries(bId, { per_page: 100 });
  if (!isSuccess(initial.status)) return block(`listing the deliveries of hook ${bId} answered ${initial.status}`);
  // A delivery must arrive within --delivery-wait of the call that triggers it: what the API polls took counts.
  const left = (since: number) => Math.max(0, since + waitMs - Date.now());
  const beforePing = watch?.mark() ?? 0;
  const pingAt = Date.now();
  const ping = await calls.ping(bId);
  let afterPing = initial;
  let pingArrival: StoredDelivery | undefined;
  if (ping.status !== 204)
    unexercised(
      context,
      'pingWebhook',
      ['ping_delivery', 'ping_delivered', ...deliveryChecks],
      `pingWebhook answered ${ping.status}`,
    );
  else {
    afterPing = (await poll(bId, (list) => newItems(initial.json, list).some((item) => item.event === 'ping'))).value;
    judge(context, 'pingWebhook', 'ping_delivery', pingDelivery('pingWebhook', initial.json, afterPing.json, waitMs));
    if (watch) {
      pingArrival = await watch.next(keyB, beforePing, left(pingAt));
      judge(
        context,
        'pingWebhook',
        'ping_delivered',
        pingDelivered('pingWebhook', `hook B (${bId})`, pingArrival && arrivedOf(pingArrival), waitMs, watch.hint()),
      );
      judgeArrivals(
        context,
        'pingWebhook',
        watch.since(keyB, beforePing),
        `no delivery arrived at the receiver for hook B (${bId}) within ${waitMs} ms of its ping`,
      );
    }
  }
  const beforeTest = watch?.mark() ?? 0;
  const testAt = Date.now();
  const test = await calls.test(bId);
  let afterTest = afterPing;
  let pushLatencyMs = waitMs;
  if (test.status !== 204)
    unexercised(
      context,
      'testPushWebhook',
      ['test_push_delivery', 'test_delivered', ...deliveryChecks],
      `testPushWebhook answered ${test.status} for a hook subscribed to push`,
    );
  else {
    const polled = await poll(bId, (list) => newItems(afterPing.json, list).some((item) => item.event === 'push'));
    afterTest = polled.value;
    pushLatencyMs = polled.elapsedMs;
    judge(
      context,
      'testPushWebhook',
      'test_push_delivery',
      testPushDelivery('testPushWebhook', afterPing.json, afterTest.json, waitMs),
    );
    if (watch) {
      const arrival = await watch.next(keyB, beforeTest, left(testAt));
      judge(
        context,
        'testPushWebhook',
        'test_delivered',
        testDelivered('testPushWebhook', `hook B (${bId})`, arrival && arrivedOf(arrival), waitMs),
      );
      judgeArrivals(
        context,
        'testPushWebhook',
        watch.since(keyB, beforeTest),
        `no delivery arrived at the receiver for hook B (${bId}) within ${waitMs} ms of its test`,
      );
    }
  }
  const beforeTestA = watch?.mark() ?? 0;
  const unsubscribedWaitMs = Math.min(waitMs, 2 * pushLatencyMs + 500);
  const testedA = await testUnsubscribed(context, calls, aId, eventsOf(removed.json), unsubscribedWaitMs);
  if (watch) {
    judge(
      context,
      'testPushWebhook',
      'test_delivered',
      testedA
        ? testNotDelivered(
            'testPushWebhook',
            `hook A (${aId})`,
            watch.since(keyA, beforeTestA).map(arrivedOf),
            unsubscribedWaitMs,
          )
        : [
            behaviourFinding(
              'test_delivered',
              'testPushWebhook',
              `could not be exercised for a hook not subscribed to push: hook A (${aId}) could not be made one (see test_skips_unsubscribed)`,
            ),
          ],
    );
    // Hook A has no secret: its ping shows whether a delivery to such a hook comes unsigned (delivery_signature).
    const beforePingA = watch.mark();
    const pingAAt = Date.now();
    const pingA = await calls.ping(aId);
    if (pingA.status !== 204)
      unexercised(
        context,
        'pingWebhook',
        ['ping_delivered', ...deliveryChecks],
        `pingWebhook answered ${pingA.status} for hook A (${aId}), which has no secret`,
      );
    else {
      const arrival = await watch.next(keyA, beforePingA, left(pingAAt));
      judge(
        context,
        'pingWebhook',
        'ping_delivered',
        pingDelivered('pingWebhook', `hook A (${aId})`, arrival && arrivedOf(arrival), waitMs),
      );
      if (arrival) judgeArrivals(context, 'pingWebhook', watch.since(keyA, beforePingA), '');
    }
  }

  // Paging and reading the deliveries B now has.
  const deliveryControl = await perPageProbe(context, 'listWebhookDeliveries', (query, probe) =>
    calls.listDeliveries(bId, query, probe),
  );
  await pagination(
    context,
    'listWebhookDeliveries',
    afterTest,
    deliveryControl,
    () => cursorCheck(context, calls, bId, afterTest, deliveryControl),
    'deliveries',
  );
  const pingFound = idOf(newItems(initial.json, afterPing.json).find((item) => item.event === 'ping'));
  const pingId = pingFound ?? idsOf(afterTest.json).find((id): id is number => typeof id === 'number');
  if (pingId === undefined) {
    const reason = `no delivery appeared for hook ${bId} within ${waitMs} ms of a ping and a test`;
    context.results.unexercisedPending(context.api, reason, 'getWebhookDelivery');
    context.results.unexercisedPending(context.api, reason, 'redeliverWebhookDelivery');
  } else {
    const detail = await calls.getDelivery(bId, pingId);
    judgeOn(context, detail, 'getWebhookDelivery', 'delivery_request_headers', () =>
      deliveryRequestHeaders('getWebhookDelivery', bId, true, detail.json),
    );
    if (watch) {
      if (pingFound === undefined || !pingArrival)
        unexercised(
          context,
          'getWebhookDelivery',
          ['delivery_record_matches'],
          pingFound === undefined
            ? `no ping delivery of hook B (${bId}) was listed to read`
            : `hook B's ping never arrived at the receiver, so there is nothing to compare its record with`,
        );
      else
        judgeOn(context, detail, 'getWebhookDelivery', 'delivery_record_matches', () =>
          deliveryRecordMatches('getWebhookDelivery', detail.json, arrivedOf(pingArrival!)),
        );
    }
    const known = await calls.listDeliveries(bId, { per_page: 100 });
    const beforeRedeliver = watch?.mark() ?? 0;
    const redeliverAt = Date.now();
    const redeliver = await calls.redeliver(bId, pingId);
    if (redeliver.status !== 202)
      unexercised(
        context,
        'redeliverWebhookDelivery',
        ['redelivery_flag', 'redelivery_delivered', ...deliveryChecks],
        `redeliverWebhookDelivery answered ${redeliver.status}, not 202`,
      );
    else {
      const after = (await poll(bId, (list) => newItems(known.json, list).length > 0)).value;
      judge(
        context,
        'redeliverWebhookDelivery',
        'redelivery_flag',
        redeliveryFlag('redeliverWebhookDelivery', known.json, after.json),
      );
      if (watch) {
        const again = await watch.next(keyB, beforeRedeliver, left(redeliverAt));
        if (pingFound === undefined || !pingArrival)
          unexercised(
            context,
            'redeliverWebhookDelivery',
            ['redelivery_delivered'],
            `the redelivered delivery is not hook B's ping as it arrived, so there is nothing to compare with`,
          );
        else
          judge(
            context,
            'redeliverWebhookDelivery',
            'redelivery_delivered',
            redeliveryDelivered('redeliverWebhookDelivery', arrivedOf(pingArrival), again && arrivedOf(again), waitMs),
          );
        judgeArrivals(
          context,
          'redeliverWebhookDelivery',
          watch.since(keyB, beforeRedeliver),
          `no delivery arrived at the receiver for hook B (${bId}) within ${waitMs} ms of the redelivery`,
        );
      }
    }
  }

  // Rule 3, second half: an update whose config leaves the secret out removes it.
  await secretAfterUpdate(context, calls, bId, { url: urlB, content_type: 'json' }, false);

  // A deleted hook is not found; the read of A before (hook_addressable) is the control.
  const deleted = await calls.remove(aId);
  if (deleted.status === 204) created.delete(aId);
  if (deleted.status !== 204)
    unexercised(context, 'getWebhook', ['deleted_hook_404'], `deleteWebhook answered ${deleted.status}`);
  else if (readA.status !== 200)
    unexercised(
      context,
      'getWebhook',
      ['deleted_hook_404'],
      `hook ${aId} answered ${readA.status} before it was deleted, so a 404 after would prove nothing`,
    );
  else {
    const gone = await calls.get(aId);
    judge(context, 'getWebhook', 'deleted_hook_404', deletedHook404('getWebhook', gone.status));
  }
  for (const hookId of [bId, ...(sharedId === undefined ? [] : [sharedId])]) {
    const removedHook = await calls.remove(hookId);
    if (removedHook.status === 204) created.delete(hookId);
  }
}

/** Updates hook `hookId` with `config` (endpoint 9), then reads its config to see whether the secret stayed. */
async function secretAfterUpdate(
  context: SequenceContext,
  calls: WebhooksCalls,
  hookId: number,
  config: { url: string; content_type: string; secret?: string },
  sent: boolean,
): Promise<void> {
  const updated = await calls.update(hookId, { config });
  if (!isSuccess(updated.status))
    return unexercised(
      context,
      'updateWebhook',
      ['secret_removed_unless_resent'],
      `updateWebhook with a config answered ${updated.status}`,
    );
  const read = await calls.getConfig(hookId);
  judge(
    context,
    'updateWebhook',
    'secret_removed_unless_resent',
    secretRemovedUnlessResent('updateWebhook', sent, read.status, read.json),
  );
}

/** A test on hook A, which is not subscribed to push: 204, and no delivery after waiting `waitMs`. Says whether the test was made. */
async function testUnsubscribed(
  context: SequenceContext,
  calls: WebhooksCalls,
  hookId: number,
  events: string[],
  waitMs: number,
): Promise<boolean> {
  const check = 'test_skips_unsubscribed';
  if (events.includes('push')) {
    unexercised(
      context,
      'testPushWebhook',
      [check],
      `hook ${hookId} is still subscribed to push (events ${JSON.stringify(events)})`,
    );
    return false;
  }
  const before = await calls.listDeliveries(hookId, { per_page: 100 });
  if (!isSuccess(before.status)) {
    unexercised(
      context,
      'testPushWebhook',
      [check],
      `listing the deliveries of hook ${hookId} answered ${before.status}`,
    );
    return false;
  }
  const test = await calls.test(hookId);
  await sleep(waitMs);
  const after = await calls.listDeliveries(hookId, { per_page: 100 });
  judgeOn(context, after, 'testPushWebhook', check, () =>
    testSkipsUnsubscribed('testPushWebhook', test.status, before.json, after.json),
  );
  return true;
}

async function pollUntil<T>(
  get: () => Promise<T>,
  done: (value: T) => boolean,
  waitMs: number,
): Promise<{ value: T; elapsedMs: number }> {
  const started = Date.now();
  let value = await get();
  while (!done(value) && Date.now() - started < waitMs) {
    await sleep(250);
    value = await get();
  }
  return { value, elapsedMs: Date.now() - started };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pendingOf = (context: SequenceContext, operationId: string): CheckName[] =>
  context.results.pendingChecks(context.api, operationId);
const eventsOf = (body: unknown): string[] => eventsIn(body) ?? [];
