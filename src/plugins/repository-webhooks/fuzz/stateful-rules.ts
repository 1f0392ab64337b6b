// The seed's rules a stateful step is judged on beyond the per-exchange checks, where the sequence so far makes them
// apply: the config endpoints return only the config (rule 1); a ping, a test on a push hook and a redelivery each
// produce a new delivery of their kind (rules 4-6, events 2 and 5); a hook may not share another's config with
// overlapping events (what the service does). The rules themselves are the core's pure functions (core/behaviour).
import { configOnly, pingDelivery, redeliveryFlag, sharedConfigRefused, testPushDelivery } from '../behaviour/index.js';
import type { CheckName, Finding } from '../../../core/finding.js';
import type { ApiTarget, CaseResult, Executor, Sent } from '../../../fuzz/executor.js';
import { deliveryChecks, type FuzzDeliveries } from './fuzz-deliveries.js';
import type { HookFixtures } from './hook-fixtures.js';
import type { Send } from './stateful.js';

export interface HookModel {
  id: number;
  events: string[];
  secret: string | undefined;
  deleted: boolean;
}

export interface RuleContext {
  executor: Executor;
  /** The run's hooks (hook-fixtures.ts). */
  fixtures: HookFixtures;
  target: ApiTarget;
  send: Send;
  judge: (result: CaseResult | undefined, extra?: Finding[]) => void;
  record: (operationId: string, check: CheckName, findings: Finding[]) => void;
  /** The embedded receiver, when one runs: the delivery checks apply. */
  deliveries?: FuzzDeliveries;
  /** How long a new delivery may take to show in the list and at the receiver (fuzz --delivery-wait). */
  deliveryWaitMs: number;
  /** Adds a request the rules sent themselves (a delivery list read while waiting) to the sequence's steps. */
  noteStep?: (sent: Sent) => void;
}

/** How long a new delivery may take to show, unless --delivery-wait says: as long as the run's fixture delivery may. */
export const defaultDeliveryWaitMs = 5000;
const pollMs = 100;

type DeliveryRule = (operation: string, before: unknown, after: unknown, waitedMs: number) => Finding[];

/** The operations whose effect is a new delivery, the rule that judges it, and when the rule applies. */
const deliveryRules: Record<string, { check: CheckName; rule: DeliveryRule; applies: (hook: HookModel) => boolean }> = {
  pingWebhook: { check: 'ping_delivery', rule: pingDelivery, applies: () => true },
  // A test on a hook not subscribed to push produces nothing; proving "nothing" needs a wait this phase does not take.
  testPushWebhook: {
    check: 'test_push_delivery',
    rule: testPushDelivery,
    applies: (hook) => hook.events.includes('push'),
  },
  redeliverWebhookDelivery: {
    check: 'redelivery_flag',
    rule: (operation, before, after) => redeliveryFlag(operation, before, after),
    applies: () => true,
  },
};

/** What the rules need from before a step that triggers a delivery: the hook's deliveries, and the receiver's mark. */
export interface Before {
  list: unknown;
  mark: number | undefined;
}

/** Reads (and judges) the hook's deliveries right before a delivery is triggered; undefined where no rule applies. */
export async function ruleBefore(
  { send, deliveries }: RuleContext,
  operationId: string,
  hook: HookModel,
): Promise<Before | undefined> {
  if (!deliveryRules[operationId]?.applies(hook)) return undefined;
  const list = await send('listWebhookDeliveries', { path: { hook_id: hook.id } });
  return {
    list: list?.sent.exchange.status === 200 && Array.isArray(list.sent.json) ? list.sent.json : undefined,
    mark: deliveries?.mark(),
  };
}

/** The rule findings of a step's response (each also recorded as its check's judgement); [] where no rule applies. */
export async function ruleAfter(
  context: RuleContext,
  operationId: string,
  hook: HookModel,
  result: CaseResult,
  before: Before | undefined,
): Promise<Finding[]> {
  const status = result.sent.exchange.status;
  if ((operationId === 'getWebhookConfig' || operationId === 'updateWebhookConfig') && status === 200) {
    const findings = configOnly(operationId, result.sent.json);
    context.record(operationId, 'config_only', findings);
    return findings;
  }
  const delivery = deliveryRules[operationId];
  if (!delivery || before === undefined || status < 200 || status >= 300) return [];
  const findings: Finding[] = [];
  if (before.list !== undefined) {
    const recorded = await waitForDelivery(context, hook, operationId, (after, waited) =>
      delivery.rule(operationId, before.list, after, waited),
    );
    if (recorded) context.record(operationId, delivery.check, recorded);
    findings.push(...(recorded ?? []));
  }
  if (before.mark !== undefined) findings.push(...(await arrival(context, operationId, hook, before.mark)));
  return findings;
}

