// ignored_auth on resources that exist. A keyless request for an id that does not exist proves nothing: the target
// answers 404 whether it checks the key or not (a user's DELETE that ignored its key passed that way, and a keyless
// DELETE on a real id deleted a real item). So the run keeps a ledger of what its valid requests showed to exist
// (ids in list answers, items a GET answered) and of what it created (a POST's answer), and after the phases each
// secured operation on an item is sent once with no credential at all, on such an id:
// - GET and HEAD on an id the run saw or created;
// - anything that changes (PUT, PATCH, DELETE, POST) only on an item the run created, made for the probe when
//   needed (the collection's POST with its smallest valid body) and deleted afterwards with the credentials.
// An id is read from the answer: the field named like the path parameter, else `id`, else the parameter's name
// without its Id suffix, else the last segment of a Location header; one that is no path segment (`..`, core/
// path-segment.ts) is not kept, and the probes that needed it say so.
import { headerValue } from '../core/exchange.js';
import { pathSegmentProblem, refusedSegment } from '../core/path-segment.js';
import { isPlainObject, type FuzzCase } from './fuzz-case.js';
import { baseRequest } from './generate-cases.js';
import type { ApiTarget, Executor, Sent } from './executor.js';
import type { OperationModel, ParamValue, RequestData } from './request-model.js';

export type PathValues = Record<string, ParamValue>;

/** The most ids kept per collection or item template: a probe needs one. */
const perTemplate = 8;
const changing = new Set(['PUT', 'PATCH', 'DELETE', 'POST']);

/** `/items/{id}` and `/items/{id}/tags` → the collection `/items` and the parameter `id`; undefined without one. */
export function itemOf(template: string): { collection: string; param: string } | undefined {
  const match = /^(.*)\/\{([^}/]+)\}(?:\/[^{}]*)?$/.exec(template);
  return match ? { collection: match[1]!, param: match[2]! } : undefined;
}

