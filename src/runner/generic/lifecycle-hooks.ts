// The stateful walk's lifecycle rules (src/fuzz/stateful/rules/) on `contracts check`'s generic conformance pass, as
// its ConformanceHooks: after a step that answered 2xx on a resource the run created, one more request shows what
// the rule judges, on that resource only (never on anything the run did not make):
//   create  → its read (ensure_resource_availability) and its list, pages followed (listed_after_create);
//   PATCH/PUT → its read (read_after_write);
//   an action or delete documenting 409/410 → the same request again; a write documenting 412 → a stale If-Match
//   (conflict_documented);
//   delete  → its read (use_after_free).
// The judges are the walk's own pure functions, so `check` and `fuzz` say the same thing about the same answers.
// Each extra request is judged by the per-exchange checks like any other. A rule the spec gives no way to judge is
// skipped with the reason, as the walk says it; one the pass did not reach, with that.
import type { CheckName, Finding } from '../../core/finding.js';
import type { ParamModel, ParamValue, RequestData } from '../../core/request-model.js';
import type { ModelOperation, Resource, ResourceModel } from '../../core/resource-model/types.js';
import { is2xx, type LifecycleCheck } from '../../fuzz/stateful/lifecycle-rule.js';
import { notExercised } from '../../fuzz/stateful/not-exercised.js';
import { judgeConflict, repeatOf } from '../../fuzz/stateful/rules/conflict-documented.js';
import { judgeAvailability } from '../../fuzz/stateful/rules/ensure-resource-availability.js';
import { judgeListed } from '../../fuzz/stateful/rules/listed-after-create.js';
import { judgeReadAfterWrite, judgedFields } from '../../fuzz/stateful/rules/read-after-write.js';
import { judgeUseAfterFree } from '../../fuzz/stateful/rules/use-after-free.js';
import { unaddressable } from '../../fuzz/stateful/walk-needs.js';
import { walkPages } from '../../fuzz/stateful/walk-pages.js';
import { exceptedFields, largePageSize } from '../../fuzz/stateful/walk-values.js';
import { lifecycleRules } from '../../fuzz/stateful/rules/index.js';
import type { Observed, SequenceContext } from '../sequence-context.js';
import type { ConformanceHooks, StepEvent } from './run-conformance.js';
import type { Instance } from './run-ledger.js';

/** The rules a single pass can judge (paging needs many instances, ignored_auth its own probes: the walk's). */
const passRules = new Set<LifecycleCheck>([
  'ensure_resource_availability',
  'listed_after_create',
  'read_after_write',
  'conflict_documented',
  'use_after_free',
]);

const staleEtag = '"contracts-stale-version"';
/** Pages of a list followed to find what the run created. */
const maxPages = 10;

/** One more request the pass sends on a resource it created, judged by the per-exchange checks. */
export type FollowUp = (
  operationId: string,
  instance: Instance,
  change?: {
    query?: Record<string, ParamValue>;
    headers?: Record<string, ParamValue>;
    /** The request of the step, sent again as it was (its headers with `headers`): a repeated state change. */
    again?: RequestData;
  },
) => Promise<{ path: Record<string, ParamValue>; observed: Observed } | undefined>;

export interface LifecycleHooks extends ConformanceHooks {
  afterStep(event: StepEvent, context: SequenceContext): Promise<void>;
  /** Plans every rule on every resource, before the pass; what the spec leaves unmet is skipped at once. */
  plan(context: SequenceContext): void;
  /** What was planned and not judged: skipped, with why. */
  settle(context: SequenceContext): void;
}

/** An operation's parameters (the request model's), by operationId. */
type Params = (operationId: string) => readonly ParamModel[] | undefined;

export function lifecycleHooks(model: ResourceModel, params: Params): LifecycleHooks {
  const operations = new Map(model.operations.map((operation) => [operation.operationId, operation]));
  const resources = new Map(model.resources.map((resource) => [resource.name, resource]));
  const planned: { check: LifecycleCheck; operationId: string }[] = [];
  let stateless = false;
  const judged = (context: SequenceContext, check: CheckName, operationId: string, findings: Finding[]) =>
    context.results.record(context.api, operationId, check, findings);
  return {
    plan(context) {
      // An embedded stateless mock keeps nothing a create makes: the rules would judge the mock, not the API.
      stateless = context.mode === 'mock';
      if (stateless) return;
      for (const resource of model.resources) {
        const why = unaddressable(model, resource, operations);
        for (const rule of lifecycleRules.filter((candidate) => passRules.has(candidate.name)))
          for (const { operationId, missing } of rule.plan({ resource, operations, unaddressable: why })) {
            context.results.plan([{ api: context.api, operation: operationId, check: rule.name }]);
            planned.push({ check: rule.name, operationId });
            const skip =
              context.mode === 'read-only' ? '--read-only sends only GET requests' : missing && notExercised(missing);
            if (skip) context.results.markSkipped(context.api, operationId, rule.name, skip);
          }
      }
    },
    settle(context) {
      for (const { check, operationId } of planned)
        context.results.markSkipped(
          context.api,
          operationId,
          check,
          notExercised('the check pass made no resource it could judge it on (see the failures above)'),
        );
    },
    async afterStep(event, context) {
      const { step, observed, instance } = event;
      const resource = instance && resources.get(instance.resource);
      if (stateless || !is2xx(observed.status) || instance === undefined || resource === undefined) return;
      if (event.follow === undefined) return;
      const follow = event.follow;
      const { operationId } = step;
      if (step.stage === 'create' && instance.created.operationId === operationId) {
        await available(context, resource, instance, follow, judged);
        await listed(context, resource, instance, operations, params, follow, judged);
      }
      // A PUT-create is a write too (RFC 9110 §9.3.4: the state is the enclosed representation).
      if (step.stage === 'delete') await freed(context, resource, instance, event, follow, judged, operations);
      else if (resource.update.includes(operationId) || resource.replace.includes(operationId))
        await written(context, resource, instance, event, follow, judged);
      if ([...resource.actions, ...resource.delete, ...resource.update, ...resource.replace].includes(operationId))
        await conflict(context, resource, instance, event, follow, judged);
    },
  };
}

