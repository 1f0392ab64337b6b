// The stateful phase: random walks over the webhooks API along the spec's OpenAPI links (src/core/link-graph.ts):
// a created hook leads to every operation on it, a delivery list to a delivery's detail and its redelivery. A step
// names the operation it goes to and which earlier response it follows; the link binds the parameters from that
// response, so a sequence acts only on ids it created itself. Each step is judged like any case, plus the seed's
// rules across calls (stateful-rules.ts). fast-check shrinks a failing sequence to the shortest that still fails;
// every hook a sequence made is deleted when it ends.
import fc from 'fast-check';
import type { CheckName, Finding } from '../../../core/finding.js';
import { bindLink, linkGraph, statusMatches, type LinkEdge } from '../../../core/link-graph.js';
import type { OpenApiDocument } from '../../../core/load-spec.js';
import { trailStep, type ApiTarget, type CaseResult, type Executor } from '../../../fuzz/executor.js';
import type { FuzzCase } from '../../../fuzz/fuzz-case.js';
import type { FuzzDeliveries } from './fuzz-deliveries.js';
import type { HookFixtures } from './hook-fixtures.js';
import { eventsExpected, resourceAvailability, secretInClear, useAfterFree } from '../../../fuzz/fuzz-checks.js';
import type { TrailStep } from '../../../fuzz/repro-script.js';
import type { ParamValue, RequestData } from '../../../fuzz/request-model.js';
import {
  defaultDeliveryWaitMs,
  ruleAfter,
  ruleBefore,
  sharedConfigRule,
  type HookModel,
  type RuleContext,
} from './stateful-rules.js';

const eventNames = ['push', 'pull_request', 'issues', 'release'] as const;
const events = fc.uniqueArray(fc.constantFrom(...eventNames), { maxLength: 3 });
const updateKinds = ['events', 'add_events', 'remove_events'] as const;

export type Step =
  /** A new hook; `share`: with the config of an earlier hook of the sequence and overlapping events (to be refused). */
  | { op: 'create'; events: string[] | undefined; secret: boolean; share?: number }
  /** Follow a link to `to` from an earlier response (`from` 0: the most recent one that links there). */
  | { op: 'follow'; to: string; from: number; update?: { kind: (typeof updateKinds)[number]; events: string[] } };

const plainCreate = fc.record({
  op: fc.constant('create' as const),
  events: fc.option(events, { nil: undefined }),
  secret: fc.boolean(),
});
/** One create in five tries to share an earlier hook's config. */
const createArbitrary: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('create' as const),
  events: fc.option(events, { nil: undefined }),
  secret: fc.boolean(),
  share: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.nat({ max: 3 }) }),
});

/**
 * A step to any operation some link leads to. The update details are drawn for every step and used only by a step
 * to updateWebhook: no `chain`, so fast-check can shrink a sequence it did not generate (the canonical one).
 */
export function stepArbitrary(graph: readonly LinkEdge[]): fc.Arbitrary<Step> {
  const targets = [...new Set(graph.map((edge) => edge.to))].sort();
  const follow = fc.record({
    op: fc.constant('follow' as const),
    to: fc.constantFrom(...targets),
    from: fc.nat({ max: 3 }),
    update: fc.record({ kind: fc.constantFrom(...updateKinds), events }),
  });
  return fc.oneof({ weight: 1, arbitrary: createArbitrary }, { weight: 5, arbitrary: follow });
}

const to = (operation: string, from = 0): Step => ({
  op: 'follow',
  to: operation,
  from,
  update: { kind: 'events', events: [] },
});

