// What each role of the resource model does to the store (roles: src/core/resource-model/types.ts). A create stores
// the representation with the server's fields (server-fields.ts); a read answers it; a PATCH merges or applies a
// JSON Patch by its media type (patch.ts); a PUT replaces it (or creates it, where PUT is the model's create); a
// delete removes it; an action answers it and, repeated on the same version where 409 is documented, is refused as a
// conflict (RFC 9110 section 15.5.10). An unknown id is the documented 404; a stale If-Match is the documented 412
// (RFC 9110 section 13.1.1), only where the operation documents 412.
import { headerValue } from '../../core/exchange.js';
import { pathSegmentProblem } from '../../core/path-segment.js';
import { successStatus } from './statuses.js';
import { unable, type EngineAnswer } from './engine-answer.js';
import { jsonPatch, mergePatch } from './patch.js';
import { fillServerFields, newId } from './server-fields.js';
import { collectionKey } from './stateful-engine.js';
import {
  answerAccepts,
  namesVersion,
  notFound,
  refuse,
  refusedBecause,
  represent,
  templateOf,
  type Call,
} from './stateful-reply.js';
import type { StoredItem } from './store.js';

type Body = Record<string, unknown>;

/**
 * What the request sent, as an object to store: a JSON object; a form (application/x-www-form-urlencoded), each
 * field read as its property's type says; nothing (a request body the operation leaves optional) as `{}`, which the
 * server's fields then fill. Anything else (XML, a JSON array) is not stored: undefined.
 */
function bodyObject(call: Call): Body | undefined {
  const text = call.request.body;
  if (text === '') return {};
  const type = (headerValue(call.request.headers, 'content-type') ?? '').toLowerCase();
  if (type.startsWith('application/x-www-form-urlencoded')) return formObject(call, text);
  try {
    const value = unwrapped(call, JSON.parse(text) as unknown);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Body) : undefined;
  } catch {
    return undefined;
  }
}

/** A resource wrapped in one property (`{ "article": … }`: stateful-engine.ts's enveloped) as answers show it. */
function wrapped<T>(call: Call, value: T): T | Record<string, T> {
  const { envelope } = call.facts;
  return envelope === undefined ? value : { [envelope]: value };
}

