// The stateful phase: random sequences over the webhooks API (create → get/update/delete/config/ping/test/
// deliveries), acting only on hooks the sequence itself created. Each step is judged like any case, plus the
// seed's rules across calls: events default to push, events/add_events/remove_events, the secret never in clear,
// a created hook is readable and listed, a deleted hook is 404 everywhere. fast-check shrinks a failing sequence
// to the shortest that still fails; every hook a sequence made is deleted when it ends.
import fc from 'fast-check';
import type { Finding } from '../core/finding.js';
import { type ApiTarget, type CaseResult, type Executor } from './executor.js';
import type { FuzzCase } from './fuzz-case.js';
import { eventsExpected, resourceAvailability, secretInClear, useAfterFree } from './fuzz-checks.js';
import type { RequestData } from './request-model.js';

const eventNames = ['push', 'pull_request', 'issues', 'release'] as const;
const events = fc.uniqueArray(fc.constantFrom(...eventNames), { maxLength: 3 });

export type Step =
  | { op: 'create'; events: string[] | undefined; secret: boolean }
  | { op: 'update'; hook: number; kind: 'events' | 'add_events' | 'remove_events'; events: string[] }
  | { op: 'updateConfig' | 'get' | 'getConfig' | 'ping' | 'test' | 'deliveries' | 'delete'; hook: number };

const hookIndex = fc.nat({ max: 3 });
export const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('create' as const), events: fc.option(events, { nil: undefined }), secret: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('update' as const), hook: hookIndex, kind: fc.constantFrom('events' as const, 'add_events' as const, 'remove_events' as const), events }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constantFrom('updateConfig' as const, 'get' as const, 'getConfig' as const, 'ping' as const, 'test' as const, 'deliveries' as const, 'delete' as const), hook: hookIndex }) },
);

const canonicalSequence: Step[] = [
  { op: 'create', events: undefined, secret: true },
  { op: 'ping', hook: 0 },
  { op: 'get', hook: 0 },
  { op: 'getConfig', hook: 0 },
  { op: 'update', hook: 0, kind: 'events', events: ['push', 'issues'] },
  { op: 'update', hook: 0, kind: 'add_events', events: ['release'] },
  { op: 'update', hook: 0, kind: 'remove_events', events: ['issues'] },
  { op: 'test', hook: 0 },
  { op: 'deliveries', hook: 0 },
  { op: 'updateConfig', hook: 0 },
  { op: 'delete', hook: 0 },
];

interface HookModel {
  id: number;
  events: string[];
  secret: string | undefined;
  deleted: boolean;
}

export interface StatefulOptions {
  seed: number;
  numRuns: number;
  maxShrinkRequests: number;
}

export async function runStateful(executor: Executor, target: ApiTarget, options: StatefulOptions): Promise<void> {
  let secrets = 0;
  // A round ends at the first new failure (fast-check then shrinks it); the next round goes on, so one broken rule
  // does not hide the next. Known failures no longer fail the property.
  for (let round = 0; round < 12 && !executor.expired; round++) {
    let shrinking = false;
    let shrinkSequences = 0;
    let found: CaseResult | undefined;
    const property = fc.asyncProperty(fc.array(stepArbitrary, { minLength: 1, maxLength: 12 }), async (steps) => {
      if (executor.expired || (shrinking && shrinkSequences++ >= options.maxShrinkRequests / 10)) return true;
      const failing = await executor.guarded(() => runSequence(executor, target, steps, () => `fuzz-secret-${executor.options.marker}-${++secrets}`), undefined);
      if (!failing) return true;
      shrinking = true;
      found = failing;
      return false;
    });
    // The first sequence is fixed: every rule exercised in one pass, whatever the seed; random ones follow.
    const details = await fc.check(property, { seed: options.seed + round, numRuns: options.numRuns, examples: [[canonicalSequence]] });
    executor.rethrow();
    if (!details.failed || !found) return;
    for (const failure of executor.newFailures(target, found)) executor.keep(failure);
  }
}