type Judged = (context: SequenceContext, check: CheckName, operationId: string, findings: Finding[]) => void;

async function available(
  context: SequenceContext,
  resource: Resource,
  instance: Instance,
  follow: FollowUp,
  judged: Judged,
): Promise<void> {
  const read = resource.read[0];
  const answer = read === undefined ? undefined : await follow(read, instance);
  if (answer === undefined) return;
  const create = instance.created.operationId;
  const findings = judgeAvailability(create, read!, answer.path, resource.id?.parameter, answer.observed.status);
  judged(context, 'ensure_resource_availability', create, findings);
}

async function listed(
  context: SequenceContext,
  resource: Resource,
  instance: Instance,
  operations: ReadonlyMap<string, ModelOperation>,
  params: Params,
  follow: FollowUp,
  judged: Judged,
): Promise<void> {
  const list = resource.list.map((id) => operations.get(id)).find((entry) => entry?.itemsPointer !== undefined);
  const idField = resource.id?.field;
  if (list === undefined || idField === undefined) return;
  const id = idOf(instance, idField);
  if (id === undefined) return;
  // A size parameter the pagination does not name (a cursor list's `limit`), as the walk finds it.
  const sizeParameter = params(list.operationId)?.find(
    (param) => param.in === 'query' && /^(limit|per_?page|page_?size|size|count)$/i.test(param.name),
  )?.name;
  const walk = await walkPages(
    async (query) => {
      const answer = await follow(list.operationId, instance, { query });
      return answer && { sent: { exchange: answer.observed.exchange, json: answer.observed.json } };
    },
    {
      list,
      idField,
      maxPages,
      pageSize: (name) => largePageSize(context.contract.spec.document, schemaOf(name)),
      ...(sizeParameter !== undefined ? { sizeParameter } : {}),
    },
  );
  // The page size parameter's schema, for its maximum (the largest pages find the instance soonest).
  function schemaOf(name: string): unknown {
    return params(list!.operationId)?.find((param) => param.name === name)?.schema;
  }
  if (!walk.complete) return;
  const path = { ...instance.created.path, ...(resource.id ? { [resource.id.parameter]: id } : {}) };
  const create = instance.created.operationId;
  judged(context, 'listed_after_create', create, judgeListed(create, walk, path, resource.id?.parameter, id));
}

/** The id the create's answer gave, by the resource's id field (the walk matches list items on it). */
function idOf(instance: Instance, idField: string): unknown {
  const json = instance.created.json;
  return json !== null && typeof json === 'object' && !Array.isArray(json)
    ? (json as Record<string, unknown>)[idField]
    : undefined;
}

async function written(
  context: SequenceContext,
  resource: Resource,
  instance: Instance,
  event: StepEvent,
  follow: FollowUp,
  judged: Judged,
): Promise<void> {
  const read = resource.read[0];
  if (read === undefined) return;
  const excepted = exceptedFields(context.contract.spec.document, resource.schema);
  const sent = event.request.body;
  const answered = event.observed.exchange.body === '' ? undefined : event.observed.json;
  if (judgedFields({ sent, answered, excepted }).length === 0) return;
  const after = await follow(read, instance);
  if (after === undefined || !is2xx(after.observed.status)) return;
  const findings = judgeReadAfterWrite({
    write: event.step.operationId,
    read,
    path: after.path,
    idParameter: resource.id?.parameter,
    sent,
    answered,
    read_: after.observed.json,
    excepted,
  });
  judged(context, 'read_after_write', event.step.operationId, findings);
}

async function freed(
  context: SequenceContext,
  resource: Resource,
  instance: Instance,
  event: StepEvent,
  follow: FollowUp,
  judged: Judged,
  operations: ReadonlyMap<string, ModelOperation>,
): Promise<void> {
  const read = resource.read[0];
  const after = read === undefined ? undefined : await follow(read, instance);
  if (after === undefined) return;
  const remove = event.step.operationId;
  const gone = operations.get(read!)?.gone.length !== 0;
  const findings = judgeUseAfterFree(remove, read!, after.path, resource.id?.parameter, after.observed.status, gone);
  judged(context, 'use_after_free', remove, findings);
}

async function conflict(
  context: SequenceContext,
  resource: Resource,
  instance: Instance,
  event: StepEvent,
  follow: FollowUp,
  judged: Judged,
): Promise<void> {
  const { operation, operationId } = event.step;
  const how = repeatOf(operationId, resource.actions, operation.conflicts, operation.method);
  if (how === undefined) return;
  const headers: Record<string, ParamValue> = how === 'stale' ? { 'If-Match': staleEtag } : {};
  const answer = await follow(operationId, instance, { again: event.request, headers });
  if (answer === undefined) return;
  const findings = judgeConflict(
    operationId,
    operation.conflicts,
    how,
    answer.path,
    resource.id?.parameter,
    answer.observed.status,
  );
  judged(context, 'conflict_documented', operationId, findings);
}
