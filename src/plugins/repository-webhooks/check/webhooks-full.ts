// The full webhooks sequence (staging, sandbox): every seed rule of core/behaviour/seed-rules.ts, in steps that each
// exercise a few rules on the hooks the run made. Hook A is made without events and without a secret, hook B with
// events [push] and a secret, and a third hook tries to share B's config. Deliveries are triggered on B (ping, test,
// redelivery) and on A (a test it is not subscribed to, a ping it gets unsigned). The caller deletes what is left.
import { randomBytes } from 'node:crypto';
import {
  addEvents,
  configOnly,
  deletedHook404,
  deliveryRecordMatches,
  deliveryRequestHeaders,
  eventsDefaultPush,
  eventsReplace,
  hookAddressable,
  idOf,
  idsOf,
  isSuccess,
  newItems,
  pingDelivered,
  pingDelivery,
  redeliveryDelivered,
  redeliveryFlag,
  removeEvents,
  secretMasked,
  secretRemovedUnlessResent,
  sharedConfigRefused,
  testDelivered,
  testNotDelivered,
  testPushDelivery,
  testSkipsUnsubscribed,
} from '../behaviour/index.js';
import { behaviourFinding, eventsOf as eventsIn } from '../behaviour/behaviour-finding.js';
import type { StoredDelivery } from '../../../receiver/start-receiver.js';
import { judge, unexercised, type Observed, type SequenceContext } from '../../../runner/sequence-context.js';
import { arrivedOf, deliveryChecks, judgeArrivals, type DeliveryWatch } from './delivery-watch.js';
import type { WebhooksCalls } from './webhooks-calls.js';
import { deliveryListPaging, hookListPaging, judgeOn } from './webhooks-lists.js';

export interface FullTarget {
  owner: string;
  repo: string;
  /** config.url of the hooks, with the run's marker. */
  hookUrl: string;
  deliveries?: DeliveryWatch;
  deliveryWaitMs?: number;
}

/** The hooks the sequence works on, once made. */
interface Hooks {
  aId: number;
  /** Hook A read back right after its create: the control of deleted_hook_404. */
  readA: Observed;
  bId: number;
  sharedId: number | undefined;
}

/** Hook B's deliveries after its ping and its test. */
interface Delivered {
  initial: Observed;
  afterPing: Observed;
  afterTest: Observed;
  /** Hook B's ping as it arrived at the receiver. */
  pingArrival: StoredDelivery | undefined;
}

/** Runs the full sequence, adding each hook it makes to `created` (and taking it out once deleted). */
export async function runFull(
  context: SequenceContext,
  calls: WebhooksCalls,
  target: FullTarget,
  created: Set<number>,
  marker: string,
): Promise<void> {
  await new FullRun(context, calls, target, created, marker).run();
}

class FullRun {
  private readonly where: string;
  private readonly watch: DeliveryWatch | undefined;
  private readonly secret = `contracts-${randomBytes(18).toString('hex')}`;
  private readonly waitMs: number;
  // Two hooks may share a config only if their events do not overlap (seed): A and B get different URLs.
  private readonly urlA: string;
  private readonly urlB: string;
  // The receiver tells the hooks' deliveries apart by the marker and hook letter in the URL they came to.
  private readonly keyA: string;
  private readonly keyB: string;

  constructor(
    private readonly context: SequenceContext,
    private readonly calls: WebhooksCalls,
    target: FullTarget,
    private readonly created: Set<number>,
    marker: string,
  ) {
    this.where = `${target.owner}/${target.repo}`;
    this.watch = target.deliveries;
    context.addSecret(this.secret);
    this.waitMs = target.deliveryWaitMs ?? 10_000;
    this.urlA = `${target.hookUrl}&hook=a`;
    this.urlB = `${target.hookUrl}&hook=b`;
    this.keyA = `${marker}&hook=a`;
    this.keyB = `${marker}&hook=b`;
    this.watch?.expect(this.keyA, { secret: null, contentType: 'json' });
    this.watch?.expect(this.keyB, { secret: this.secret, contentType: 'json' });
  }

  async run(): Promise<void> {
    const hooks = await this.createHooks();
    if (!hooks) return;
    const { aId, bId } = hooks;
    await hookListPaging(this.context, this.calls, await this.calls.list({ per_page: 100 }));
    await this.secretAndConfig(bId);
    const eventsA = await this.updateEvents(aId);
    // Rule 3, first half: an update whose config carries the secret keeps it.
    await this.secretAfterUpdate(bId, true);
    const delivered = await this.deliveries(aId, bId, eventsA);
    if (!delivered) return;
    await deliveryListPaging(this.context, this.calls, bId, delivered.afterTest);
    await this.readAndRedeliver(bId, delivered);
    // Rule 3, second half: an update whose config leaves the secret out removes it.
    await this.secretAfterUpdate(bId, false);
    await this.deleteHooks(hooks);
  }

