// The stateful walk of any API, on its resource model (src/core/resource-model/): per resource with a create, an
// instance made with a valid body (its parents first), its id read per the model's bindings, then read, listed,
// written (PATCH, PUT), probed without credentials, acted on, and deleted last, children before parents. Each step
// is a case like any other (executor.ts judges it), and the lifecycle rules (rules/) judge what the steps show
// across calls. Only instances the run created are ever written, probed or deleted. The order and every value come
// from the run's seed; the requests are bounded by `maxRequests` (creates and deletes of what was made excepted).
import type { OpenApiDocument } from '../../core/load-spec.js';
import type { CheckName, Finding } from '../../core/finding.js';
import { headerValue } from '../../core/exchange.js';
import { buildResourceModel } from '../../core/resource-model/build-resource-model.js';
import type { ModelOperation, Resource, ResourceModel } from '../../core/resource-model/types.js';
import { trailStep, type ApiTarget, type CaseResult, type Executor } from '../executor.js';
import type { FuzzCase } from '../fuzz-case.js';
import { baseRequest } from '../generate-cases.js';
import type { TrailStep } from '../repro-script.js';
import type { ParamValue, RequestData } from '../request-model.js';
import { boundValue } from './bind-instance.js';
import { described, is2xx, type LifecycleCheck } from './lifecycle-rule.js';
import { notExercised } from './not-exercised.js';
import { shrinkFailure } from './shrink-walk.js';
import { lifecycleRules } from './rules/index.js';
import { repeatOf, judgeConflict } from './rules/conflict-documented.js';
import { judgeAvailability } from './rules/ensure-resource-availability.js';
import { judgeListed, type PageWalk } from './rules/listed-after-create.js';
import { judgePaging } from './rules/paging-consistent.js';
import { judgeReadAfterWrite, judgedFields } from './rules/read-after-write.js';
import { judgeUseAfterFree } from './rules/use-after-free.js';
import { idBinding, unaddressable } from './walk-needs.js';
import { walkPages } from './walk-pages.js';
import {
  drawnBodies,
  exceptedFields,
  freshId,
  largePageSize,
  nextPageSize,
  seededOrder,
  smallPageSize,
} from './walk-values.js';

export interface WalkOptions {
  seed: number;
  /** Requests the walk may send (its creates and the deletes of what it made are always sent). */
  maxRequests: number;
  /** Pages followed per list. */
  maxPages: number;
  marker: string;
  readOnly: boolean;
}

/** An instance the run made: where it is, what was sent to reach it (for reproductions), whether it is gone. */
export interface Instance {
  resource: Resource;
  create: string;
  path: Record<string, ParamValue>;
  id: ParamValue | undefined;
  trail: TrailStep[];
  deleted: boolean;
}

/** An instance-free place to send from: a collection under a parent's path. */
type Place = Pick<Instance, 'path' | 'trail'>;

const staleEtag = '"contracts-stale-version"';

/** The resource model of a target's spec (the document it was loaded from, not the generation view). */
export function modelOf(target: ApiTarget): ResourceModel {
  let model = models.get(target);
  if (model === undefined) {
    model = buildResourceModel(target.compiled.spec.document as OpenApiDocument);
    models.set(target, model);
  }
  return model;
}

/** Built once per target: the shard plan and the walk both ask. */
const models = new WeakMap<ApiTarget, ResourceModel>();

export class ResourceWalk {
  private readonly operations: Map<string, ModelOperation>;
  private readonly made = new Map<string, Instance | string>();
  private readonly instances: Instance[] = [];
  private readonly probed = new Set<string>();
  /** Why a planned (check, operation) was not exercised, when the walk knows better than "not reached". */
  private readonly why = new Map<string, string>();
  private readonly planned: { check: LifecycleCheck; operationId: string }[] = [];
  private start = 0;
  private counter = 0;

