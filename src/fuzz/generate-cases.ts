// The request generators, one per phase, pure and seeded: examples and boundaries are fixed lists; random and
// negative are fast-check arbitraries (so a failing case shrinks). Each case changes one thing from the smallest
// valid request, so a failure names its cause.
import fc from 'fast-check';
import type { FuzzPlugin } from './fuzz-plugin.js';
import { isBoundParam, isPlainObject, type FuzzCase, type Phase } from './fuzz-case.js';
import { deref, type OperationModel, type ParamModel, type ParamValue, type RequestData } from './request-model.js';
import { examplesOf, schemaArbitrary } from './schema-arbitrary.js';
import { boundaryValues, breakingValues, minimalValue, resolved } from './values.js';
import { breakKind, valueKind } from './value-kind.js';
import { ownValue, setOwn } from '../core/own-key.js';
import { bodyFields, fieldValue, setField, withoutField } from './body-fields.js';
import { notJsonBodies } from './not-json-bodies.js';
import { isJsonType } from '../core/media-type.js';

export interface Generator {
  api: string;
  document: unknown;
  model: OperationModel;
  /** Documented parameters a credential of the config fills (a query `clientToken`): the run sends the secret there. */
  credentialParams?: ReadonlySet<string>;
  /** The API's fuzz plug-in: the parameters it binds are not generated. */
  plugin?: FuzzPlugin;
}

/** The parameters the cases vary: all but those the run binds itself (isBoundParam). */
const generatedIn = (generator: Generator) => (param: ParamModel) => !isBoundParam(generator.plugin, param);

/** Longest string put in a URL or a header: a longer one tests the server's URL limit, not the API (and a 152 KB URL
 * made a target reset the connection). Long strings stay in bodies. */
export const maxWireString = 2048;

/**
 * Whether `param` may go on the wire empty: never a path segment (`GET /pets/` is another route), nor a query
 * parameter unless the spec says `allowEmptyValue` (OpenAPI: "Default value is false"; GitHub's mock refused
 * `?min_timestamp=` with 422, and that finding was ours).
 */
const mayBeEmpty = (param: ParamModel) => (param.in === 'query' ? param.allowEmptyValue === true : param.in !== 'path');

/**
 * A path segment `.` or `..` (or their percent-encoded forms) is removed by every URL parser, ours and the
 * target's: `/orgs/./actions/x` goes out as `/orgs/actions/x`, another route (GitHub's mock answered 404).
 */
const dotSegment = (value: string) => /^(\.|%2e){1,2}$/i.test(value);

/**
 * Whether `value` can go on the wire in `param`: empty only where allowed (a negative case may send an empty query
 * value: the request is refused either way, never a path segment), never longer than maxWireString.
 */
function fitsParam(param: ParamModel, value: unknown, negative = false): boolean {
  if (typeof value !== 'string') return true;
  if (param.in === 'path' && dotSegment(value)) return false;
  if (value === '' && !mayBeEmpty(param) && !(negative && param.in === 'query')) return false;
  return value.length <= maxWireString;
}
const bagOf = (param: ParamModel): 'path' | 'query' | 'headers' => (param.in === 'header' ? 'headers' : param.in);

/** The smallest valid request: required parameters and required body fields at their smallest values. */
export function baseRequest(generator: Generator): RequestData {
  const { document, model } = generator;
  const request: RequestData = { path: {}, query: {}, headers: {} };
  for (const param of model.params.filter((p) => p.required && generatedIn(generator)(p)))
    setOwn(request[bagOf(param)], param.name, toParam(minimalParam(document, param)));
  if (model.body?.required) request.body = minimalValue(document, model.body.schema);
  return request;
}

/** A parameter's smallest value that can go on the wire (not `.` for a path segment), else its smallest value. */
function minimalParam(document: unknown, param: ParamModel): unknown {
  const minimal = minimalValue(document, param.schema);
  if (fitsParam(param, minimal)) return minimal;
  return (
    boundaryValues(document, param.schema).find(
      (value) => (value === null || typeof value !== 'object') && fitsParam(param, value),
    ) ?? minimal
  );
}

function caseOf(
  generator: Generator,
  phase: Phase,
  request: RequestData,
  note: string,
  intent: FuzzCase['intent'],
  extra: Partial<FuzzCase> = {},
): FuzzCase {
  return {
    api: generator.api,
    operationId: generator.model.operationId,
    phase,
    request,
    note,
    intent,
    ...hookFor(generator.model),
    ...extra,
  };
}