/** Every rule exercised in one pass, whatever the seed: delivery list → detail → redeliver twice (a redelivery's own). */
export const canonicalSequence: Step[] = [
  { op: 'create', events: undefined, secret: true },
  to('pingWebhook'),
  to('getWebhook'),
  to('getWebhookConfig'),
  { op: 'follow', to: 'updateWebhook', from: 0, update: { kind: 'events', events: ['push', 'issues'] } },
  { op: 'follow', to: 'updateWebhook', from: 0, update: { kind: 'add_events', events: ['release'] } },
  { op: 'follow', to: 'updateWebhook', from: 0, update: { kind: 'remove_events', events: ['issues'] } },
  to('testPushWebhook'),
  to('listWebhookDeliveries'),
  to('getWebhookDelivery'),
  to('redeliverWebhookDelivery'),
  to('listWebhookDeliveries'),
  to('getWebhookDelivery'),
  to('redeliverWebhookDelivery'),
  to('updateWebhookConfig'),
  { op: 'create', events: ['push'], secret: false, share: 0 },
  to('deleteWebhook'),
];

export interface StatefulOptions {
  seed: number;
  numRuns: number;
  maxShrinkRequests: number;
  /** The embedded receiver the run's hooks deliver to: deliveries a step triggers are checked as they arrive. */
  deliveries?: FuzzDeliveries;
  /** How long a ping, test or redelivery may take to show its delivery (default 5000 ms). */
  deliveryWaitMs?: number;
}

/** A response a later step may follow a link from. */
interface Produced {
  operationId: string;
  status: number;
  path: Record<string, ParamValue>;
  body: unknown;
}

export async function runStateful(
  executor: Executor,
  fixtures: HookFixtures,
  target: ApiTarget,
  options: StatefulOptions,
): Promise<void> {
  const { edges, problems } = linkGraph(target.compiled.spec.document as OpenApiDocument);
  for (const problem of problems) executor.options.log(`stateful: ${target.api}: ${problem}`);
  if (!edges.some((edge) => edge.from === 'createWebhook')) {
    executor.options.log(`stateful: ${target.api}: no link leads from createWebhook, so there is no sequence to walk`);
    return;
  }
  const with404 = new Set(
    target.contract.operations
      .filter((operation) => operation.responses.some((response) => response.status === '404'))
      .map((operation) => operation.operationId),
  );
  const walk = { edges, with404, fixtures };
  let secrets = 0;
  // Every sequence starts with a create; a tuple, not a map, so that shrinking works on the canonical sequence too.
  const sequences = fc.tuple(plainCreate as fc.Arbitrary<Step>, fc.array(stepArbitrary(edges), { maxLength: 14 }));
  // A round ends at the first new failure (fast-check then shrinks it); the next round goes on, so one broken rule
  // does not hide the next. Known failures no longer fail the property.
  for (let round = 0; round < 12 && !executor.expired; round++) {
    let shrinking = false;
    let shrinkSequences = 0;
    let found: CaseResult | undefined;
    const property = fc.asyncProperty(sequences, async ([start, rest]) => {
      const steps = [start, ...rest];
      if (executor.expired || (shrinking && shrinkSequences++ >= options.maxShrinkRequests / 10)) return true;
      const failing = await executor.guarded(
        () =>
          runSequence(
            executor,
            target,
            {
              ...walk,
              deliveries: options.deliveries,
              deliveryWaitMs: options.deliveryWaitMs ?? defaultDeliveryWaitMs,
            },
            steps,
            () => `fuzz-secret-${executor.options.marker}-${++secrets}`,
          ),
        undefined,
      );
      if (!failing) return true;
      shrinking = true;
      found = failing;
      return false;
    });
    const details = await fc.check(property, {
      seed: options.seed + round,
      numRuns: options.numRuns,
      examples: [[[canonicalSequence[0]!, canonicalSequence.slice(1)]]],
    });
    executor.rethrow();
    if (!details.failed || !found) break;
    executor.book.keepNew(target, found);
  }
  // Then every change to a hook followed by every operation on it, each on a fresh hook with a secret: a bug that
  // needs a state and then a look at it (a config read after a config update) is reached whatever the random walks
  // drew. Three steps each, too short to shrink.
  for (const steps of pairSequences(edges, target)) {
    if (executor.expired) break;
    const failing = await executor.guarded(
      () =>
        runSequence(
          executor,
          target,
          { ...walk, deliveries: options.deliveries, deliveryWaitMs: options.deliveryWaitMs ?? defaultDeliveryWaitMs },
          steps,
          () => `fuzz-secret-${executor.options.marker}-${++secrets}`,
        ),
      undefined,
    );
    executor.rethrow();
    if (failing) executor.book.keepNew(target, failing);
  }
}