  constructor(
    private readonly executor: Executor,
    private readonly target: ApiTarget,
    /** The generation view of the spec (request-side.ts): what bodies are drawn from. */
    private readonly document: unknown,
    private readonly model: ResourceModel,
    private readonly options: WalkOptions,
  ) {
    this.operations = new Map(model.operations.map((operation) => [operation.operationId, operation]));
  }

  /** Plans every rule on every resource; a precondition the spec leaves unmet is said at once, as not exercised. */
  plan(): void {
    const results = this.executor.options.results;
    for (const resource of this.model.resources) {
      const why = unaddressable(this.model, resource, this.operations);
      for (const rule of lifecycleRules) {
        for (const { operationId, missing } of rule.plan({
          resource,
          operations: this.operations,
          unaddressable: why,
        })) {
          if (!this.target.models.has(operationId)) continue;
          results.plan([{ api: this.target.api, operation: operationId, check: rule.name }]);
          this.planned.push({ check: rule.name, operationId });
          if (this.options.readOnly)
            results.markSkipped(this.target.api, operationId, rule.name, '--read-only sends only GET requests');
          else if (missing !== undefined)
            results.markSkipped(this.target.api, operationId, rule.name, notExercised(missing));
        }
      }
    }
  }

  async run(): Promise<void> {
    if (this.options.readOnly) return;
    this.start = this.executor.requests;
    const creatable = this.model.resources.filter((resource) => resource.create.length > 0);
    try {
      for (const resource of seededOrder(creatable, this.options.seed)) {
        if (this.executor.expired || this.spent()) break;
        const instance = await this.instanceOf(resource);
        if (typeof instance !== 'string') await this.exercise(instance);
      }
    } finally {
      await this.deleteAll();
    }
    await this.shrinkAll();
  }

  /** Each lifecycle failure the walk kept, with the shortest trail that still shows it (shrink-walk.ts). */
  private async shrinkAll(): Promise<void> {
    const { book } = this.executor;
    const rules = new Set<string>(lifecycleRules.map((rule) => rule.name));
    for (const failure of [...book.failures.values()]) {
      if (failure.api !== this.target.api || failure.sequence === undefined || !rules.has(failure.check)) continue;
      if (this.executor.expired) return;
      book.keep(await shrinkFailure(this.executor, this.target, { ...failure, sequence: failure.sequence }));
    }
  }

  /**
   * An instance of the resource for the single-operation phases (live-instances.ts), made on first need with its
   * parents, judged as any case; no lifecycle rule is planned or judged on it. A string says why there is none.
   */
  async liveInstance(name: string): Promise<Instance | string> {
    const resource = this.model.resources.find((candidate) => candidate.name === name);
    if (resource === undefined || resource.create.length === 0) return `no operation creates a ${name}`;
    return this.instanceOf(resource);
  }

  /** Deletes what liveInstance made, children first: only instances the run made, each delete judged as any case. */
  async releaseAll(): Promise<void> {
    for (const instance of [...this.instances].reverse()) {
      const remove = instance.resource.delete[0];
      if (remove === undefined || instance.deleted || this.executor.targetDied !== undefined) continue;
      const result = await this.send(remove, instance, {}, `delete the ${instance.resource.name} the run made`);
      if (result !== undefined && is2xx(result.sent.exchange.status)) instance.deleted = true;
    }
  }

  /** What was planned and never judged: not exercised, with the reason the walk has, else that it was not reached. */
  settle(): void {
    const results = this.executor.options.results;
    for (const { check, operationId } of this.planned) {
      const reason =
        this.why.get(`${check} ${operationId}`) ??
        (this.spent() ? 'the walk used its request budget first (raise --max-examples)' : 'the walk did not reach it');
      results.markSkipped(this.target.api, operationId, check, notExercised(reason));
    }
  }

  private spent(): boolean {
    return this.executor.requests - this.start >= this.options.maxRequests;
  }