function hookFor(model: OperationModel): Partial<FuzzCase> {
  if (!model.params.some((param) => param.name === 'hook_id')) return {};
  return { hook: model.method === 'DELETE' ? 'fresh' : 'shared' };
}

export function examplesPhase(generator: Generator): FuzzCase[] {
  const { model, document } = generator;
  const cases: FuzzCase[] = [
    caseOf(generator, 'examples', baseRequest(generator), 'the smallest valid request', 'derive'),
  ];
  for (const [index, example] of (model.body?.examples ?? []).entries()) {
    cases.push(
      caseOf(
        generator,
        'examples',
        { ...baseRequest(generator), body: structuredClone(example) },
        `request body example ${index + 1}`,
        'derive',
      ),
    );
  }
  // Each body field's own examples, the rest of the body at its smallest: a value a business rule accepts where it
  // refuses random ones, kept in one field (the random phase mixes them in too, schema-arbitrary.ts).
  if (model.body) {
    const base = baseRequest(generator);
    for (const { pointer, schema, steps } of bodyFields(document, model.body.schema))
      for (const example of examplesOf(deref(document, schema)))
        cases.push(
          caseOf(
            generator,
            'examples',
            { ...base, body: setField(document, base.body ?? {}, steps, structuredClone(example)) },
            `body${pointer} = its example ${short(example)}`,
            'derive',
            keep(pointer),
          ),
        );
  }
  for (const param of model.params.filter(generatedIn(generator))) {
    const schema = resolved(document, param.schema);
    const examples = [...param.examples, ...(Array.isArray(schema.examples) ? schema.examples : [])];
    for (const example of examples)
      cases.push(withParam(generator, 'examples', param, toParam(example), `${param.name} = its example`));
  }
  return cases;
}

/**
 * Each parameter's and body field's edge values, one at a time. The parameters and fields take turns (the first
 * value of each, then the second of each…), so a --max-examples budget that cuts the list still tries every one
 * of them at its declared edges (boundaryValues puts those first), not the first parameter's every edge.
 */
export function boundariesPhase(generator: Generator): FuzzCase[] {
  const { model, document } = generator;
  const groups: FuzzCase[][] = [];
  for (const param of model.params.filter(generatedIn(generator))) {
    const group: FuzzCase[] = [];
    if (!param.required)
      group.push(caseOf(generator, 'boundaries', baseRequest(generator), `${param.name} absent`, 'derive'));
    for (const value of boundaryValues(document, param.schema, param.in === 'header')) {
      if ((value !== null && typeof value === 'object') || !fitsParam(param, value)) continue;
      group.push({
        ...withParam(generator, 'boundaries', param, toParam(value), `${param.name} = ${short(value)}`),
        kind: valueKind(value),
      });
    }
    groups.push(group);
  }
  for (const param of carriedParams(generator)) groups.push(carriedCases(generator, param));
  if (model.body) {
    const base = baseRequest(generator);
    groups.push([
      caseOf(
        generator,
        'boundaries',
        { ...base, body: fullValue(document, model.body.schema) },
        'every optional body field present',
        'derive',
      ),
    ]);
    for (const { pointer, schema, steps } of bodyFields(document, model.body.schema)) {
      // config.url is always the run's own --hook-url: a generated address would have the target call it.
      if (pointer === '/config/url' || pointer === '/url') continue;
      groups.push(
        boundaryValues(document, schema).map((value) =>
          caseOf(
            generator,
            'boundaries',
            { ...base, body: setField(document, base.body ?? {}, steps, value) },
            `body${pointer} = ${short(value)}`,
            'derive',
            { ...keep(pointer), kind: valueKind(value) },
          ),
        ),
      );
    }
  }
  const cases: FuzzCase[] = [];
  const longest = Math.max(0, ...groups.map((group) => group.length));
  for (let turn = 0; turn < longest; turn++)
    for (const group of groups) if (turn < group.length) cases.push(group[turn]!);
  return cases;
}

/**
 * The parameters the run fills itself that are not a resource's id: a credential's (clientToken), in a query or a
 * header. Their values were never varied, so a server that breaks on a long token was out of reach. Ids (hook_id,
 * owner) stay bound: a generated id could name someone else's resource (a DELETE on hook 1 of a staging server).
 */