  /** Stops the sequence: every check not judged yet could not be exercised, for `reason`. */
  private block(reason: string): undefined {
    this.context.results.unexercisedPending(this.context.api, reason);
    return undefined;
  }

  /** Hook B's config as created (and as the hook that tries to share it is created). */
  private configB() {
    return { url: this.urlB, content_type: 'json', secret: this.secret, insecure_ssl: '0' };
  }

  /** Hook A (no events: they default to push), hook B (a secret, events [push]), and a third on B's config. */
  private async createHooks(): Promise<Hooks | undefined> {
    const { context, calls, created } = this;
    const a = await calls.create({ name: 'web', active: true, config: { url: this.urlA, content_type: 'json' } });
    const aId = a.status === 201 ? idOf(a.json) : undefined;
    if (aId === undefined)
      return this.block(
        a.status === 201
          ? `createWebhook answered 201 without an integer id for ${this.where}, so the hook cannot be addressed`
          : `createWebhook answered ${a.status} for ${this.where}: ${createHint(a.status, context)}`,
      );
    created.add(aId);
    judge(context, 'createWebhook', 'events_default_push', eventsDefaultPush('createWebhook', a.json));
    const readA = await calls.get(aId);
    judge(
      context,
      'createWebhook',
      'hook_addressable',
      hookAddressable('createWebhook', aId, readA.status, readA.json),
    );

    const b = await calls.create({ name: 'web', active: true, events: ['push'], config: this.configB() });
    judgeOn(context, b, 'createWebhook', 'secret_masked', () =>
      secretMasked('createWebhook', this.secret, b.exchange.body, b.json),
    );
    const bId = b.status === 201 ? idOf(b.json) : undefined;
    if (bId === undefined)
      return this.block(
        `the second createWebhook (events [push], with a secret) answered ${b.status}${b.status === 201 ? ' without an integer id' : ''}`,
      );
    created.add(bId);
    const shared = await calls.create({ name: 'web', active: true, events: ['push'], config: this.configB() });
    const sharedId = shared.status === 201 ? idOf(shared.json) : undefined;
    if (sharedId !== undefined) created.add(sharedId);
    judge(context, 'createWebhook', 'shared_config_refused', sharedConfigRefused('createWebhook', shared.status));
    return { aId, readA, bId, sharedId };
  }

  /** Hook B's secret is never returned in clear; its config endpoints return only the config. */
  private async secretAndConfig(bId: number): Promise<void> {
    const { context, calls, secret } = this;
    const readB = await calls.get(bId);
    judgeOn(context, readB, 'getWebhook', 'secret_masked', () =>
      secretMasked('getWebhook', secret, readB.exchange.body, readB.json),
    );
    const config = await calls.getConfig(bId);
    judgeOn(context, config, 'getWebhookConfig', 'secret_masked', () =>
      secretMasked('getWebhookConfig', secret, config.exchange.body, config.json),
    );
    judgeOn(context, config, 'getWebhookConfig', 'config_only', () => configOnly('getWebhookConfig', config.json));
    const changed = await calls.updateConfig(bId, { url: this.urlB, content_type: 'json', secret });
    judgeOn(context, changed, 'updateWebhookConfig', 'secret_masked', () =>
      secretMasked('updateWebhookConfig', secret, changed.exchange.body, changed.json),
    );
    judgeOn(context, changed, 'updateWebhookConfig', 'config_only', () =>
      configOnly('updateWebhookConfig', changed.json),
    );
  }

  /** Hook A's events, from the default [push]: a replace gives [pull_request] where an append would give both. */
  private async updateEvents(aId: number): Promise<string[]> {
    const { context, calls } = this;
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
    return eventsOf(removed.json);
  }

  /** Updates hook B's config with or without the secret (endpoint 9), then reads it to see whether the secret stayed. */
  private async secretAfterUpdate(bId: number, sent: boolean): Promise<void> {
    const config = { url: this.urlB, content_type: 'json', ...(sent ? { secret: this.secret } : {}) };
    const updated = await this.calls.update(bId, { config });
    if (!isSuccess(updated.status))
      return unexercised(
        this.context,
        'updateWebhook',
        ['secret_removed_unless_resent'],
        `updateWebhook with a config answered ${updated.status}`,
      );
    const read = await this.calls.getConfig(bId);
    judge(
      this.context,
      'updateWebhook',
      'secret_removed_unless_resent',
      secretRemovedUnlessResent('updateWebhook', sent, read.status, read.json),
    );
  }