  private because(check: LifecycleCheck, operationId: string, reason: string): void {
    if (!this.why.has(`${check} ${operationId}`)) this.why.set(`${check} ${operationId}`, reason);
  }

  /** One step: a case of the stateful phase on `place`, its own findings kept, its exchange added to the trail. */
  private async send(
    operationId: string,
    place: Place,
    change: Partial<RequestData>,
    note: string,
    extra: Partial<FuzzCase> = {},
  ): Promise<CaseResult | undefined> {
    const model = this.target.models.get(operationId);
    if (model === undefined || this.executor.expired) return undefined;
    const request = baseRequest({ api: this.target.api, document: this.document, model });
    for (const param of model.params)
      if (param.in === 'path' && place.path[param.name] !== undefined)
        request.path[param.name] = place.path[param.name]!;
    Object.assign(request.query, change.query ?? {});
    Object.assign(request.headers, change.headers ?? {});
    Object.assign(request.path, change.path ?? {});
    if ('body' in change) {
      if (change.body === undefined) delete request.body;
      else request.body = structuredClone(change.body);
    }
    const fuzzCase: FuzzCase = {
      api: this.target.api,
      operationId,
      phase: 'stateful',
      intent: 'positive',
      note,
      request,
      trail: [...place.trail],
      ...extra,
    };
    const result = await this.executor.guarded(() => this.executor.runCase(this.target, fuzzCase), undefined);
    if (result === undefined) return undefined;
    place.trail.push({ ...trailStep(result.sent), ...(extra.page ? { page: extra.page } : {}) });
    this.executor.book.keepNewWithTrail(this.target, result);
    return result;
  }

  /** A rule's judgement on a step: recorded for (check, operation), and a failure with the step's evidence. */
  private judge(check: CheckName, operationId: string, result: CaseResult, findings: Finding[]): void {
    this.executor.options.results.record(this.target.api, operationId, check, findings);
    const errors = findings.filter((finding) => finding.severity === 'error');
    if (errors.length > 0) this.executor.book.keepNewWithTrail(this.target, { ...result, findings: errors });
  }

  /** The run's instance of a resource, made on first need (its parent first); a string says why there is none. */
  private async instanceOf(resource: Resource): Promise<Instance | string> {
    const known = this.made.get(resource.name);
    if (known !== undefined) return known;
    this.made.set(resource.name, 'its parent needs it first (a cycle in the model)');
    const made = await this.create(resource);
    this.made.set(resource.name, made);
    if (typeof made === 'string')
      for (const { check, operationId } of this.planned) this.because(check, operationId, made);
    return made;
  }

  /** A new instance: the parent's path, a valid body (the smallest, then drawn ones), its id from the answer. */
  private async create(resource: Resource): Promise<Instance | string> {
    let place: Place = { path: {}, trail: [] };
    if (resource.parent !== undefined) {
      const parent = this.model.resources.find((candidate) => candidate.name === resource.parent!.resource);
      const made =
        parent === undefined
          ? `its parent ${resource.parent.resource} is not in the model`
          : await this.instanceOf(parent);
      if (typeof made === 'string') return `its parent ${resource.parent.resource} was not made: ${made}`;
      place = { path: { ...made.path }, trail: [...made.trail] };
    }
    const why: string[] = [];
    for (const create of resource.create) {
      const model = this.target.models.get(create);
      if (model === undefined) continue;
      const index = ++this.counter;
      const own = model.params.find(
        (param) => param.in === 'path' && place.path[param.name] === undefined && param.name === resource.id?.parameter,
      );
      const path = own
        ? { [own.name]: freshId(this.document, own.schema, this.options.marker, index, this.options.seed) }
        : {};
      const bodies: (unknown | undefined)[] = model.body
        ? [
            baseRequest({ api: this.target.api, document: this.document, model }).body,
            ...drawnBodies(this.document, model.body.schema, this.options.seed + index),
          ]
        : [undefined];
      for (const body of bodies) {
        const trail = [...place.trail];
        const result = await this.send(
          create,
          { path: { ...place.path, ...path }, trail },
          { path, body },
          `create a ${resource.name}`,
        );
        if (result === undefined) continue;
        const status = result.sent.exchange.status;
        if (!is2xx(status)) {
          why.push(`${create} answered ${status}`);
          if (status === 401 || status === 403 || status >= 500) break;
          continue;
        }
        return this.bound(resource, create, result, { ...place.path, ...path }, trail);
      }
    }
    const answered = why.length === 0 ? 'no valid request could be made' : why.slice(0, 3).join(', ');
    return `no ${resource.name} could be created (${answered}): give the create an example of a valid body`;
  }