function carriedParams(generator: Generator): ParamModel[] {
  return generator.model.params.filter(
    (param) =>
      param.in !== 'path' &&
      (!generatedIn(generator)(param) || generator.credentialParams?.has(param.name) === true) &&
      (param.in === 'query' || param.in === 'header'),
  );
}

/** Lengths around common limits (64, 128, 256 and 1024 bytes, a 64-character token) for a carried string. */
const carriedLengths = [1, 63, 64, 65, 127, 128, 129, 255, 256, 257, 1024, 1025];

/**
 * A carried parameter's own cases, the rest of the request as the smallest valid one: absent (when optional),
 * empty (where it may be), edge lengths, and characters outside ASCII. The value is the case's, never the secret.
 */
function carriedCases(generator: Generator, param: ParamModel): FuzzCase[] {
  const values: unknown[] = [
    '',
    ...carriedLengths.map((length) => 'x'.repeat(length)),
    'é€😀',
    ...boundaryValues(generator.document, param.schema, param.in === 'header'),
  ];
  const seen = new Set<string>();
  const cases: FuzzCase[] = [];
  if (!param.required)
    cases.push(
      caseOf(generator, 'boundaries', dropParam(baseRequest(generator), param), `${param.name} absent`, 'derive', {
        varies: param.name,
      }),
    );
  for (const value of values) {
    if ((value !== null && typeof value === 'object') || !fitsParam(param, value)) continue;
    // Characters outside ASCII cannot go in a header value as they are.
    if (param.in === 'header' && typeof value === 'string' && !/^[\x20-\x7e]*$/.test(value)) continue;
    const key = JSON.stringify(value);
    if (seen.has(key)) continue;
    seen.add(key);
    const note =
      typeof value === 'string' && value.length > 8 && /^x+$/.test(value)
        ? `${param.name} = ${value.length} characters`
        : `${param.name} = ${short(value)}`;
    cases.push({
      ...withParam(generator, 'boundaries', param, toParam(value), note),
      varies: param.name,
      kind: valueKind(value),
    });
  }
  return cases;
}

/**
 * Each constraint of the smallest valid request broken on its own: the negative phase's fixed part, its first
 * `limit` cases (--max-examples). The keyless case comes first: it is the one case of its check (ignored_auth), which
 * a cut after the parameters' cases would leave unexercised, and so failed.
 */
export function negativePhase(generator: Generator, limit = Number.POSITIVE_INFINITY): FuzzCase[] {
  const base = baseRequest(generator);
  const full = generator.model.body
    ? [{ ...base, body: fullValue(generator.document, generator.model.body.schema) }]
    : [];
  const seen = new Set<string>();
  const cases: FuzzCase[] = [];
  for (const request of [base, ...full])
    for (const candidate of mutations(generator, request)) {
      if (cases.length >= limit) return cases;
      const key = JSON.stringify([candidate.request, candidate.omit, candidate.anonymous]);
      if (seen.has(key)) continue;
      seen.add(key);
      cases.push(candidate);
    }
  return cases;
}

/** Whether the operation's body goes out as a form (urlencoded or multipart), whose fields are text. */
function formBody(model: OperationModel): boolean {
  return /^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(model.body?.mediaType ?? '');
}

/**
 * Every single-constraint mutation of `request`, as negative cases, made one at a time: a phase that sends a few of
 * them (--max-examples) does not build them all first (a wide body's every field broken, each a copy of the body:
 * seconds of work, deaf to --max-time, on Google's specs). The keyless case comes first: it is the one case of its
 * check (ignored_auth).
 */