/**
 * [create with a secret, change, then any operation] for every operation a created hook links to that changes it
 * (POST, PATCH, PUT, DELETE), followed by every operation it links to: the two-step transitions of a hook, each once.
 */
export function pairSequences(edges: readonly LinkEdge[], target: Pick<ApiTarget, 'models'>): Step[][] {
  const onHook = [...new Set(edges.filter((edge) => edge.from === 'createWebhook').map((edge) => edge.to))].sort();
  const reachable = [...new Set(edges.map((edge) => edge.to))].sort();
  const changes = onHook.filter((operation) =>
    ['POST', 'PATCH', 'PUT', 'DELETE'].includes(target.models.get(operation)?.method ?? ''),
  );
  const create: Step = { op: 'create', events: ['push'], secret: true };
  return changes.flatMap((change) => reachable.map((next) => [create, to(change), to(next)]));
}

type Walk = {
  edges: LinkEdge[];
  with404: Set<string>;
  deliveries: FuzzDeliveries | undefined;
  deliveryWaitMs: number;
  fixtures: HookFixtures;
};

/** Runs one sequence; returns the first step result with a failure not seen before, if any. */
function runSequence(
  executor: Executor,
  target: ApiTarget,
  walk: Walk,
  steps: Step[],
  newSecret: () => string,
): Promise<CaseResult | undefined> {
  return new Sequence(executor, target, walk, newSecret).run(steps);
}

/**
 * One sequence as it runs: the hooks it made and what it believes of them, the responses a later step may follow a
 * link from, every request sent (a failure's reproduction sends them all first: repro-script.ts), and the first new
 * failure, which ends it.
 */
class Sequence {
  private readonly hooks: HookModel[] = [];
  private readonly produced: Produced[] = [];
  private readonly done: string[] = [];
  private readonly trail: TrailStep[];
  private readonly context: RuleContext;
  private first: CaseResult | undefined;

  constructor(
    private readonly executor: Executor,
    private readonly target: ApiTarget,
    private readonly walk: Walk,
    private readonly newSecret: () => string,
  ) {
    this.trail = [...walk.fixtures.setupTrail];
    this.context = {
      executor,
      fixtures: walk.fixtures,
      target,
      send: this.send,
      judge: this.judge,
      record: this.record,
      deliveryWaitMs: walk.deliveryWaitMs,
      ...(walk.deliveries ? { deliveries: walk.deliveries } : {}),
      noteStep: (sent) => this.trail.push(trailStep(sent)),
    };
  }

  async run(steps: Step[]): Promise<CaseResult | undefined> {
    try {
      for (const step of steps) {
        if (this.executor.expired || this.first) break;
        if (step.op === 'create') await (step.share === undefined ? this.create(step) : this.createShared(step.share));
        else if (!(await this.follow(step))) break;
      }
    } finally {
      for (const hook of this.hooks) if (!hook.deleted) await this.walk.fixtures.deleteHook(this.target, hook.id);
    }
    return this.first;
  }

  /** Judges a step's result with the rules' findings (and the secrets in clear); the first new failure ends the run. */
  private readonly judge = (result: CaseResult | undefined, extra: Finding[] = []): void => {
    if (!result) return;
    const secrets = this.hooks.flatMap((hook) => (hook.secret ? [hook.secret] : []));
    const leaks = secrets.flatMap((secret) =>
      secretInClear(result.case.operationId, secret, result.sent.exchange.body),
    );
    if (secrets.length > 0) this.record(result.case.operationId, 'secret_masked', leaks);
    const all = {
      ...result,
      findings: [...result.findings, ...extra.filter((finding) => finding.severity === 'error'), ...leaks],
    };
    if (!this.first && this.executor.book.newFailures(this.target, all).length > 0)
      this.first = {
        ...all,
        case: { ...all.case, note: `${all.case.note}, after: ${this.done.join('; ') || 'nothing'}` },
      };
  };

