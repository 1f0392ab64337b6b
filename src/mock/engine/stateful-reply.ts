// How the stateful engine words its answers: a stored representation under a documented status (the documented
// answer's required headers kept, an ETag where the answer documents one), or a documented refusal (404, 409, 412,
// 422) with its reason where the body has a place for it. Each is judged again by guarded() before it is sent.
import type { RequestRecord } from '../../core/check-request.js';
import type { CompiledOperation } from '../../core/compile-contract.js';
import type { ValidateFunction } from 'ajv';
import { escapeLine } from '../../core/escape-line.js';
import { responseFor, type OperationSpec } from '../../core/operation-index.js';
import type { ModelOperation } from '../../core/resource-model/types.js';
import type { Engine } from './answer-request.js';
import { compiledResponse, documentedAnswer, withReason } from './documented-answer.js';
import { problem, unable, type EngineAnswer } from './engine-answer.js';
import type { ResourceFacts, Stateful } from './stateful-engine.js';
import type { StoredItem } from './store.js';

export interface Call {
  stateful: Stateful;
  operation: ModelOperation;
  facts: ResourceFacts;
  compiled: CompiledOperation;
  /** The method and path (without the base path) the request is judged as. */
  judgedAs: { method: string; path: string };
  pathParams: Record<string, string>;
  request: RequestRecord;
  /** The server base path the request was sent under ('' when none). */
  base: string;
  /** A search of the resource's items (stateful-engine.ts's adoptOperations): filtered by the query. */
  filtered?: boolean;
}

/** The documented answer of `status`, made once per operation and status (its headers and a body to start from). */
export function documented(call: Call, status: number, problemBody?: Record<string, unknown>): EngineAnswer {
  const { engine } = call.stateful;
  // A success answer by operation and status without a key to build: a create asks for its own twice.
  const byStatus = problemBody ? undefined : plainAnswers(call.compiled);
  const plain = byStatus?.get(status);
  if (plain) return plain;
  const key = `stateful\n${call.operation.operationId}\n${status}\n${problemBody ? 'problem' : ''}`;
  const cached = engine.answers.get(key);
  if (cached) return cached;
  const made = documentedAnswer(
    engine.contract,
    call.compiled,
    call.judgedAs,
    status,
    problemBody ? { problem: problemBody } : {},
  );
  remember(engine, key, made);
  byStatus?.set(status, made);
  return made;
}

/** The documented answers of an operation by status (as many as it documents), kept as long as its contract is. */
const plainByOperation = new WeakMap<CompiledOperation, Map<number, EngineAnswer>>();
function plainAnswers(compiled: CompiledOperation): Map<number, EngineAnswer> {
  let found = plainByOperation.get(compiled);
  if (!found) plainByOperation.set(compiled, (found = new Map()));
  return found;
}

function remember(engine: Engine, key: string, answer: EngineAnswer): void {
  if (engine.answers.size >= 10_000) engine.answers.clear();
  engine.answers.set(key, answer);
}

/** The documented template body of `status`, parsed (undefined when it is no JSON object). */
export function templateOf(call: Call, status: number): Record<string, unknown> | undefined {
  // Parsed once per documented answer (itself made once): callers only read it (fillServerFields copies values).
  const made = documented(call, status);
  if (templates.has(made)) return templates.get(made);
  let template: Record<string, unknown> | undefined;
  try {
    const value = JSON.parse(made.body) as unknown;
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      template = value as Record<string, unknown>;
  } catch {
    template = undefined;
  }
  templates.set(made, template);
  return template;
}

const templates = new WeakMap<EngineAnswer, Record<string, unknown> | undefined>();