function* mutations(generator: Generator, request: RequestData): IterableIterator<FuzzCase> {
  const { model, document } = generator;
  const negative = (changed: RequestData, note: string, extra: Partial<FuzzCase> = {}) =>
    caseOf(generator, 'negative', changed, note, 'negative', extra);
  // ignored_auth: the same request with no credential of any scheme (the probes on resources the run created or
  // saw are made in run-fuzz.ts, once those exist).
  // Never a keyless change on a made-up id: it may name a real item (the probes change only what the run created).
  const changes = model.method !== 'GET' && model.method !== 'HEAD';
  if (model.secured && !(changes && model.params.some((param) => param.in === 'path'))) {
    const missing = model.apiKeyHeaders.map((header) => `header ${header}`).join(', ');
    yield negative(request, missing ? `${missing}: missing` : 'no credentials', { anonymous: true });
  }
  for (const param of model.params.filter(
    (p) => generatedIn(generator)(p) || p.name === 'hook_id' || p.name === 'delivery_id',
  )) {
    for (const { note, value } of breakingValues(document, param.schema, true)) {
      if (fitsParam(param, value, true))
        yield negative(
          setParam(request, param, toParam(value)),
          `${param.in} ${param.name}: ${note} (${short(value)})`,
          { kind: breakKind(note) },
        );
    }
    if (param.required && param.in !== 'path')
      yield negative(dropParam(request, param), `${param.in} ${param.name}: the required parameter is missing`, {
        kind: 'missing required parameter',
      });
  }
  if (model.body) {
    const body = request.body ?? minimalValue(document, model.body.schema);
    for (const { note, value } of breakingValues(document, model.body.schema, false))
      yield negative({ ...request, body: value }, `body: ${note}`, { kind: breakKind(note) });
    if (isJsonType(model.body.contentType)) {
      const { body: _value, ...bodiless } = request;
      for (const { note, text } of notJsonBodies(body))
        yield negative({ ...bodiless, rawBody: text }, `body: ${note}`, { kind: 'body not JSON' });
    }
    for (const { pointer, schema, required, steps } of bodyFields(document, model.body.schema)) {
      // A form's fields are text on the wire, as parameters are: only what text cannot be breaks their type.
      for (const { note, value } of breakingValues(document, schema, formBody(model)))
        yield negative({ ...request, body: setField(document, body, steps, value) }, `body${pointer}: ${note}`, {
          ...keep(pointer),
          kind: breakKind(note),
        });
      if (required && fieldValue(body, steps) !== undefined)
        yield negative(
          { ...request, body: withoutField(body, steps) },
          `body${pointer}: the required field is missing`,
          { ...keep(pointer), kind: 'missing required field' },
        );
    }
    for (const pointer of strictObjects(document, model.body.schema)) {
      if (pointer === '' || isPlainObject(getAt(body, pointer))) {
        yield negative(
          { ...request, body: setAt(body, `${pointer}/unexpected_field`, 1) },
          `body${pointer}: a field additionalProperties: false forbids`,
          { kind: 'unexpected field' },
        );
      } else {
        yield negative(
          {
            ...request,
            body: setAt(body, pointer, {
              ...(minimalValue(document, fieldSchema(document, model.body.schema, pointer)) as object),
              unexpected_field: 1,
            }),
          },
          `body${pointer}: a field additionalProperties: false forbids`,
          { kind: 'unexpected field' },
        );
      }
    }
  }
}

/** Valid by construction after the validators' say: optional parameters and body fields drawn from their schemas. */
export function randomArbitrary(generator: Generator): fc.Arbitrary<FuzzCase> {
  const { model, document } = generator;
  const params = model.params.filter(generatedIn(generator));
  const paramArbs = params.map((param) => {
    // No filter: a filter that can never pass (an array-typed parameter) looped for ever, deaf to Ctrl-C. A value
    // the wire cannot carry as one scalar becomes a candidate the validators judge, and refuse if they must.
    const arb = schemaArbitrary(document, param.schema, {
      header: param.in === 'header',
      nonEmpty: !mayBeEmpty(param),
    }).map((value) => {
      const scalar = wireScalar(value);
      // Mapped, not filtered (see above): a dot segment becomes a candidate the validators judge.
      return param.in === 'path' && typeof scalar === 'string' && dotSegment(scalar) ? `${scalar}_` : scalar;
    });
    return param.required ? arb : fc.option(arb, { nil: undefined });
  });
  const body = model.body
    ? model.body.required
      ? schemaArbitrary(document, model.body.schema)
      : fc.option(schemaArbitrary(document, model.body.schema), { nil: undefined })
    : fc.constant(undefined);
  return fc.tuple(fc.tuple(...paramArbs), body).map(([values, bodyValue]) => {
    const request: RequestData = { path: {}, query: {}, headers: {} };
    params.forEach((param, index) => {
      if (values[index] !== undefined) setOwn(request[bagOf(param)], param.name, values[index]!);
    });
    if (bodyValue !== undefined) request.body = bodyValue;
    return caseOf(generator, 'random', request, 'a request drawn from the schemas', 'positive');
  });
}