/** Runs one sequence; returns the first step result with a failure not seen before, if any. */
async function runSequence(executor: Executor, target: ApiTarget, steps: Step[], newSecret: () => string): Promise<CaseResult | undefined> {
  const hooks: HookModel[] = [];
  const done: string[] = [];
  let first: CaseResult | undefined;
  const judge = (result: CaseResult | undefined, extra: Finding[] = []): void => {
    if (!result) return;
    const secrets = hooks.flatMap((hook) => (hook.secret ? [hook.secret] : []));
    const leaks = secrets.flatMap((secret) => secretInClear(result.case.operationId, secret, result.sent.exchange.body));
    if (secrets.length > 0) executor.options.results.record(target.api, result.case.operationId, 'secret_masked', leaks);
    const all = { ...result, findings: [...result.findings, ...extra.filter((finding) => finding.severity === 'error'), ...leaks] };
    if (!first && executor.newFailures(target, all).length > 0) first = { ...all, case: { ...all.case, note: `${all.case.note}, after: ${done.join('; ') || 'nothing'}` } };
  };
  const send = (operationId: string, hook: HookModel | undefined, request: Partial<RequestData> = {}, keepCreated = false) => {
    const fuzzCase: FuzzCase = {
      api: target.api, operationId, phase: 'stateful', intent: 'positive', note: describe(operationId, request), keepCreated,
      request: { query: {}, headers: {}, ...request, path: { ...(hook ? { hook_id: hook.id } : {}), ...request.path } },
    };
    return executor.runCase(target, fuzzCase);
  };
  try {
    for (const step of steps) {
      if (executor.expired || first) break;
      if (step.op === 'create') {
        const secret = step.secret ? newSecret() : undefined;
        if (secret) executor.options.addSecret(secret);
        const body: Record<string, unknown> = { name: 'web', ...(step.events ? { events: step.events } : {}), config: { url: 'replaced', ...(secret ? { secret } : {}) } };
        const result = await send('createWebhook', undefined, { body }, true);
        const id = (result?.sent.json as { id?: unknown } | undefined)?.id;
        if (!result || result.sent.exchange.status !== 201 || typeof id !== 'number') {
          judge(result);
          continue;
        }
        const hook: HookModel = { id, events: step.events ? [...new Set(step.events)] : ['push'], secret, deleted: false };
        hooks.push(hook);
        const extra = step.events ? [] : eventsExpected('events_default_push', 'createWebhook', ['push'], (result.sent.json as { events?: unknown }).events);
        if (!step.events) executor.options.results.record(target.api, 'createWebhook', 'events_default_push', extra);
        judge(result, extra);
        done.push(`create hook #${hooks.length - 1}${step.events ? ` with events ${JSON.stringify(step.events)}` : ' without events'}${secret ? ' and a secret' : ''}`);
        judge(...(await availability(executor, target, hook, send)));
        continue;
      }
      const hook = hooks.length > 0 ? hooks[step.hook % hooks.length] : undefined;
      if (!hook) continue;
      const label = `#${hooks.indexOf(hook)}`;
      if (hook.deleted) {
        const operationId = { get: 'getWebhook', delete: 'deleteWebhook', ping: 'pingWebhook', test: 'testPushWebhook', update: 'updateWebhook' }[step.op as string];
        if (!operationId) continue;
        const result = await send(operationId, hook, operationId === 'updateWebhook' ? { body: { active: true } } : {});
        if (result) {
          const findings = useAfterFree(operationId, result.sent.exchange.status, hook.id);
          executor.options.results.record(target.api, operationId, 'use_after_free', findings);
          judge(result, findings);
        }
        done.push(`${step.op} deleted hook ${label}`);
        continue;
      }
      if (step.op === 'update') {
        const result = await send('updateWebhook', hook, { body: { [step.kind]: step.events } });
        if (result?.sent.exchange.status === 200) {
          const expected = step.kind === 'events' ? [...new Set(step.events)] : step.kind === 'add_events' ? [...new Set([...hook.events, ...step.events])] : hook.events.filter((event) => !step.events.includes(event));
          const check = step.kind === 'events' ? 'events_replace' : step.kind;
          const findings = eventsExpected(check, 'updateWebhook', expected, (result.sent.json as { events?: unknown } | undefined)?.events);
          executor.options.results.record(target.api, 'updateWebhook', check, findings);
          judge(result, findings);
          hook.events = expected;
        } else judge(result);
        done.push(`update hook ${label} ${step.kind} ${JSON.stringify(step.events)}`);
      } else if (step.op === 'delete') {
        const result = await send('deleteWebhook', hook);
        judge(result);
        done.push(`delete hook ${label}`);
        if (result?.sent.exchange.status === 204) {
          hook.deleted = true;
          executor.ownHooks.delete(hook.id);
          // use_after_free: right after the delete, the hook is gone for every operation that documents 404.
          for (const operationId of ['getWebhook', 'pingWebhook', 'testPushWebhook', 'updateWebhook', 'deleteWebhook']) {
            const probe = await send(operationId, hook, operationId === 'updateWebhook' ? { body: { active: true } } : {});
            if (!probe) continue;
            const findings = useAfterFree(operationId, probe.sent.exchange.status, hook.id);
            executor.options.results.record(target.api, operationId, 'use_after_free', findings);
            judge(probe, findings);
          }
        }
      } else {
        const operationId = { updateConfig: 'updateWebhookConfig', get: 'getWebhook', getConfig: 'getWebhookConfig', ping: 'pingWebhook', test: 'testPushWebhook', deliveries: 'listWebhookDeliveries' }[step.op];
        const result = await send(operationId, hook, step.op === 'updateConfig' ? { body: { content_type: 'json' } } : {});
        judge(result);
        done.push(`${step.op} hook ${label}`);
      }
    }
  } finally {
    for (const hook of hooks) if (!hook.deleted) await executor.deleteHook(target, hook.id);
  }
  return first;
}