/** What a wrapped body holds (a request's, a documented answer's), else the body as it is. */
function unwrapped<T>(call: Call, value: T): T {
  const { envelope } = call.facts;
  if (envelope === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const inner = (value as Record<string, unknown>)[envelope];
  return inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? (inner as T) : value;
}

/** A form's fields by the representation's property types (OpenAPI 3.1 section 4.8.14.4: form bodies). */
function formObject(call: Call, text: string): Body {
  const form = new URLSearchParams(text);
  const body: Body = {};
  for (const name of new Set(form.keys())) {
    const schema = call.facts.representation.properties.get(name);
    const values = form.getAll(name);
    const one = values[0]!;
    if (schema?.type === 'array') body[name] = values;
    else if (
      (schema?.type === 'integer' || schema?.type === 'number') &&
      one.trim() !== '' &&
      Number.isFinite(Number(one))
    )
      body[name] = Number(one);
    else if (schema?.type === 'boolean' && (one === 'true' || one === 'false')) body[name] = one === 'true';
    else body[name] = one;
  }
  return body;
}

function status(call: Call): number {
  return successStatus(call.compiled.spec) ?? 200;
}

function idOf(call: Call): string | undefined {
  const parameter = call.facts.resource.id?.parameter;
  if (parameter === undefined) return undefined;
  const fromPath = call.pathParams[parameter];
  if (fromPath !== undefined || call.operation.path !== call.facts.resource.collectionPath) return fromPath;
  // A write on the collection path names its item by the id field of its body (`PUT /pet` with `{ "id": 10 }`).
  const field = call.facts.resource.id?.field;
  const id = field === undefined ? undefined : bodyObject(call)?.[field];
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/** The item the request names, or the answer saying it (or a parent) does not exist. */
function found(call: Call): StoredItem | EngineAnswer {
  const missingParent = parentMissing(call);
  if (missingParent) return missingParent;
  const id = idOf(call);
  const item = id === undefined ? undefined : call.stateful.store.get(collectionKey(call.facts, call.pathParams), id);
  return item ?? notFound(call, `${call.facts.resource.name} ${JSON.stringify(id ?? '')}`);
}

/** A nested resource's parent must exist: its collection under a missing parent is not there either. */
export function parentMissing(call: Call): EngineAnswer | undefined {
  const parent = call.facts.resource.parent;
  const facts = parent && call.stateful.resources.get(parent.resource);
  if (!parent || !facts) return undefined;
  const id = call.pathParams[parent.parameter];
  if (id === undefined || call.stateful.store.has(collectionKey(facts, call.pathParams), id)) return undefined;
  return notFound(call, `${parent.resource} ${JSON.stringify(id)}`);
}

function stale(call: Call, item: StoredItem): EngineAnswer | undefined {
  if (!call.operation.conflicts.includes('412')) return undefined;
  const wanted = headerValue(call.request.headers, 'if-match');
  if (wanted === undefined || wanted.trim() === '*') return undefined;
  if (wanted.split(',').some((tag) => namesVersion(tag.trim(), item.version))) return undefined;
  return refuse(call, 412, 'Precondition Failed', `If-Match ${wanted} is not the current ETag "${item.version}"`);
}

/** Where the value does not fit the representation the spec answers with: the client's (422/400) or ours (500). */
function unfit(call: Call, value: Body, fault: 'client' | 'server'): EngineAnswer | undefined {
  const answer = status(call);
  if (answerAccepts(call, answer, wrapped(call, value))) return undefined;
  const why = refusedBecause(call, answer, wrapped(call, value)) ?? 'the schema refuses it';
  if (fault === 'server') return unable(`the stored ${call.facts.resource.name} would not pass: ${why}`);
  const documented422 = call.compiled.spec.responses.some((response) => response.status === '422');
  return refuse(call, documented422 ? 422 : 400, 'Unprocessable Content', `the result would not pass: ${why}`);
}

export function create(call: Call): EngineAnswer {
  const sent = bodyObject(call);
  if (!sent) return unable(`${call.operation.operationId}: only a JSON object or form body is stored`);
  const missingParent = parentMissing(call);
  if (missingParent) return missingParent;
  const { stateful, facts } = call;
  const key = collectionKey(facts, call.pathParams);
  const field = facts.resource.id?.field;
  const fromPath = call.operation.method === 'put' ? idOf(call) : undefined;
  if (fromPath !== undefined && stateful.store.has(key, fromPath)) return replace(call);
  const chosen = fromPath === undefined ? clientId(call, sent) : undefined;
  // A taken id is the documented 409 where the operation has one (RFC 9110 section 15.5.10); else the server
  // draws an id of its own, as a refusal of a request the spec allows would be no answer it documents.
  const taken = chosen !== undefined && stateful.store.has(key, chosen);
  if (taken && call.compiled.spec.responses.some((response) => response.status === '409'))
    return refuse(call, 409, 'Conflict', `a ${facts.resource.name} ${JSON.stringify(chosen)} already exists`);
  const named = chosen !== undefined && !taken ? chosen : fromPath;
  const seed = stateful.drawn.get(key) ?? 0;
  if (named === undefined) stateful.drawn.set(key, seed + 1);
  const drawn =
    named ?? newId(stateful.engine.contract.spec.document, facts.idSchema, seed, (id) => stateful.store.has(key, id));
  if (drawn === undefined) return unable(`no new id for ${facts.resource.name} was found`);
  // RFC 9110 section 15.3.2: 201 Created where the operation documents it (a PUT that creates or replaces).
  const answer = call.operation.success.includes('201') ? 201 : status(call);
  const value = fillServerFields({
    representation: facts.representation,
    sent,
    id:
      field === undefined ? undefined : { field, value: named !== undefined && named === chosen ? sent[field] : drawn },
    template: unwrapped(call, templateOf(call, answer)),
    now: stateful.now(),
  });
  const refused = unfit(call, value, 'server');
  if (refused) return refused;
  const item = stateful.store.put(key, String(drawn), value);
  const headers: Record<string, string> = {};
  if (call.operation.location.includes(String(answer)) && facts.itemPathOf)
    headers.location =
      call.base + facts.itemPathOf({ ...call.pathParams, [facts.resource.id?.parameter ?? '']: String(drawn) });
  return represent(call, answer, wrapped(call, value), item, headers);
}

/**
 * The id a client chose for what it creates: the id field it sent, where the schema lets a client write it (not
 * readOnly: OpenAPI 3.1 section 4.8.24), as a string or a number (a username, a SKU, Petstore's `id`).
 */
function clientId(call: Call, sent: Body): string | undefined {
  const field = call.facts.resource.id?.field;
  if (field === undefined || call.facts.representation.properties.get(field)?.readOnly === true) return undefined;
  const value = sent[field];
  if (typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) return undefined;
  // An id that is no path segment (a dot segment, a lone surrogate) could not be read back: the server draws one.
  return pathSegmentProblem(value) === undefined ? String(value) : undefined;
}

export function read(call: Call): EngineAnswer {
  const item = found(call);
  return 'status' in item ? item : represent(call, status(call), wrapped(call, item.value), item);
}

export function update(call: Call): EngineAnswer {
  const item = found(call);
  if ('status' in item) return item;
  const conflict = stale(call, item);
  if (conflict) return conflict;
  // A PATCH without a body (one its operation leaves optional) changes nothing: the item is answered as it is.
  if (call.request.body === '') return represent(call, status(call), wrapped(call, item.value), item);
  const type = (headerValue(call.request.headers, 'content-type') ?? '').toLowerCase();
  let patched: unknown;
  try {
    const patch = JSON.parse(call.request.body) as unknown;
    if (type.startsWith('application/json-patch+json')) {
      const applied = jsonPatch(wrapped(call, item.value), patch);
      if ('error' in applied) return refuse(call, 422, 'Unprocessable Content', applied.error);
      patched = unwrapped(call, applied.value);
    } else patched = mergePatch(item.value, unwrapped(call, patch));
  } catch {
    return unable(`${call.operation.operationId}: only a JSON patch is applied`);
  }
  if (patched === null || typeof patched !== 'object' || Array.isArray(patched))
    return refuse(call, 422, 'Unprocessable Content', 'the patched resource is no longer an object');
  return store(call, item, patched as Body);
}

export function replace(call: Call): EngineAnswer {
  const item = found(call);
  if ('status' in item) return item;
  const conflict = stale(call, item);
  if (conflict) return conflict;
  // A PUT without a body (one its operation leaves optional) replaces nothing: the item is answered as it is.
  if (call.request.body === '') return represent(call, status(call), wrapped(call, item.value), item);
  const sent = bodyObject(call);
  if (!sent) return unable(`${call.operation.operationId}: only a JSON object or form body is stored`);
  return store(call, item, sent);
}

function store(call: Call, item: StoredItem, sent: Body): EngineAnswer {
  const field = call.facts.resource.id?.field;
  // The path names the item: a body naming another by its id field does not rename it (the id is kept).
  const value = fillServerFields({
    representation: call.facts.representation,
    sent,
    id: field === undefined ? undefined : { field, value: item.value[field] },
    template: undefined,
    before: item.value,
    now: call.stateful.now(),
  });
  const refused = unfit(call, value, 'client');
  if (refused) return refused;
  call.stateful.store.update(item, value);
  return represent(call, status(call), wrapped(call, value), item);
}

export function remove(call: Call): EngineAnswer {
  const item = found(call);
  if ('status' in item) return item;
  const conflict = stale(call, item);
  if (conflict) return conflict;
  call.stateful.store.remove(collectionKey(call.facts, call.pathParams), item.id);
  const answer = status(call);
  return represent(
    call,
    answer,
    answerAccepts(call, answer, wrapped(call, item.value)) ? wrapped(call, item.value) : templateOf(call, answer),
    undefined,
  );
}

export function action(call: Call): EngineAnswer {
  const item = found(call);
  if ('status' in item) return item;
  const conflict = stale(call, item);
  if (conflict) return conflict;
  const { operationId } = call.operation;
  if (call.operation.conflicts.includes('409') && item.done.has(operationId))
    return refuse(call, 409, 'Conflict', `${operationId} was already applied to this ${call.facts.resource.name}`);
  item.done.add(operationId);
  const answer = status(call);
  return represent(
    call,
    answer,
    answerAccepts(call, answer, wrapped(call, item.value)) ? wrapped(call, item.value) : templateOf(call, answer),
    item,
  );
}