  /** A ping and a test on B, a test on A (not subscribed to push), a ping on A (no secret). */
  private async deliveries(aId: number, bId: number, eventsA: string[]): Promise<Delivered | undefined> {
    const initial = await this.calls.listDeliveries(bId, { per_page: 100 });
    if (!isSuccess(initial.status))
      return this.block(`listing the deliveries of hook ${bId} answered ${initial.status}`);
    const { afterPing, pingArrival } = await this.pingB(bId, initial);
    const { afterTest, pushLatencyMs } = await this.testB(bId, afterPing);
    await this.testA(aId, eventsA, Math.min(this.waitMs, 2 * pushLatencyMs + 500));
    await this.pingA(aId);
    return { initial, afterPing, afterTest, pingArrival };
  }

  /** Polls hook `hookId`'s delivery list until `done` or the delivery wait is over. */
  private poll(hookId: number, done: (list: unknown) => boolean) {
    return pollUntil(
      () => this.calls.listDeliveries(hookId, { per_page: 100 }),
      (o) => isSuccess(o.status) && done(o.json),
      this.waitMs,
    );
  }

  /** What is left of the delivery wait begun at `since`: what the API polls took counts. */
  private left(since: number): number {
    return Math.max(0, since + this.waitMs - Date.now());
  }

  private async pingB(
    bId: number,
    initial: Observed,
  ): Promise<{ afterPing: Observed; pingArrival: StoredDelivery | undefined }> {
    const { context, watch, waitMs } = this;
    const before = watch?.mark() ?? 0;
    const at = Date.now();
    const ping = await this.calls.ping(bId);
    if (ping.status !== 204) {
      const checks = ['ping_delivery', 'ping_delivered', ...deliveryChecks] as const;
      unexercised(context, 'pingWebhook', [...checks], `pingWebhook answered ${ping.status}`);
      return { afterPing: initial, pingArrival: undefined };
    }
    const afterPing = (
      await this.poll(bId, (list) => newItems(initial.json, list).some((item) => item.event === 'ping'))
    ).value;
    judge(context, 'pingWebhook', 'ping_delivery', pingDelivery('pingWebhook', initial.json, afterPing.json, waitMs));
    if (!watch) return { afterPing, pingArrival: undefined };
    const pingArrival = await watch.next(this.keyB, before, this.left(at));
    judge(
      context,
      'pingWebhook',
      'ping_delivered',
      pingDelivered('pingWebhook', `hook B (${bId})`, pingArrival && arrivedOf(pingArrival), waitMs, watch.hint()),
    );
    judgeArrivals(
      context,
      'pingWebhook',
      watch.since(this.keyB, before),
      `no delivery arrived at the receiver for hook B (${bId}) within ${waitMs} ms of its ping`,
    );
    return { afterPing, pingArrival };
  }

  private async testB(bId: number, afterPing: Observed): Promise<{ afterTest: Observed; pushLatencyMs: number }> {
    const { context, watch, waitMs } = this;
    const before = watch?.mark() ?? 0;
    const at = Date.now();
    const test = await this.calls.test(bId);
    if (test.status !== 204) {
      unexercised(
        context,
        'testPushWebhook',
        ['test_push_delivery', 'test_delivered', ...deliveryChecks],
        `testPushWebhook answered ${test.status} for a hook subscribed to push`,
      );
      return { afterTest: afterPing, pushLatencyMs: waitMs };
    }
    const polled = await this.poll(bId, (list) => newItems(afterPing.json, list).some((item) => item.event === 'push'));
    const afterTest = polled.value;
    judge(
      context,
      'testPushWebhook',
      'test_push_delivery',
      testPushDelivery('testPushWebhook', afterPing.json, afterTest.json, waitMs),
    );
    if (watch) {
      const arrival = await watch.next(this.keyB, before, this.left(at));
      judge(
        context,
        'testPushWebhook',
        'test_delivered',
        testDelivered('testPushWebhook', `hook B (${bId})`, arrival && arrivedOf(arrival), waitMs),
      );
      judgeArrivals(
        context,
        'testPushWebhook',
        watch.since(this.keyB, before),
        `no delivery arrived at the receiver for hook B (${bId}) within ${waitMs} ms of its test`,
      );
    }
    return { afterTest, pushLatencyMs: polled.elapsedMs };
  }