/**
 * delivery_signature, delivery_headers, delivery_payload_schema: what the receiver found in the delivery this step
 * triggered (signed with the hook's secret, or not at all). Nothing arrived: the checks were kept from running.
 */
async function arrival(
  { executor, fixtures, target, deliveries, record, deliveryWaitMs }: RuleContext,
  operationId: string,
  hook: HookModel,
  mark: number,
): Promise<Finding[]> {
  const hookUrl = fixtures.ownHooks.get(hook.id);
  if (!deliveries || !hookUrl) return [];
  // As for the list (waitForDelivery): after one full wait at the receiver came to nothing, later ones are short.
  const spent = fixtures.deliveryWaitsSpent.has(`arrival ${operationId}`);
  const wait = spent ? Math.min(deliveryWaitMs, shortWaitMs) : deliveryWaitMs;
  const arrived = await deliveries.next(hookUrl, mark, wait, () => executor.expired);
  if (executor.expired) return [];
  if (!arrived && !spent) fixtures.deliveryWaitsSpent.add(`arrival ${operationId}`);
  if (!arrived) {
    for (const check of deliveryChecks)
      executor.options.results.unexercised(
        target.api,
        operationId,
        check,
        `no delivery arrived at the receiver within ${deliveryWaitMs} ms of the ${operationId} (2xx)${deliveries.hint()}`,
      );
    return [];
  }
  const findings: Finding[] = [];
  for (const check of deliveryChecks) {
    if (!arrived.result.applied.includes(check)) continue;
    const own = arrived.result.findings
      .filter((finding) => finding.check === check)
      .map((finding) => ({ ...finding, operation: operationId }));
    record(operationId, check, own);
    findings.push(...own);
  }
  return findings;
}

/**
 * Reads the hook's deliveries until the rule holds or the wait is over; the last reading's findings. Undefined when
 * the run ended meanwhile (an interrupt or --max-time is no verdict on the target).
 */
async function waitForDelivery(
  { executor, fixtures, target, deliveryWaitMs, noteStep }: RuleContext,
  hook: HookModel,
  operationId: string,
  rule: (after: unknown, waitedMs: number) => Finding[],
): Promise<Finding[] | undefined> {
  const started = performance.now();
  // Once a full wait after this operation ended with the rule still broken, that failure is known: a later wait after
  // it is cut short (a sequence of pings against a target that never delivers waited in full each time).
  const budget = fixtures.deliveryWaitsSpent.has(operationId) ? Math.min(deliveryWaitMs, shortWaitMs) : deliveryWaitMs;
  for (;;) {
    if (executor.expired) return undefined;
    const list = await fixtures.call(target, 'listWebhookDeliveries', { path: { hook_id: hook.id } });
    noteStep?.(list);
    const waited = Math.round(performance.now() - started);
    const findings = rule(list.exchange.status === 200 ? list.json : [], waited);
    if (findings.length === 0) return findings;
    if (waited >= budget) {
      if (budget === deliveryWaitMs) fixtures.deliveryWaitsSpent.add(operationId);
      return findings;
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** How long a delivery is waited for after an operation whose full wait already came to nothing. */
const shortWaitMs = 300;

/**
 * A create that shares the config of an earlier live hook of the sequence (its url, which carries the run marker,
 * and its secret) with overlapping events (the same ones): the seed says it must be refused.
 */
export function sharedConfigRule(
  executor: Executor,
  fixtures: HookFixtures,
  hooks: readonly HookModel[],
  share: number,
):
  | {
      hook: HookModel;
      events: string[];
      body: Record<string, unknown>;
      judge: (result: CaseResult | undefined) => Finding[];
    }
  | undefined {
  const live = hooks.filter((hook) => !hook.deleted && hook.events.length > 0 && fixtures.ownHooks.get(hook.id));
  const hook = live[share % Math.max(live.length, 1)];
  if (!hook) return undefined;
  const events = [...hook.events];
  const body = {
    name: 'web',
    events,
    config: { url: fixtures.ownHooks.get(hook.id)!, ...(hook.secret ? { secret: hook.secret } : {}) },
  };
  return {
    hook,
    events,
    body,
    judge: (result) => {
      if (!result) return [];
      const findings = sharedConfigRefused('createWebhook', result.sent.exchange.status);
      executor.options.results.record(result.case.api, 'createWebhook', 'shared_config_refused', findings);
      return findings;
    },
  };
}