  /** The instance a 2xx create made, its id read per the model's bindings; a string when none gives the id. */
  private bound(
    resource: Resource,
    create: string,
    result: CaseResult,
    path: Record<string, ParamValue>,
    trail: TrailStep[],
  ): Instance | string {
    const parameter = resource.id?.parameter;
    const instance: Instance = { resource, create, path: { ...path }, id: undefined, trail, deleted: false };
    this.instances.push(instance);
    if (parameter === undefined) return instance;
    const binding = idBinding(resource, this.operations, create);
    const id =
      path[parameter] ??
      (binding &&
        boundValue(binding, {
          operationId: create,
          path,
          json: result.sent.json,
          location: headerValue(result.sent.exchange.headers, 'location'),
        }));
    if (id === undefined) {
      this.instances.pop();
      return `${create} answered ${result.sent.exchange.status} without the ${parameter} of what it made (${binding ? binding.sources.map((source) => source.expression).join(', ') : 'no binding'} gave nothing)`;
    }
    instance.id = id;
    instance.path[parameter] = id;
    return instance;
  }

  /** Read, list, write, probe and act on one instance, in that order (the delete comes at the end of the run). */
  private async exercise(instance: Instance): Promise<void> {
    const { resource } = instance;
    await this.available(instance);
    if (resource.list.length > 0 && !this.spent()) await this.listed(instance);
    const writes = seededOrder([...new Set([...resource.update, ...resource.replace])], this.options.seed + 1);
    for (const write of writes) if (!this.spent()) await this.write(instance, write);
    const reads = [...resource.create, ...resource.read, ...resource.list, ...writes];
    for (const operationId of reads) if (!this.spent()) await this.probe(instance, operationId);
    for (const action of seededOrder(resource.actions, this.options.seed + 2))
      if (!this.spent() && !instance.deleted) await this.act(instance, action);
  }

  /** ensure_resource_availability: the instance just made is read with 2xx. */
  private async available(instance: Instance): Promise<CaseResult | undefined> {
    const read = instance.resource.read[0];
    if (read === undefined) return undefined;
    const result = await this.send(read, instance, {}, `read the ${instance.resource.name} ${instance.create} made`);
    if (result === undefined) return undefined;
    const { status } = result.sent.exchange;
    this.judge(
      'ensure_resource_availability',
      instance.create,
      result,
      judgeAvailability(instance.create, read, instance.path, instance.resource.id?.parameter, status),
    );
    return result;
  }