  /** A test on hook A, not subscribed to push: 204, and no delivery listed or arriving within `waitMs`. */
  private async testA(aId: number, events: string[], waitMs: number): Promise<void> {
    const before = this.watch?.mark() ?? 0;
    const tested = await testUnsubscribed(this.context, this.calls, aId, events, waitMs);
    if (!this.watch) return;
    judge(
      this.context,
      'testPushWebhook',
      'test_delivered',
      tested
        ? testNotDelivered(
            'testPushWebhook',
            `hook A (${aId})`,
            this.watch.since(this.keyA, before).map(arrivedOf),
            waitMs,
          )
        : [
            behaviourFinding(
              'test_delivered',
              'testPushWebhook',
              `could not be exercised for a hook not subscribed to push: hook A (${aId}) could not be made one (see test_skips_unsubscribed)`,
            ),
          ],
    );
  }

  /** Hook A has no secret: its ping shows whether a delivery to such a hook comes unsigned (delivery_signature). */
  private async pingA(aId: number): Promise<void> {
    const { context, watch } = this;
    if (!watch) return;
    const before = watch.mark();
    const at = Date.now();
    const ping = await this.calls.ping(aId);
    if (ping.status !== 204)
      return unexercised(
        context,
        'pingWebhook',
        ['ping_delivered', ...deliveryChecks],
        `pingWebhook answered ${ping.status} for hook A (${aId}), which has no secret`,
      );
    const arrival = await watch.next(this.keyA, before, this.left(at));
    judge(
      context,
      'pingWebhook',
      'ping_delivered',
      pingDelivered('pingWebhook', `hook A (${aId})`, arrival && arrivedOf(arrival), this.waitMs),
    );
    if (arrival) judgeArrivals(context, 'pingWebhook', watch.since(this.keyA, before), '');
  }

  /** Reads hook B's ping delivery (its record against what arrived), then redelivers it. */
  private async readAndRedeliver(bId: number, delivered: Delivered): Promise<void> {
    const { context, calls, watch } = this;
    const { initial, afterPing, afterTest, pingArrival } = delivered;
    const pingFound = idOf(newItems(initial.json, afterPing.json).find((item) => item.event === 'ping'));
    const pingId = pingFound ?? idsOf(afterTest.json).find((id): id is number => typeof id === 'number');
    if (pingId === undefined) {
      const reason = `no delivery appeared for hook ${bId} within ${this.waitMs} ms of a ping and a test`;
      context.results.unexercisedPending(context.api, reason, 'getWebhookDelivery');
      context.results.unexercisedPending(context.api, reason, 'redeliverWebhookDelivery');
      return;
    }
    const detail = await calls.getDelivery(bId, pingId);
    judgeOn(context, detail, 'getWebhookDelivery', 'delivery_request_headers', () =>
      deliveryRequestHeaders('getWebhookDelivery', bId, true, detail.json),
    );
    // The ping as it arrived, when the listed delivery read is the ping that arrived.
    const arrived = pingFound !== undefined && pingArrival ? arrivedOf(pingArrival) : undefined;
    if (watch) {
      if (!arrived)
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
          deliveryRecordMatches('getWebhookDelivery', detail.json, arrived),
        );
    }
    await this.redeliver(bId, pingId, arrived);
  }

  private async redeliver(bId: number, pingId: number, arrived: ReturnType<typeof arrivedOf> | undefined) {
    const { context, calls, watch, waitMs } = this;
    const known = await calls.listDeliveries(bId, { per_page: 100 });
    const before = watch?.mark() ?? 0;
    const at = Date.now();
    const redeliver = await calls.redeliver(bId, pingId);
    if (redeliver.status !== 202)
      return unexercised(
        context,
        'redeliverWebhookDelivery',
        ['redelivery_flag', 'redelivery_delivered', ...deliveryChecks],
        `redeliverWebhookDelivery answered ${redeliver.status}, not 202`,
      );
    const after = (await this.poll(bId, (list) => newItems(known.json, list).length > 0)).value;
    judge(
      context,
      'redeliverWebhookDelivery',
      'redelivery_flag',
      redeliveryFlag('redeliverWebhookDelivery', known.json, after.json),
    );
    if (!watch) return;
    const again = await watch.next(this.keyB, before, this.left(at));
    if (!arrived)
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
        redeliveryDelivered('redeliverWebhookDelivery', arrived, again && arrivedOf(again), waitMs),
      );
    judgeArrivals(
      context,
      'redeliverWebhookDelivery',
      watch.since(this.keyB, before),
      `no delivery arrived at the receiver for hook B (${bId}) within ${waitMs} ms of the redelivery`,
    );
  }

  /** A deleted hook is not found (the read of A after its create is the control); then B and the third go. */
  private async deleteHooks({ aId, readA, bId, sharedId }: Hooks): Promise<void> {
    const { context, calls, created } = this;
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
const eventsOf = (body: unknown): string[] => eventsIn(body) ?? [];
