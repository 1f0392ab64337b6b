// `contracts check` on any API of the config (the example APIs keep their own sequences): every operation once, in
// the resource model's order (conformance-plan.ts), with its documented examples or its smallest valid request,
// every answer judged by the per-exchange checks (observe → core/check-exchange.ts), ids bound from earlier answers
// (bind-step.ts), and the documented statuses seen counted. An operation it cannot send is reported with the
// reason: skipped when the spec (or the user's --read-only) leaves it no value, failed when the target's answers
// did, or under --strict.
import { buildResourceModel } from '../../core/resource-model/build-resource-model.js';
import type { OperationModel, RequestData } from '../../core/request-model.js';
import type { SentRequest } from '../../fuzz/curl-line.js';
import type { ApiTarget } from '../../fuzz/executor.js';
import { RequestBinder, UnsendablePath } from '../../fuzz/request-binding.js';
import { requestSide } from '../../fuzz/request-side.js';
import { observe, type Observed, type SequenceContext } from '../sequence-context.js';
import { bindStep, changesState, type Unbound } from './bind-step.js';
import { type FollowUp, type LifecycleHooks, lifecycleHooks } from './lifecycle-hooks.js';
import { conformancePlan, type ConformanceStep } from './conformance-plan.js';
import { RunLedger, type Instance } from './run-ledger.js';
import { StatusTally, statusLine } from './status-tally.js';
import { maxRequestsPerStep, stepRequests, type RequestMaker } from './step-requests.js';

/** What one judged exchange of the pass was, for a hook. */
export interface StepEvent {
  step: ConformanceStep;
  request: RequestData;
  sent: SentRequest;
  observed: Observed;
  /** The resource the step acted on, when it acted on one the run created (or created it). */
  instance: Instance | undefined;
  ledger: RunLedger;
  /** One more request on a resource the run created, judged like any other (lifecycle-hooks.ts). */
  follow?: FollowUp;
}

/**
 * The seam for the stateful walk's lifecycle rules (src/fuzz/stateful/: use_after_free, read_after_write…): called
 * after every judged exchange, in plan order, with what the run created so far. They record their verdicts
 * through the context's results (sequence-context.ts `judge`), planned beside the per-exchange checks.
 */
export interface ConformanceHooks {
  afterStep?(event: StepEvent, context: SequenceContext): void | Promise<void>;
}

interface Pass {
  steps: ConformanceStep[];
  models: Map<string, OperationModel>;
  maker: RequestMaker;
  target: ApiTarget;
  creates: ReadonlySet<string>;
  ledger: RunLedger;
  tally: StatusTally;
  hooks: ConformanceHooks;
  lifecycle: LifecycleHooks;
}

/** The pass, its steps judged by the per-exchange checks, the lifecycle rules (lifecycle-hooks.ts) and `hooks`. */
export async function runConformance(context: SequenceContext, hooks: ConformanceHooks = {}): Promise<void> {
  const pass = preparePass(context, hooks);
  pass.lifecycle.plan(context);
  let finished = false;
  try {
    for (const step of pass.steps) await runStep(context, pass, step);
    finished = true;
  } finally {
    // Stopped early (Ctrl-C, an unreachable target): what the run made is deleted, as the steps would have.
    if (!finished) await cleanUp(context, pass);
  }
  pass.lifecycle.settle(context);
  context.log(`${context.api}: ${statusLine(pass.tally.count())}`);
}

function preparePass(context: SequenceContext, hooks: ConformanceHooks): Pass {
  const side = requestSide(context.contract.spec);
  const model = buildResourceModel(context.contract.spec.document);
  const models = new Map(side.models.map((entry) => [entry.operationId, entry]));
  const binder = new RequestBinder(
    // No plug-in: every path parameter is bound from the model like any other.
    { credentials: { [context.api]: context.credentials }, embedded: context.mode === 'mock' },
    {},
  );
  return {
    steps: conformancePlan(model),
    models,
    maker: { api: context.api, document: side.document, compiled: side.compiled, binder },
    target: { api: context.api, baseUrl: context.baseUrl, contract: context.contract, compiled: side.compiled, models },
    creates: new Set(model.resources.flatMap((resource) => resource.create)),
    ledger: new RunLedger(),
    tally: new StatusTally(new Map(side.models.map((entry) => [entry.operationId, entry.statuses]))),
    hooks,
    lifecycle: lifecycleHooks(model, (operationId) => models.get(operationId)?.params),
  };
}

async function runStep(context: SequenceContext, pass: Pass, step: ConformanceStep): Promise<void> {
  const model = pass.models.get(step.operationId);
  if (model === undefined) return;
  if (context.mode === 'read-only' && changesState(step)) {
    // The plan skipped its checks already (the user's choice); what it would have made is missing downstream.
    pass.ledger.failed(step.operationId, { sent: false, why: `${step.operationId} was not sent (--read-only)` });
    return;
  }
  if (model.bodyUnsendable !== undefined)
    return notExercised(context, pass, step, { reason: model.bodyUnsendable, cause: 'spec' });
  const resource = step.operation.resource;
  const live = resource === undefined ? [] : pass.ledger.live(resource);
  // A delete removes every instance the run made; any other step acts on the oldest.
  const anchors = step.stage === 'delete' && live.length > 0 ? live : [live[0]];
  for (const anchor of anchors) {
    const bound = bindStep(step, model, pass.ledger, anchor, pass.creates);
    if ('reason' in bound) return notExercised(context, pass, step, bound);
    const limit = step.stage === 'delete' ? 1 : maxRequestsPerStep;
    const { requests, broken } = stepRequests(pass.maker, model, bound, limit);
    if (requests.length === 0)
      return notExercised(context, pass, step, {
        reason: `no valid request could be built${broken === undefined ? '' : ` (${broken})`}`,
        cause: 'spec',
      });
    for (const request of requests) await send(context, pass, step, model, request, anchor);
  }
}