type Send = (operationId: string, hook: HookModel | undefined, request?: Partial<RequestData>) => Promise<CaseResult | undefined>;

/** ensure_resource_availability: a hook created with 201 is readable by its id and appears in the list. */
async function availability(executor: Executor, target: ApiTarget, hook: HookModel, send: Send): Promise<[CaseResult | undefined, Finding[]]> {
  const read = await send('getWebhook', hook);
  if (!read) return [undefined, []];
  if (read.sent.exchange.status !== 200 || (read.sent.json as { id?: unknown } | undefined)?.id !== hook.id) {
    const findings = resourceAvailability('createWebhook', hook.id, `answered ${read.sent.exchange.status} to getWebhook`);
    executor.options.results.record(target.api, 'createWebhook', 'ensure_resource_availability', findings);
    return [read, findings];
  }
  for (let page = 1; page <= 20; page++) {
    const list = await send('listWebhooks', undefined, { query: { per_page: 100, page } });
    if (!list || list.sent.exchange.status !== 200 || !Array.isArray(list.sent.json)) return [list, []];
    if ((list.sent.json as { id?: unknown }[]).some((item) => item.id === hook.id)) {
      executor.options.results.record(target.api, 'createWebhook', 'ensure_resource_availability', []);
      return [list, []];
    }
    if (list.sent.json.length < 100) {
      const findings = resourceAvailability('createWebhook', hook.id, 'is missing from listWebhooks');
      executor.options.results.record(target.api, 'createWebhook', 'ensure_resource_availability', findings);
      return [list, findings];
    }
  }
  return [undefined, []];
}

function describe(operationId: string, request: Partial<RequestData>): string {
  return `${operationId}${request.body !== undefined ? ` ${JSON.stringify(request.body)}` : ''}`;
}