/** The id an answer gives for `param`: its own field, `id`, the name without an Id suffix, or Location's last segment. */
export function idFrom(body: unknown, param: string, location?: string): ParamValue | undefined {
  if (isPlainObject(body)) {
    const bare = param.replace(/[-_]?id$/i, '');
    for (const key of [param, 'id', 'ID', bare]) {
      const value = key ? body[key] : undefined;
      if ((typeof value === 'string' && value !== '' && value.length <= 256) || typeof value === 'number') return value;
    }
  }
  if (location) {
    const last = location.split(/[?#]/)[0]!.split('/').filter(Boolean).pop();
    if (last) {
      try {
        return decodeURIComponent(last);
      } catch {
        return last;
      }
    }
  }
  return undefined;
}

/** The items of a list answer: the array itself, or the first array-valued field of an object (`{ items: […] }`). */
function listedItems(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  if (isPlainObject(body)) for (const value of Object.values(body)) if (Array.isArray(value)) return value;
  return [];
}

interface Known {
  path: PathValues;
  /** The path values as one string, to compare. */
  key: string;
  /** Made by this run: it may be changed or deleted. */
  created: boolean;
}

/** What the run's valid requests showed to exist, by item template ("/items/{id}"), each id with its path values. */
export class ResourceLedger {
  private readonly known = new Map<string, Known[]>();
  /** Per item template, why the last id an answer gave for it was not kept. */
  private readonly refused = new Map<string, string>();
  /** Per API: the item templates under each collection path. */
  private readonly index = new WeakMap<object, Map<string, { template: string; param: string }[]>>();

  private itemsUnder(target: ApiTarget, collection: string): { template: string; param: string }[] {
    let byCollection = this.index.get(target);
    if (byCollection === undefined) {
      byCollection = new Map();
      for (const model of target.models.values()) {
        const item = itemOf(model.pathTemplate);
        if (item === undefined) continue;
        const list = byCollection.get(item.collection) ?? [];
        if (!list.some((entry) => entry.template === model.pathTemplate))
          list.push({ template: model.pathTemplate, param: item.param });
        byCollection.set(item.collection, list);
      }
      this.index.set(target, byCollection);
    }
    return byCollection.get(collection) ?? [];
  }

  /** Why no id is known for `template` when an answer gave one that is no path segment; undefined otherwise. */
  refusal(template: string): string | undefined {
    return this.known.has(template) ? undefined : this.refused.get(template);
  }

  private add(template: string, path: PathValues, created: boolean, from: string, param: string): void {
    const id = path[param];
    if (id !== undefined && pathSegmentProblem(id) !== undefined) {
      this.refused.set(template, refusedSegment(`the ${param} from the ${from} answer`, id));
      return;
    }
    const list = this.known.get(template) ?? [];
    const key = JSON.stringify(path);
    const already = list.find((k) => k.key === key);
    if (already) {
      already.created ||= created;
      return;
    }
    if (list.length >= perTemplate) list.shift();
    list.push({ path, key, created });
    this.known.set(template, list);
  }

  /** A valid request answered 2xx: what it shows to exist. */
  saw(target: ApiTarget, model: OperationModel, request: RequestData, sent: Sent): void {
    const status = sent.exchange.status;
    if (status < 200 || status > 299) return;
    const item = itemOf(model.pathTemplate);
    if (model.method === 'GET' && item)
      this.add(model.pathTemplate, { ...request.path }, false, model.operationId, item.param);
    if (model.method !== 'POST' && model.method !== 'GET') return;
    const items = this.itemsUnder(target, model.pathTemplate);
    if (items.length === 0) return;
    const location = headerValue(sent.exchange.headers, 'location');
    for (const { template, param } of items) {
      if (model.method === 'POST') {
        const id = idFrom(sent.json, param, location);
        if (id !== undefined) this.add(template, { ...request.path, [param]: id }, true, model.operationId, param);
      } else {
        for (const entry of listedItems(sent.json).slice(0, perTemplate)) {
          const id = idFrom(entry, param);
          if (id !== undefined) this.add(template, { ...request.path, [param]: id }, false, model.operationId, param);
        }
      }
    }
  }

  created(template: string, path: PathValues): boolean {
    const key = JSON.stringify(path);
    return (this.known.get(template) ?? []).some((k) => k.created && k.key === key);
  }

  /** An id for `model`'s template: one the run created for a method that changes things, else any it knows. */
  pick(model: OperationModel): PathValues | undefined {
    return changing.has(model.method)
      ? this.pickCreated(model.pathTemplate)
      : this.known.get(model.pathTemplate)?.at(-1)?.path;
  }

  pickCreated(template: string): PathValues | undefined {
    return this.known
      .get(template)
      ?.filter((k) => k.created)
      .at(-1)?.path;
  }

  forget(template: string, path: PathValues): void {
    const key = JSON.stringify(path);
    const list = this.known.get(template);
    if (list)
      this.known.set(
        template,
        list.filter((k) => k.key !== key),
      );
  }
}

/**
 * The probes of one API, after its phases. Each is a case of its own (phase negative, no credentials), judged by
 * ignored_auth like any other; an operation with no id to probe keeps only the negative phase's keyless case.
 */
export async function probeAuthOnResources(
  executor: Executor,
  target: ApiTarget,
  document: unknown,
  models: OperationModel[],
  readOnly: boolean,
): Promise<void> {
  const all = [...target.models.values()];
  for (const model of models) {
    if (executor.expired) return;
    if (!model.secured || (readOnly && model.method !== 'GET')) continue;
    const item = itemOf(model.pathTemplate);
    if (item === undefined) continue;
    let path = executor.resources.pick(model);
    let made = false;
    if (path === undefined && !readOnly) {
      path = await createFor(executor, target, document, all, model.pathTemplate, item.collection);
      made = path !== undefined;
    }
    if (path === undefined) {
      const refused = executor.resources.refusal(model.pathTemplate);
      if (refused !== undefined) {
        executor.options.log(`fuzz: ${target.api}: ${model.method} ${model.pathTemplate} not probed: ${refused}`);
        executor.options.results.unexercised(target.api, model.operationId, 'ignored_auth', refused);
      }
      continue;
    }
    const request = baseRequest({ api: target.api, document, model });
    request.path = { ...request.path, ...path };
    const probe: FuzzCase = {
      api: target.api,
      operationId: model.operationId,
      phase: 'negative',
      request,
      note: `on ${item.param} ${JSON.stringify(path[item.param])}, which the run ${executor.resources.created(model.pathTemplate, path) ? 'created' : 'saw'}`,
      intent: 'negative',
      anonymous: true,
    };
    await sendAndJudge(executor, target, probe);
    if (changing.has(model.method) || made)
      await deleteCreated(executor, target, document, all, model.pathTemplate, path);
  }
  executor.rethrow();
}

/** One case sent and judged like any other, its new failures kept (the ledger records what it created). */
async function sendAndJudge(executor: Executor, target: ApiTarget, fuzzCase: FuzzCase): Promise<void> {
  const sent = await executor.sendCase(target, fuzzCase);
  if (!sent) return;
  const result = executor.judge(target, sent);
  executor.book.keepNew(target, result);
}

/** An item made for a probe: the collection's POST with its smallest valid request, sent with the credentials. */
export async function createFor(
  executor: Executor,
  target: ApiTarget,
  document: unknown,
  all: OperationModel[],
  template: string,
  collection: string,
): Promise<PathValues | undefined> {
  const create = all.find((m) => m.method === 'POST' && m.pathTemplate === collection);
  if (create === undefined || executor.expired) return undefined;
  await sendAndJudge(executor, target, {
    api: target.api,
    operationId: create.operationId,
    phase: 'negative',
    request: baseRequest({ api: target.api, document, model: create }),
    note: 'an item for the ignored_auth probes',
    intent: 'positive',
  });
  return executor.resources.pickCreated(template);
}

/** Deletes, with the credentials, an item the run created, when the spec has a DELETE for it. */
export async function deleteCreated(
  executor: Executor,
  target: ApiTarget,
  document: unknown,
  all: OperationModel[],
  template: string,
  path: PathValues,
): Promise<void> {
  executor.resources.forget(template, path);
  const item = itemOf(template);
  const itemTemplate = item ? `${item.collection}/{${item.param}}` : template;
  const remove = all.find((m) => m.method === 'DELETE' && m.pathTemplate === itemTemplate);
  if (remove === undefined) return;
  const request = baseRequest({ api: target.api, document, model: remove });
  request.path = { ...request.path, ...path };
  await executor.sendBound(target, remove, request);
}