  /**
   * listed_after_create and paging_consistent: two more instances made where the list pages, so that pages of one
   * item are three and pages of two items are two (an off-by-one in a cursor shows at one size and not the other).
   */
  private async listed(instance: Instance): Promise<void> {
    const { resource } = instance;
    const listId = resource.list.find((operationId) => this.operations.get(operationId)?.itemsPointer !== undefined);
    const list = listId === undefined ? undefined : this.operations.get(listId);
    const idField = resource.id?.field;
    const model = listId === undefined ? undefined : this.target.models.get(listId);
    if (list === undefined || model === undefined || idField === undefined) return;
    const made = [instance];
    // The pages go on a copy of the trail: a later failure on the instance is reproduced without them. The other
    // instances' creates go on it too: a reproduction from a fresh start lists what the run listed.
    const place: Place = { path: instance.path, trail: [...instance.trail] };
    for (let more = list.pagination.length > 0 ? 2 : 0; more > 0 && !this.spent(); more--) {
      const another = await this.create(resource);
      if (typeof another === 'object') {
        made.push(another);
        place.trail.push(another.trail.at(-1)!);
      }
    }
    const sizeParameter = model.params.find(
      (param) => param.in === 'query' && /^(limit|per_?page|page_?size|size|count)$/i.test(param.name),
    )?.name;
    const schemaOf = (name: string) => model.params.find((param) => param.name === name)?.schema;
    // Large pages to find the instance (the run's earlier phases may have made many), small ones to see paging.
    const large = await this.pages(list, resource, place, idField, sizeParameter, (name) =>
      largePageSize(this.document, schemaOf(name)),
    );
    if (!large.walk.complete || large.evidence === undefined)
      this.because(
        'listed_after_create',
        instance.create,
        `${list.operationId} did not end within ${this.options.maxPages} pages, or answered no 2xx list`,
      );
    else
      this.judge(
        'listed_after_create',
        instance.create,
        large.evidence,
        made.flatMap((one) => judgeListed(one.create, large.walk, one.path, resource.id?.parameter, one.id)),
      );
    if (list.pagination.length === 0 || this.spent()) return;
    // Paging is judged on the items the large pages showed: one they left out is listed_after_create's finding.
    const shown = new Set(large.walk.pages.flat().map((id) => JSON.stringify(id)));
    const listedIds = made.map((one) => one.id).filter((id) => shown.has(JSON.stringify(id)));
    await this.paging(list, resource, place, idField, sizeParameter, schemaOf, listedIds);
  }

  /** paging_consistent: the list walked with pages of the smallest size, then of one more. */
  private async paging(
    list: ModelOperation,
    resource: Resource,
    place: Place,
    idField: string,
    sizeParameter: string | undefined,
    schemaOf: (name: string) => unknown,
    listedIds: readonly unknown[],
  ): Promise<void> {
    const findings: ReturnType<typeof judgePaging> = [];
    let evidence: CaseResult | undefined;
    // Without a size parameter both walks would be the server's default pages: one is enough.
    for (const size of sizeParameter === undefined ? [smallPageSize] : [smallPageSize, nextPageSize]) {
      if (this.spent()) break;
      if (sizeParameter !== undefined && size(this.document, schemaOf(sizeParameter)) === undefined) continue;
      const small = await this.pages(list, resource, place, idField, sizeParameter, (name) =>
        size(this.document, schemaOf(name)),
      );
      if (small.walk.pages.length < 2 || small.evidence === undefined) continue;
      const found = judgePaging(list.operationId, small.walk.pages, listedIds, small.walk.complete);
      if (evidence === undefined || (found.length > 0 && findings.length === 0)) evidence = small.evidence;
      findings.push(...found);
    }
    if (evidence === undefined)
      this.because(
        'paging_consistent',
        list.operationId,
        `${list.operationId} answered one page with the run's ${listedIds.length} items: a page size parameter (limit) lets the walk ask for small pages`,
      );
    else this.judge('paging_consistent', list.operationId, evidence, findings);
  }

  /** One walk through a list's pages, and the last page's step (the evidence a finding carries). */
  private async pages(
    list: ModelOperation,
    resource: Resource,
    place: Place,
    idField: string,
    sizeParameter: string | undefined,
    pageSize: (name: string) => number | undefined,
  ): Promise<{ walk: PageWalk; evidence: CaseResult | undefined }> {
    let evidence: CaseResult | undefined;
    let number = 0;
    const walk = await walkPages(
      async (query) => {
        // The page's facts go with its step: a reproduction judges the pages it walks again (repro-script.ts).
        const page = await this.send(
          list.operationId,
          place,
          { query },
          `list ${resource.name} items, ${JSON.stringify(query)}`,
          { page: { number: ++number, itemsPointer: list.itemsPointer ?? '', idField } },
        );
        evidence = page ?? evidence;
        return page;
      },
      {
        list,
        idField,
        maxPages: this.options.maxPages,
        pageSize,
        ...(sizeParameter !== undefined ? { sizeParameter } : {}),
      },
    );
    return { walk, evidence };
  }