async function send(
  context: SequenceContext,
  pass: Pass,
  step: ConformanceStep,
  model: OperationModel,
  request: RequestData,
  anchor: Instance | undefined,
): Promise<void> {
  let sent: SentRequest;
  let wire: Request;
  try {
    sent = pass.maker.binder.toSent(pass.target, model, request);
    wire = toRequest(sent);
  } catch (error) {
    // A bound value no path segment can carry (`..`, from an answer): the target's doing. A header name HTTP cannot
    // carry (fetch refuses it): the spec's.
    if (error instanceof UnsendablePath)
      return notExercised(context, pass, step, { reason: error.message, cause: 'target' });
    if (error instanceof TypeError) return notExercised(context, pass, step, { reason: error.message, cause: 'spec' });
    throw error;
  }
  const observed = await observe(context, step.operationId, () => context.capture.fetch(wire));
  pass.tally.record(step.operationId, observed.status);
  const exchange = {
    operationId: step.operationId,
    status: observed.status,
    path: request.path,
    json: observed.json,
    location: observed.exchange.headers.location,
  };
  let instance = anchor;
  if (observed.status >= 200 && observed.status < 300) {
    const created = pass.ledger.succeeded(exchange, step.stage === 'create' ? step.operation.resource : undefined);
    instance = created ?? anchor;
    if (step.stage === 'delete' && anchor) anchor.deleted = true;
  } else {
    pass.ledger.failed(step.operationId, { sent: true, why: `${step.operationId} answered ${observed.status}` });
  }
  const event: StepEvent = { step, request, sent, observed, instance, ledger: pass.ledger };
  await pass.lifecycle.afterStep({ ...event, follow: (...args) => followUp(context, pass, ...args) }, context);
  await pass.hooks.afterStep?.(event, context);
}

/** One request to `operationId` bound to `instance` (and `change`), judged and counted; undefined when none can be built. */
async function followUp(
  context: SequenceContext,
  pass: Pass,
  ...[operationId, instance, change = {}]: Parameters<FollowUp>
): ReturnType<FollowUp> {
  const step = pass.steps.find((candidate) => candidate.operationId === operationId);
  const model = pass.models.get(operationId);
  if (step === undefined || model === undefined) return undefined;
  const bound = bindStep(step, model, pass.ledger, instance, pass.creates);
  if ('reason' in bound) return undefined;
  Object.assign(bound.query, change.query);
  Object.assign(bound.headers, change.headers);
  const request = change.again
    ? { ...change.again, headers: { ...change.again.headers, ...change.headers } }
    : stepRequests(pass.maker, model, bound, 1, true).requests[0];
  if (request === undefined) return undefined;
  let wire: Request;
  try {
    wire = toRequest(pass.maker.binder.toSent(pass.target, model, request));
  } catch {
    return undefined;
  }
  const observed = await observe(context, operationId, () => context.capture.fetch(wire));
  pass.tally.record(operationId, observed.status);
  return { path: request.path, observed };
}

function toRequest(sent: SentRequest): Request {
  return new Request(sent.url, {
    method: sent.method,
    headers: sent.headers,
    ...(sent.body !== undefined ? { body: sent.body } : {}),
  });
}

/** Skipped with the reason when the spec or the user left no value (failed under --strict); failed when the target did. */
function notExercised(context: SequenceContext, pass: Pass, step: ConformanceStep, unbound: Unbound): void {
  const { api, results } = context;
  pass.ledger.failed(step.operationId, {
    sent: false,
    why: `${step.operationId} was not exercised (${unbound.reason})`,
  });
  if (unbound.cause === 'target' || context.strict) {
    results.unexercisedPending(api, unbound.reason, step.operationId);
    return;
  }
  for (const check of results.pendingChecks(api, step.operationId))
    results.markSkipped(api, step.operationId, check, `not exercised: ${unbound.reason}`);
}

/** Deletes what the run created and has not deleted, unjudged, past an interrupt; each failure is said in one line. */
async function cleanUp(context: SequenceContext, pass: Pass): Promise<void> {
  const deletes = pass.steps.filter((step) => step.stage === 'delete');
  for (const instance of [...pass.ledger.instances].reverse()) {
    const step = deletes.find((candidate) => candidate.operation.resource === instance.resource);
    const model = step && pass.models.get(step.operationId);
    if (instance.deleted || !step || !model) continue;
    try {
      const bound = bindStep(step, model, pass.ledger, instance, pass.creates);
      if ('reason' in bound) throw new Error(bound.reason);
      const request = stepRequests(pass.maker, model, bound, 1).requests[0];
      if (request === undefined) throw new Error('no valid request could be built');
      const answer = await context.capture.cleanupFetch(
        toRequest(pass.maker.binder.toSent(pass.target, model, request)),
      );
      await answer.body?.cancel();
      instance.deleted = answer.ok;
      context.log(`cleanup: ${step.operationId} answered ${answer.status}`);
    } catch (error) {
      context.log(`cleanup: ${step.operationId} failed: ${(error as Error).message}`);
    }
  }
}