/** A random valid request with one constraint broken; shrinking keeps it broken (the executor re-checks). */
/** How far into a random request's mutations the random negative phase picks. */
const maxRandomMutations = 64;

export function negativeArbitrary(generator: Generator): fc.Arbitrary<FuzzCase> {
  return fc.tuple(randomArbitrary(generator), fc.nat()).map(([valid, pick]) => {
    // One of the request's first mutations, made one at a time up to the pick: every mutation of a wide body, each
    // a copy of it, made for every random case, was most of the run's time on Google's specs, deaf to --max-time.
    const made: FuzzCase[] = [];
    for (const mutation of mutations(generator, valid.request)) {
      made.push(mutation);
      if (made.length > pick % maxRandomMutations) break;
    }
    const chosen = made.length > 0 ? made[pick % made.length]! : { ...valid, intent: 'negative' as const };
    return { ...chosen, note: `${chosen.note}, in a random request` };
  });
}

function withParam(generator: Generator, phase: Phase, param: ParamModel, value: ParamValue, note: string): FuzzCase {
  return caseOf(generator, phase, setParam(baseRequest(generator), param, value), note, 'derive');
}

function setParam(request: RequestData, param: ParamModel, value: ParamValue): RequestData {
  const bag = bagOf(param);
  return { ...request, [bag]: { ...request[bag], [param.name]: value } };
}

function dropParam(request: RequestData, param: ParamModel): RequestData {
  const bag = bagOf(param);
  const { [param.name]: _dropped, ...rest } = request[bag];
  return { ...request, [bag]: rest };
}

/** A drawn value as one parameter value: an array's first item (an exploded array of one), none for an empty one. */
function wireScalar(value: unknown): ParamValue | undefined {
  if (Array.isArray(value)) return value.length === 0 ? undefined : toParam(value[0]);
  return toParam(value);
}

function toParam(value: unknown): ParamValue {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value)
    ? (value as ParamValue)
    : JSON.stringify(value);
}

function strictObjects(document: unknown, raw: unknown, prefix = '', depth = 0): string[] {
  const schema = resolved(document, raw);
  const here = schema.additionalProperties === false ? [prefix] : [];
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  if (depth >= 2) return here;
  return [
    ...here,
    ...Object.entries(properties).flatMap(([name, sub]) =>
      strictObjects(document, sub, `${prefix}/${name}`, depth + 1),
    ),
  ];
}

function fieldSchema(document: unknown, raw: unknown, pointer: string): unknown {
  let schema: unknown = raw;
  for (const segment of pointer.split('/').slice(1))
    schema = ownValue(resolved(document, schema).properties as Record<string, unknown> | undefined, segment) ?? {};
  return schema;
}

/** A body with every optional field at its smallest value (objects filled in, one level down). */
function fullValue(document: unknown, raw: unknown, depth = 0): unknown {
  const schema = resolved(document, raw);
  if (!schema.properties || depth > 2) return minimalValue(document, raw);
  return Object.fromEntries(
    Object.entries(schema.properties as Record<string, unknown>)
      // A property whose schema is `false` must be absent: "every optional field present" leaves it out.
      .filter(([, sub]) => deref(document, sub) !== false)
      .map(([name, sub]) => [name, fullValue(document, sub, depth + 1)]),
  );
}

function setAt(root: unknown, pointer: string, value: unknown): unknown {
  const segments = pointer.split('/').slice(1);
  const copy = structuredClone(isPlainObject(root) ? root : {}) as Record<string, unknown>;
  let node = copy;
  for (const segment of segments.slice(0, -1)) {
    if (!isPlainObject(ownValue(node, segment))) setOwn(node, segment, {});
    node = node[segment] as Record<string, unknown>;
  }
  setOwn(node, segments.at(-1)!, value);
  return copy;
}

function getAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const segment of pointer.split('/').slice(1)) node = isPlainObject(node) ? node[segment] : undefined;
  return node;
}

/** A mutated or edge config.url is kept as generated: the run replaces only a valid one with its own marker URL. */
function keep(pointer: string): Partial<FuzzCase> {
  return pointer === '/config/url' || pointer === '/url' || pointer === '/config' ? { keepPath: pointer } : {};
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 40 ? `${text.slice(0, 30)}… (${text.length} chars)` : text;
}