  /** read_after_write on a PATCH or PUT: drawn bodies until one is taken with 2xx and sets a field; then a stale If-Match. */
  private async write(instance: Instance, write: string): Promise<void> {
    const model = this.target.models.get(write);
    const operation = this.operations.get(write);
    const read = instance.resource.read[0];
    if (model === undefined || operation === undefined) return;
    const bodies = model.body ? drawnBodies(this.document, model.body.schema, this.options.seed + ++this.counter) : [];
    const excepted = exceptedFields(this.target.compiled.spec.document, instance.resource.schema);
    // The path names what is written: a body's id field is the path's item, whether a server ignores it or renames.
    const idField = instance.resource.id?.field;
    if (idField !== undefined) excepted.add(idField);
    let answered: number | undefined;
    for (const body of bodies) {
      if (this.spent() || instance.deleted) return;
      const result = await this.send(
        write,
        instance,
        { body },
        `${write} on ${described(instance.path, instance.resource.id?.parameter)}`,
      );
      if (result === undefined) continue;
      answered = result.sent.exchange.status;
      if (!is2xx(answered)) continue;
      const answer = result.sent.exchange.body === '' ? undefined : result.sent.json;
      if (read === undefined || judgedFields({ sent: body, answered: answer, excepted }).length === 0) continue;
      const after = await this.send(read, instance, {}, `read it again after ${write}`);
      if (after === undefined || !is2xx(after.sent.exchange.status)) break;
      const findings = judgeReadAfterWrite({
        write,
        read,
        path: instance.path,
        idParameter: instance.resource.id?.parameter,
        sent: body,
        answered: answer,
        read_: after.sent.json,
        excepted,
      });
      this.judge('read_after_write', write, after, findings);
      break;
    }
    this.because(
      'read_after_write',
      write,
      answered === undefined
        ? `no valid body for ${write} could be drawn from its schema`
        : `${write} answered ${answered} to every body drawn, or set no field its answer confirms`,
    );
    if (
      repeatOf(write, instance.resource.actions, operation.conflicts, operation.method) === 'stale' &&
      bodies[0] !== undefined
    )
      await this.repeat(instance, write, { body: bodies[0], headers: { 'If-Match': staleEtag } }, 'stale');
  }

  /** conflict_documented: the state change sent again (or with a stale If-Match) is refused. */
  private async repeat(
    instance: Instance,
    operationId: string,
    change: Partial<RequestData>,
    how: 'again' | 'stale',
  ): Promise<CaseResult | undefined> {
    const operation = this.operations.get(operationId)!;
    const note =
      how === 'again'
        ? `${operationId} again on the same ${instance.resource.name}`
        : `${operationId} with a stale If-Match`;
    const result = await this.send(operationId, instance, change, note);
    if (result === undefined) {
      this.because(
        'conflict_documented',
        operationId,
        `no valid request to ${operationId} could carry the repeat (If-Match refused by the spec?)`,
      );
      return undefined;
    }
    const findings = judgeConflict(
      operationId,
      operation.conflicts,
      how,
      instance.path,
      instance.resource.id?.parameter,
      result.sent.exchange.status,
    );
    this.judge('conflict_documented', operationId, result, findings);
    return result;
  }