  private readonly send: Send = async (operationId, request = {}, extra = {}) => {
    const fuzzCase: FuzzCase = {
      api: this.target.api,
      operationId,
      phase: 'stateful',
      intent: 'positive',
      note: describe(operationId, request),
      ...extra,
      request: { query: {}, headers: {}, path: {}, ...request },
      trail: [...this.trail],
    };
    const result = await this.executor.runCase(this.target, fuzzCase);
    if (result) this.trail.push(trailStep(result.sent));
    return result;
  };

  private readonly record = (operationId: string, check: CheckName, findings: Finding[]): void =>
    this.executor.options.results.record(this.target.api, operationId, check, findings);

  private remember(result: CaseResult | undefined, path: Record<string, ParamValue>): void {
    if (result)
      this.produced.push({
        operationId: result.case.operationId,
        status: result.sent.exchange.status,
        path,
        body: result.sent.json,
      });
  }

  /** A create with the config of an earlier live hook and overlapping events: the seed says it is refused. */
  private async createShared(share: number): Promise<void> {
    const shared = sharedConfigRule(this.executor, this.walk.fixtures, this.hooks, share);
    // Only a live hook with events can be shared with; otherwise there is no refusal to expect.
    if (!shared) return;
    const result = await this.send(
      'createWebhook',
      { body: shared.body },
      { keepCreated: true, keepPath: '/config/url', refusalExpected: true },
    );
    const created =
      result?.sent.exchange.status === 201 ? (result.sent.json as { id?: unknown } | undefined)?.id : undefined;
    if (typeof created === 'number')
      this.hooks.push({ id: created, events: shared.events, secret: undefined, deleted: false });
    this.judge(result, shared.judge(result));
    this.done.push(
      `create a hook with hook #${this.hooks.indexOf(shared.hook)}'s config and events ${JSON.stringify(shared.events)}`,
    );
  }

  /** A new hook (with a secret, with events or without), then whether it can be read and listed. */
  private async create(step: Extract<Step, { op: 'create' }>): Promise<void> {
    const { executor } = this;
    const secret = step.secret ? this.newSecret() : undefined;
    if (secret) executor.options.addSecret(secret);
    const body: Record<string, unknown> = {
      name: 'web',
      ...(step.events ? { events: step.events } : {}),
      config: { url: 'replaced', ...(secret ? { secret } : {}) },
    };
    const result = await this.send('createWebhook', { body }, { keepCreated: true });
    const id = (result?.sent.json as { id?: unknown } | undefined)?.id;
    if (!result || result.sent.exchange.status !== 201 || typeof id !== 'number') {
      this.judge(result);
      return;
    }
    const hook: HookModel = { id, events: step.events ? [...new Set(step.events)] : ['push'], secret, deleted: false };
    this.hooks.push(hook);
    const hookUrl = this.walk.fixtures.ownHooks.get(id);
    if (hookUrl) this.walk.deliveries?.expect(hookUrl, secret);
    this.remember(result, { owner: this.walk.fixtures.owner, repo: this.walk.fixtures.repo });
    const extra = step.events
      ? []
      : eventsExpected(
          'events_default_push',
          'createWebhook',
          ['push'],
          (result.sent.json as { events?: unknown }).events,
        );
    if (!step.events) this.record('createWebhook', 'events_default_push', extra);
    this.judge(result, extra);
    this.done.push(
      `create hook #${this.hooks.length - 1}${step.events ? ` with events ${JSON.stringify(step.events)}` : ' without events'}${secret ? ' and a secret' : ''}`,
    );
    this.judge(...(await availability(this.context, hook)));
  }