/** The answer carrying `value` (JSON) with `status`: the documented answer's required headers, an ETag, `extra`. */
export function represent(
  call: Call,
  status: number,
  value: unknown,
  item: StoredItem | undefined,
  extra: Record<string, string> = {},
): EngineAnswer {
  const response = compiledResponse(call.compiled, status);
  if (!response) return unable(`${status} is not documented for ${call.operation.operationId}`);
  const made = documented(call, status);
  const headers: Record<string, string> = {};
  for (const header of response.headers) {
    const name = header.name.toLowerCase();
    if (header.required && made.headers[name] !== undefined) headers[name] = made.headers[name]!;
    // RFC 9110 section 8.8.3: a strong validator, changed by every change of the item, in a form the header's
    // schema accepts (`"7"`, else `"v7"`).
    if (name === 'etag' && item) headers.etag = etagFor(call, header.validate, item.version);
  }
  Object.assign(headers, extra);
  if (response.spec.noBody || value === undefined) return { status, headers, body: '' };
  const media = response.mediaTypes.find((candidate) => candidate.json) ?? response.mediaTypes[0];
  if (!media) return { status, headers, body: '' };
  headers['content-type'] = media.mediaType.includes('*') ? 'application/json' : media.mediaType;
  // The stored item's JSON was made when it was stored (store.ts): a read does not serialise it again.
  return { status, headers, body: item && value === item.value ? item.text : JSON.stringify(value) };
}

/**
 * A documented refusal: `status` with the spec's body (problem+json where it documents it), the reason written in.
 * Where the operation documents neither `status` nor its range nor `default`, its nearest documented 4xx
 * (documentedRefusal): an undocumented status would fail the sandbox's own checks and be sent as its 500. With no
 * 4xx documented at all, the engine's own problem+json (then refused by guarded(), as before).
 */
export function refuse(call: Call, wanted: number, title: string, detail: string): EngineAnswer {
  const status = documentedRefusal(call.compiled.spec, wanted);
  if (status === undefined) return problem(wanted, title, detail);
  const made = documented(call, status, { type: 'about:blank', title, status, detail: '' });
  return withReason(call.stateful.engine.contract, call.judgedAs, made, escapeLine(detail));
}

/**
 * `wanted` where the operation documents it (its code, its range or `default`: OpenAPI 3.1 section 4.8.16), else the
 * first documented of 410, 400 and 422 (the client asked for what is not there, or sent what cannot be), else the
 * lowest documented 4xx other than 401, 403 and 407 (which would send a client to its credentials).
 */
export function documentedRefusal(operation: OperationSpec, wanted: number): number | undefined {
  if (responseFor(operation, wanted)) return wanted;
  const documented = operation.responses
    .map((response) => Number(response.status))
    .filter((code) => code >= 400 && code < 500);
  return (
    [410, 400, 422].find((code) => documented.includes(code)) ??
    documented.filter((code) => ![401, 403, 407].includes(code)).sort((a, b) => a - b)[0]
  );
}

export function notFound(call: Call, what: string): EngineAnswer {
  return refuse(call, 404, 'Not Found', `${what} does not exist`);
}

/** Whether the documented `status` answer's JSON schema accepts `value`. */
export function answerAccepts(call: Call, status: number, value: unknown): boolean {
  const media = compiledResponse(call.compiled, status)?.mediaTypes.find((candidate) => candidate.json);
  if (!media?.validate) return true;
  const result = call.stateful.engine.contract.check(media.validate, value);
  return result.errors.length === 0 && result.stoppedAfter === undefined;
}

/** The first reason the documented `status` answer's schema refuses `value`. */
export function refusedBecause(call: Call, status: number, value: unknown): string | undefined {
  const media = compiledResponse(call.compiled, status)?.mediaTypes.find((candidate) => candidate.json);
  if (!media?.validate) return undefined;
  const error = call.stateful.engine.contract.check(media.validate, value).errors[0];
  return error && (error.instancePath ? `${error.instancePath}: ${error.message}` : error.message);
}

function etagFor(call: Call, validate: ValidateFunction | undefined, version: number): string {
  const forms = [`"${version}"`, `"v${version}"`];
  if (!validate) return forms[0]!;
  const contract = call.stateful.engine.contract;
  return forms.find((form) => contract.check(validate, form).errors.length === 0) ?? forms[0]!;
}

/** Whether an entity tag of If-Match names this version, in either form etagFor makes. */
export function namesVersion(tag: string, version: number): boolean {
  return tag.replace(/^W\//, '').replace(/^"v?/, '"') === `"${version}"`;
}