  /** ignored_auth: a secured operation sent once with no credential, on the instance (collections under its parent). */
  private async probe(instance: Instance, operationId: string): Promise<void> {
    const operation = this.operations.get(operationId);
    const model = this.target.models.get(operationId);
    if (!operation?.secured || model === undefined || this.probed.has(operationId) || instance.deleted) return;
    this.probed.add(operationId);
    // The smallest body first, then drawn ones: the smallest may break the schema's own bounds (`{}` for a patch
    // with minProperties: 1), and a probe must be valid in all but its credential.
    const bodies: unknown[] = model.body
      ? [
          baseRequest({ api: this.target.api, document: this.document, model }).body,
          ...drawnBodies(this.document, model.body.schema, this.options.seed),
        ].filter((body) => body !== undefined)
      : [undefined];
    let result: CaseResult | undefined;
    for (const body of bodies) {
      result = await this.send(
        operationId,
        instance,
        body === undefined ? {} : { body },
        `without credentials, on ${described(instance.path, instance.resource.id?.parameter)}, which the run created`,
        { phase: 'negative', intent: 'negative', anonymous: true },
      );
      if (result !== undefined || this.executor.expired) break;
    }
    if (result === undefined)
      this.because('ignored_auth', operationId, `no request to ${operationId} without credentials is valid otherwise`);
    else if (is2xx(result.sent.exchange.status) && instance.resource.delete.includes(operationId))
      instance.deleted = true;
  }

  /** An action, after its probe; then, where it documents 409/410/412, repeated on the same instance. */
  private async act(instance: Instance, action: string): Promise<void> {
    const operation = this.operations.get(action);
    if (operation === undefined) return;
    await this.probe(instance, action);
    const how = repeatOf(action, instance.resource.actions, operation.conflicts, operation.method);
    const first = await this.send(
      action,
      instance,
      {},
      `${action} on ${described(instance.path, instance.resource.id?.parameter)}`,
    );
    if (how === undefined) return;
    if (first === undefined || !is2xx(first.sent.exchange.status)) {
      this.because(
        'conflict_documented',
        action,
        `${action} did not answer 2xx the first time${first ? ` (${first.sent.exchange.status})` : ''}, so there was nothing to repeat`,
      );
      return;
    }
    await this.repeat(instance, action, how === 'stale' ? { headers: { 'If-Match': staleEtag } } : {}, how);
  }

  /** Every instance the run made, deleted children first; use_after_free and the delete's conflicts judged on each. */
  private async deleteAll(): Promise<void> {
    for (const instance of [...this.instances].reverse()) {
      const remove = instance.resource.delete[0];
      if (remove === undefined || instance.deleted) continue;
      await this.probe(instance, remove);
      if (instance.deleted) continue;
      const operation = this.operations.get(remove)!;
      const how = repeatOf(remove, instance.resource.actions, operation.conflicts, operation.method);
      if (how === 'stale') {
        const stale = await this.repeat(instance, remove, { headers: { 'If-Match': staleEtag } }, 'stale');
        if (stale && is2xx(stale.sent.exchange.status)) instance.deleted = true;
        if (instance.deleted) continue;
      }
      const result = await this.send(remove, instance, {}, `delete the ${instance.resource.name} the run made`);
      if (result === undefined || !is2xx(result.sent.exchange.status)) {
        this.because(
          'use_after_free',
          remove,
          `${remove} answered ${result?.sent.exchange.status ?? 'nothing'}, not 2xx`,
        );
        continue;
      }
      instance.deleted = true;
      const read = instance.resource.read[0];
      const after = read === undefined ? undefined : await this.send(read, instance, {}, `read it after ${remove}`);
      if (after !== undefined)
        this.judge(
          'use_after_free',
          remove,
          after,
          judgeUseAfterFree(
            remove,
            read!,
            instance.path,
            instance.resource.id?.parameter,
            after.sent.exchange.status,
            this.operations.get(read!)?.gone.length !== 0,
          ),
        );
      if (how === 'again') await this.repeat(instance, remove, {}, 'again');
    }
  }
}