  /** A step along a link; false when the sequence cannot go on (the hook could not be read again). */
  private async follow(step: Extract<Step, { op: 'follow' }>): Promise<boolean> {
    const link = pickLink(this.walk.edges, this.produced, this.hooks, step);
    if (!link) return true;
    const { edge, path, hook } = link;
    const label = `#${this.hooks.indexOf(hook)}`;
    const what = `${step.to} on hook ${label}${edge.from === 'createWebhook' ? '' : ` (${edge.name} from ${edge.from})`}`;
    if (hook.deleted) {
      await this.onDeleted(step.to, path, hook, what);
      return true;
    }
    const body = bodyFor(step, hook);
    const before = await ruleBefore(this.context, step.to, hook);
    const result = await this.send(step.to, { path, ...(body !== undefined ? { body } : {}) });
    this.remember(result, path);
    let ruled: Finding[] = [];
    if (step.to === 'updateWebhook' && step.update && result?.sent.exchange.status === 200)
      ruled = this.updatedEvents(step.update, hook, result);
    else if (result) ruled = await ruleAfter(this.context, step.to, hook, result, before);
    this.judge(result, ruled);
    this.done.push(
      `${what}${step.to === 'updateWebhook' && step.update ? ` ${step.update.kind} ${JSON.stringify(step.update.events)}` : ''}`,
    );
    if (result && [...result.findings, ...ruled].some((finding) => finding.severity === 'error')) {
      // An answer the spec does not document, or one that broke a rule: what the model believes of the hook (that
      // a DELETE answered 200 left it alive, that an update did what it asked) may be wrong. It is read again
      // before anything that follows is judged, so no later finding echoes this one; unreadable, the sequence ends.
      const wasDeleted = hook.deleted;
      if (!(await reread(this.context, hook))) return false;
      this.done.push(`getWebhook on hook ${label}, read again after that answer`);
      // A delete answered wrongly that deleted the hook all the same: what follows a delete is judged as after one.
      if (step.to === 'deleteWebhook' && hook.deleted && !wasDeleted) await this.afterDelete(hook);
      return true;
    }
    if (step.to === 'deleteWebhook' && result?.sent.exchange.status === 204) {
      hook.deleted = true;
      this.walk.fixtures.ownHooks.delete(hook.id);
      await this.afterDelete(hook);
    }
    return true;
  }

  /** use_after_free: a deleted hook is 404 for every operation that documents 404; the others say nothing. */
  private async onDeleted(
    operationId: string,
    path: Record<string, ParamValue>,
    hook: HookModel,
    what: string,
  ): Promise<void> {
    if (!this.walk.with404.has(operationId)) return;
    const result = await this.send(operationId, {
      path,
      ...(operationId === 'updateWebhook' ? { body: { active: true } } : {}),
    });
    if (result) {
      const findings = useAfterFree(operationId, result.sent.exchange.status, hook.id);
      this.record(operationId, 'use_after_free', findings);
      this.judge(result, findings);
    }
    this.done.push(`${what}, deleted`);
  }

  /** events_replace, add_events, remove_events: the events an update answered, against what it asked. */
  private updatedEvents(
    update: NonNullable<Extract<Step, { op: 'follow' }>['update']>,
    hook: HookModel,
    result: CaseResult,
  ): Finding[] {
    const { kind, events: listed } = update;
    const expected =
      kind === 'events'
        ? [...new Set(listed)]
        : kind === 'add_events'
          ? [...new Set([...hook.events, ...listed])]
          : hook.events.filter((event) => !listed.includes(event));
    const check = kind === 'events' ? 'events_replace' : kind;
    const findings = eventsExpected(
      check,
      'updateWebhook',
      expected,
      (result.sent.json as { events?: unknown } | undefined)?.events,
    );
    this.record('updateWebhook', check, findings);
    hook.events = expected;
    return findings;
  }

  /** use_after_free: right after the delete, the hook is gone for every operation on it that documents 404. */
  private async afterDelete(hook: HookModel): Promise<void> {
    for (const probe of this.walk.edges.filter(
      (candidate) => candidate.from === 'createWebhook' && this.walk.with404.has(candidate.to),
    )) {
      const sent = await this.send(probe.to, {
        path: { hook_id: hook.id },
        ...(probe.to === 'updateWebhook' ? { body: { active: true } } : {}),
      });
      if (!sent) continue;
      const findings = useAfterFree(probe.to, sent.sent.exchange.status, hook.id);
      this.record(probe.to, 'use_after_free', findings);
      this.judge(sent, findings);
    }
  }
}

/**
 * The link a step follows: among the responses so far that link to the step's operation and whose link binds every
 * parameter, the `from`-th most recent. A link must land on a hook of this sequence: no id the run did not create.
 */
function pickLink(
  edges: readonly LinkEdge[],
  produced: readonly Produced[],
  hooks: readonly HookModel[],
  step: Extract<Step, { op: 'follow' }>,
): { edge: LinkEdge; path: Record<string, ParamValue>; hook: HookModel } | undefined {
  const candidates: { edge: LinkEdge; path: Record<string, ParamValue>; hook: HookModel }[] = [];
  for (let index = produced.length - 1; index >= 0; index--) {
    const response = produced[index]!;
    for (const edge of edges) {
      if (edge.to !== step.to || edge.from !== response.operationId || !statusMatches(edge.status, response.status))
        continue;
      const bound = bindLink(edge, response);
      const hook = hooks.find((candidate) => candidate.id === bound?.hook_id);
      if (bound && hook) candidates.push({ edge, path: bound as Record<string, ParamValue>, hook });
    }
  }
  return candidates.length === 0 ? undefined : candidates[step.from % candidates.length];
}

/** The body a step sends: what the seed's rules are about (events, add/remove), else a harmless valid change. */
function bodyFor(step: Extract<Step, { op: 'follow' }>, hook: HookModel): unknown {
  if (step.to === 'updateWebhook')
    return step.update ? { [step.update.kind]: step.update.events } : { active: !hook.deleted };
  if (step.to === 'updateWebhookConfig') return { content_type: 'json' };
  return undefined;
}

export type Send = (
  operationId: string,
  request?: Partial<RequestData>,
  extra?: Partial<FuzzCase>,
) => Promise<CaseResult | undefined>;

/**
 * The hook as the target has it, after an answer that makes the model doubt it: 404, deleted; 200 with its id, alive
 * with the events it lists. False when the answer says neither (the model cannot go on).
 */
async function reread({ send, judge, fixtures }: RuleContext, hook: HookModel): Promise<boolean> {
  const read = await send('getWebhook', { path: { hook_id: hook.id } });
  judge(read);
  const status = read?.sent.exchange.status;
  if (status === 404) {
    hook.deleted = true;
    fixtures.ownHooks.delete(hook.id);
    return true;
  }
  const body = read?.sent.json as { id?: unknown; events?: unknown } | undefined;
  if (status !== 200 || body?.id !== hook.id) return false;
  hook.deleted = false;
  if (Array.isArray(body.events) && body.events.every((event) => typeof event === 'string'))
    hook.events = [...new Set(body.events as string[])];
  return true;
}

/** ensure_resource_availability: a hook created with 201 is readable by its id and appears in the list. */
async function availability(
  { send, record }: RuleContext,
  hook: HookModel,
): Promise<[CaseResult | undefined, Finding[]]> {
  const read = await send('getWebhook', { path: { hook_id: hook.id } });
  if (!read) return [undefined, []];
  if (read.sent.exchange.status !== 200 || (read.sent.json as { id?: unknown } | undefined)?.id !== hook.id) {
    const findings = resourceAvailability(
      'createWebhook',
      hook.id,
      `answered ${read.sent.exchange.status} to getWebhook`,
    );
    record('createWebhook', 'ensure_resource_availability', findings);
    return [read, findings];
  }
  for (let page = 1; page <= 20; page++) {
    const list = await send('listWebhooks', { query: { per_page: 100, page } });
    if (!list || list.sent.exchange.status !== 200 || !Array.isArray(list.sent.json)) return [list, []];
    if ((list.sent.json as { id?: unknown }[]).some((item) => item.id === hook.id)) {
      record('createWebhook', 'ensure_resource_availability', []);
      return [list, []];
    }
    if (list.sent.json.length < 100) {
      const findings = resourceAvailability('createWebhook', hook.id, 'is missing from listWebhooks');
      record('createWebhook', 'ensure_resource_availability', findings);
      return [list, findings];
    }
  }
  return [undefined, []];
}

function describe(operationId: string, request: Partial<RequestData>): string {
  return `${operationId}${request.body !== undefined ? ` ${JSON.stringify(request.body)}` : ''}`;
}
