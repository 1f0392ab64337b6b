// What a request to each operation may carry, read from the spec (OpenAPI 3.1 Parameter, Request Body and Security
// Requirement Objects), and the one judge of a generated request: the core's compiled ajv validators, applied to
// the request as the server will decode it from the wire (so `per_page=5` and `per_page="5"` are the same request).
import {
  closedQuerystring,
  type ClosedQuerystring,
  querystringFields,
  unnamedFields,
  unnamedFieldMessage,
  unsendableQuerystring,
} from './oas32/querystring-parameters.js';
import type { CompiledSpec, SchemaError } from './compile-spec.js';
import { resolvePointer } from './source-locator.js';
import type { LoadedSpec } from './load-spec.js';
import { indexOperations, type OperationSpec } from './operation-index.js';
import { pointerToPath, type JsonPath } from './source-locator.js';
import { ownValue } from './own-key.js';
import { encodeParameter, isPlainParameter, queryText, shapeOf, type WireForm } from './parameter-style.js';
import { decodeParameter, MalformedParameter, queryPairs } from './parameter-style-decode.js';
import { decodeFormBody } from './form-body/decode-form-body.js';
import { encodeForm } from './form-body/encode-form-body.js';
import { formPlan, type FormPlan } from './form-body/form-plan.js';
import { bodyWire, chooseBody, textOnWire } from './sendable-body.js';

export type ParamLocation = 'path' | 'query' | 'header';

const ignoredHeaders = new Set(['accept', 'content-type', 'authorization']);

export interface ParamModel {
  name: string;
  in: ParamLocation;
  required: boolean;
  /** The Schema Object, $refs followed at its top. */
  schema: Record<string, unknown>;
  schemaPath: JsonPath;
  examples: unknown[];
  /** A query parameter that may be sent empty (`?q=`): OpenAPI's `allowEmptyValue`, false unless the spec says so. */
  allowEmptyValue?: boolean;
  /** OpenAPI 3.1 section 4.8.12.2's serialization fields, as the spec wrote them (parameter-style.ts applies the
   * defaults); absent when the spec leaves them out. */
  style?: string;
  explode?: boolean;
  allowReserved?: boolean;
}

/** Any parameter the request check judges: a cookie too, and one described by `content` (then `schema` is the
 * media type's, and `mediaType` names it: OpenAPI 3.1 section 4.8.12.2, "content"). */
export interface CheckedParamModel extends Omit<ParamModel, 'in'> {
  in: ParamLocation | 'cookie';
  mediaType?: string;
}

export interface BodyModel {
  /** The documented media type requests are sent as (sendable-body.ts): JSON (or a +json type) first, then a form,
   * multipart, `*\/*` as JSON, then a type a string can be (binary types, text/*). */
  mediaType: string;
  /** The Content-Type sent: the key, or for a range key a type it covers. Also says how it goes on the wire. */
  contentType: string;
  required: boolean;
  /** What generation draws from (for a text body, a string schema: sendable-body.ts). */
  schema: Record<string, unknown>;
  /** The documented schema a body is judged by; undefined when the media type has none. */
  schemaPath: JsonPath | undefined;
  examples: unknown[];
  /** For a form media type: how its fields go on the wire and are read back (form-body/form-plan.ts). */
  form?: FormPlan;
}

export interface OperationModel {
  operationId: string;
  method: string;
  pathTemplate: string;
  /** The path, query and header parameters that have a schema: what fuzz generates and sends. */
  params: ParamModel[];
  /** Every parameter the request check judges: `params`, cookies, and those described by `content`. */
  checkedParams: CheckedParamModel[];
  body: BodyModel | undefined;
  /** A required body none of whose media types can be generated: why (then no request of it is valid). */
  bodyUnsendable?: string;
  /** OpenAPI 3.2: a querystring parameter whose form admits only the fields it names (querystring-parameters.ts). */
  closedQuerystring?: ClosedQuerystring;
  /** Header names of apiKey security schemes every request must carry (`X-API-KEY`). */
  apiKeyHeaders: string[];
  /** Per alternative of the operation's security, the header names of its apiKey schemes (none without security). */
  apiKeyHeaderAlternatives: string[][];
  /** Whether every request needs credentials: the operation's security (or the document's) is not empty and has no
   * empty alternative (`{}`, "anonymous allowed"). */
  secured: boolean;
  /** Documented statuses ("200", "404", "4XX"). */
  statuses: string[];
  spec: OperationSpec;
}

export type ParamValue = string | number | boolean | null;

/** A concrete request, as data: what the generators make and the executor sends. */
export interface RequestData {
  path: Record<string, ParamValue>;
  query: Record<string, ParamValue>;
  headers: Record<string, ParamValue>;
  /**
   * Query pairs of styled parameters as a saved request sent them, byte for byte (a replay's): appended to the query
   * as they are, and judged by decoding them, so `ids=1,2` stays two items (OpenAPI 3.1 section 4.8.12.4). A
   * parameter named in `query` is judged from there instead.
   */
  styledQuery?: string;
  /** Absent: no body is sent. */
  body?: unknown;
  /**
   * Text sent as the body as it is, under the operation's JSON media type, instead of `body` encoded: a negative
   * case's text that is not JSON (truncated, trailing garbage), which no value of `body` can be.
   */
  rawBody?: string;
  /**
   * The Content-Type a replay's rawBody goes out with, as the saved request sent it (a multipart body's boundary
   * lives there: RFC 2046 section 5.1.1). Absent: the operation's media type.
   */
  rawContentType?: string;
}

export interface Violation {
  where: string;
  message: string;
}

export function operationModels(spec: LoadedSpec): OperationModel[] {
  const document = spec.document as Record<string, unknown>;
  return indexOperations(spec.document).map((operation) => {
    const item = deref(document, resolvePointer(document, '#' + pointerOf(operation.itemPath))) as Record<
      string,
      unknown
    >;
    const raw = resolvePointer(document, '#' + pointerOf(operation.path)) as Record<string, unknown>;
    const checkedParams = parameterModels(document, [
      [item.parameters, [...operation.itemPath, 'parameters']],
      [raw.parameters, [...operation.path, 'parameters']],
    ]);
    const params = checkedParams.filter(
      (param): param is ParamModel => param.in !== 'cookie' && param.mediaType === undefined,
    );
    const alternatives = apiKeyHeaderAlternatives(document, raw.security ?? document.security);
    return {
      operationId: operation.operationId,
      method: operation.method.toUpperCase(),
      pathTemplate: operation.pathTemplate,
      params,
      checkedParams,
      ...bodyModel(document, raw.requestBody, [...operation.path, 'requestBody']),
      ...querystringUnsendable(document, item, raw),
      apiKeyHeaders: commonHeaders(alternatives),
      apiKeyHeaderAlternatives: alternatives,
      secured: isSecured(raw.security ?? document.security),
      statuses: operation.responses.map((response) => response.status),
      spec: operation,
    };
  });
}

/** OpenAPI 3.2: a required querystring parameter we cannot generate makes the operation unsendable (said once). */
function querystringUnsendable(
  document: Record<string, unknown>,
  item: Record<string, unknown>,
  raw: Record<string, unknown>,
) {
  const reason = unsendableQuerystring(document, [item.parameters, raw.parameters]);
  const closed = closedQuerystring(document, [item.parameters, raw.parameters]);
  return {
    ...(reason === undefined ? {} : { bodyUnsendable: reason }),
    ...(closed ? { closedQuerystring: closed } : {}),
  };
}

interface RawParameter {
  name: string;
  in: string;
  required?: boolean;
  allowEmptyValue?: boolean;
  style?: unknown;
  explode?: unknown;
  allowReserved?: unknown;
  schema?: unknown;
  content?: Record<string, { schema?: unknown }>;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}

/** The parameters of a Path Item's and an Operation's lists, the operation's replacing the path's of the same name
 * and location (OpenAPI 3.1 section 4.8.10.1). */
function parameterModels(document: Record<string, unknown>, sources: [unknown, JsonPath][]): CheckedParamModel[] {
  const params = new Map<string, CheckedParamModel>();
  for (const [list, listPath] of sources) {
    if (!Array.isArray(list)) continue;
    list.forEach((entry, index) => {
      const { value, path } = follow(document, entry, [...listPath, index]);
      const param = value as RawParameter;
      // OpenAPI 3.2 section 4.12.2: the whole query string, read as the form fields it names.
      if (param.in === 'querystring') {
        for (const field of querystringFields(document, param, path) ?? [])
          params.set(`query:${field.name.toLowerCase()}`, { ...field, in: 'query', examples: [] });
        return;
      }
      if (param.in !== 'path' && param.in !== 'query' && param.in !== 'header' && param.in !== 'cookie') return;
      // OpenAPI 3.1 §4.8.12.1: a header parameter named Accept, Content-Type or Authorization is ignored (the
      // media types and security schemes say those): sending it beside ours would give the target two.
      if (param.in === 'header' && ignoredHeaders.has(String(param.name).toLowerCase())) return;
      // §4.8.12.2: `schema` or `content`, whose one entry gives the media type and its schema.
      const mediaType = param.schema === undefined && param.content ? Object.keys(param.content)[0] : undefined;
      const schemaAt = mediaType === undefined ? [...path, 'schema'] : [...path, 'content', mediaType, 'schema'];
      const schema = deref(
        document,
        mediaType === undefined ? param.schema : ownValue(param.content ?? {}, mediaType)?.schema,
      ) as Record<string, unknown> | undefined;
      if (!schema) return;
      params.set(`${param.in}:${param.name.toLowerCase()}`, {
        name: param.name,
        in: param.in,
        required: param.required === true || param.in === 'path',
        ...(param.in === 'query' && param.allowEmptyValue === true ? { allowEmptyValue: true } : {}),
        ...(typeof param.style === 'string' ? { style: param.style } : {}),
        ...(typeof param.explode === 'boolean' ? { explode: param.explode } : {}),
        ...(param.allowReserved === true ? { allowReserved: true } : {}),
        ...(mediaType === undefined ? {} : { mediaType }),
        schema,
        schemaPath: Object.freeze(schemaAt),
        examples: [
          ...(param.example !== undefined ? [param.example] : []),
          ...Object.values(param.examples ?? {}).map((example) => example.value),
        ],
      });
    });
  }
  return [...params.values()];
}

function bodyModel(
  document: Record<string, unknown>,
  raw: unknown,
  at: JsonPath,
): { body: BodyModel | undefined; bodyUnsendable?: string } {
  if (raw === undefined) return { body: undefined };
  const { value, path } = follow(document, raw, at);
  const body = value as {
    required?: boolean;
    content?: Record<string, { schema?: unknown; example?: unknown; examples?: Record<string, unknown> }>;
  };
  const content: NonNullable<typeof body.content> = isRecord(body.content) ? body.content : {};
  const choice = chooseBody(content, [...path, 'content'], (schema) => deref(document, schema));
  if ('unsendable' in choice) {
    if (body.required !== true) return { body: undefined };
    return {
      body: undefined,
      bodyUnsendable: `the required request body cannot be generated in any of its media types (${choice.unsendable})`,
    };
  }
  const media = content[choice.mediaType]!;
  // A text body's examples are what it sends only when they are text (an object example of `*/*` is JSON's).
  const examples = [
    ...(media.example !== undefined ? [media.example] : []),
    ...Object.values(media.examples ?? {}).map(
      (example) => (deref(document, example) as { value?: unknown } | undefined)?.value,
    ),
  ].filter(
    (example) => example !== undefined && (bodyWire(choice.contentType) !== 'text' || typeof example === 'string'),
  );
  const form = formPlan(document, choice.mediaType, [...path, 'content', choice.mediaType]);
  return {
    body: {
      required: body.required === true,
      schema: choice.schema,
      schemaPath: choice.schemaPath && Object.freeze(choice.schemaPath),
      mediaType: choice.mediaType,
      contentType: choice.contentType,
      examples,
      ...(form ? { form } : {}),
    },
  };
}

function isRecord(value: unknown): value is Record<string, Record<string, unknown>> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isSecured(security: unknown): boolean {
  return (
    Array.isArray(security) &&
    security.length > 0 &&
    security.every(
      (requirement) => requirement !== null && typeof requirement === 'object' && Object.keys(requirement).length > 0,
    )
  );
}

function apiKeyHeaderAlternatives(document: Record<string, unknown>, security: unknown): string[][] {
  if (!Array.isArray(security)) return [];
  const schemes = ((document.components as Record<string, unknown> | undefined)?.securitySchemes ?? {}) as Record<
    string,
    unknown
  >;
  return security.map((requirement: Record<string, unknown>) =>
    Object.keys(requirement ?? {}).flatMap((name) => {
      const scheme = deref(document, ownValue(schemes, name)) as
        | { type?: string; in?: string; name?: string }
        | undefined;
      return scheme?.type === 'apiKey' && scheme.in === 'header' && scheme.name ? [scheme.name] : [];
    }),
  );
}

/** Any one requirement satisfies OpenAPI security: a header is needed only if every alternative asks for it. */
function commonHeaders(alternatives: string[][]): string[] {
  if (alternatives.length === 0) return [];
  return alternatives.reduce((common, names) => common.filter((name) => names.includes(name)));
}

/** The request as the server reads it: every parameter a string on the wire, decoded by its schema's type. */
/** A JSON number as text: what a server reads as a number off the wire. */
const numeral = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** The name `param` has in its bag of the request (a header's in any case), or undefined when it is not sent. */
function sentName(request: RequestData, param: ParamModel): string | undefined {
  const bag = request[param.in === 'header' ? 'headers' : param.in];
  return Object.keys(bag).find((name) =>
    param.in === 'header' ? name.toLowerCase() === param.name.toLowerCase() : name === param.name,
  );
}

export function wireValue(param: ParamModel, value: ParamValue): unknown {
  const text = param.in === 'header' ? String(value).trim() : String(value);
  const types = typesOf(param.schema);
  if ((types.includes('integer') || types.includes('number')) && numeral.test(text)) return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.includes('null') && text === 'null') return null;
  return text;
}

/**
 * The parameters whose value the wire leaves ambiguous under a `oneOf`: the text `1` for `oneOf: [integer, string]`
 * is a valid string and a valid integer, so a server that decodes it for each branch finds two matches and refuses
 * it (GitHub's `workflow_id`; Prism answered 422), while one that reads it as text accepts it. Such a request is
 * neither valid nor invalid by the spec alone: the fuzzer sends it as neither.
 */
export function ambiguousOnWire(model: OperationModel, compiled: CompiledSpec, request: RequestData): string[] {
  const found: string[] = [];
  for (const param of model.params) {
    if (!Array.isArray(param.schema.oneOf)) continue;
    const key = sentName(request, param);
    if (key === undefined) continue;
    const value = request[param.in === 'header' ? 'headers' : param.in][key]!;
    const text = param.in === 'header' ? String(value).trim() : String(value);
    const readings: unknown[] = [text];
    if (numeral.test(text)) readings.push(Number(text));
    if (text === 'true' || text === 'false') readings.push(text === 'true');
    if (text === 'null') readings.push(null);
    const valid = readings.filter((reading) => compiled.validateAt(param.schemaPath, reading).length === 0);
    if (valid.length > 1) found.push(`${param.in} ${param.name}`);
  }
  return found;
}

/**
 * Every way the request breaks the spec, judged by the compiled validators on its wire form: an empty list means
 * the spec allows it. A case is sent as positive only with none, and as negative only with some.
 */
/** OpenAPI 3.2: each field a closed querystring does not name, as a violation (so fuzz never calls it valid). */
function unnamedQueryViolations(closed: ClosedQuerystring, request: RequestData): Violation[] {
  const names = [...Object.keys(request.query), ...new URLSearchParams(request.styledQuery ?? '').keys()];
  return unnamedFields(closed, names).map((name) => ({
    where: `query ${name}`,
    message: unnamedFieldMessage(closed, name),
  }));
}

export function violations(model: OperationModel, compiled: CompiledSpec, request: RequestData): Violation[] {
  const found: Violation[] = [];
  for (const param of model.params) {
    const bag = request[param.in === 'header' ? 'headers' : param.in];
    const key = sentName(request, param);
    const recorded = key === undefined ? recordedValue(compiled, param, request.styledQuery) : undefined;
    if (key === undefined && recorded === undefined) {
      if (param.required)
        found.push({
          where: `${param.in} ${param.name}`,
          message: `required ${param.in} parameter ${param.name} is missing`,
        });
      continue;
    }
    const value = key === undefined ? recorded : judgedValue(compiled, param, bag[key]!);
    if (value instanceof MalformedParameter) {
      found.push({
        where: `${param.in} ${param.name}`,
        message: `${param.name} is not written in ${value.style} style`,
      });
      continue;
    }
    const errors = compiled.validateAt(param.schemaPath, value);
    for (const error of errors)
      found.push({ where: `${param.in} ${param.name}`, message: describe(error, `${param.name}`) });
  }
  for (const header of model.apiKeyHeaders) {
    if (!Object.keys(request.headers).some((name) => name.toLowerCase() === header.toLowerCase())) {
      found.push({ where: `header ${header}`, message: `the security requirement's ${header} header is missing` });
    }
  }
  if (model.bodyUnsendable !== undefined) found.push({ where: 'body', message: model.bodyUnsendable });
  if (model.closedQuerystring) found.push(...unnamedQueryViolations(model.closedQuerystring, request));
  // A replay's saved bytes beside the value they decode to: judged as that value, as the run judged it.
  if (model.body && request.rawBody !== undefined && request.body === undefined) {
    found.push(...rawBodyViolations(model, compiled, request.rawBody));
  } else if (model.body) {
    const wire = bodyWire(model.body.contentType);
    // An empty text is no body on the wire (RFC 9110 section 8.6).
    const text = wire === 'text' && request.body !== undefined ? textOnWire(request.body) : undefined;
    if (request.body === undefined || text === '') {
      if (model.body.required) found.push({ where: 'body', message: 'the required request body is missing' });
    } else {
      const sent =
        text !== undefined
          ? { value: text, problems: [] }
          : wire === 'form' && model.body.form
            ? formOnWire(model.body.form, request.body)
            : jsonOnWire(request.body);
      for (const message of sent.problems) found.push({ where: 'body', message });
      if (model.body.schemaPath)
        for (const error of compiled.validateAt(model.body.schemaPath, sent.value))
          found.push({ where: 'body', message: describe(error, 'body') });
    }
  }
  return found;
}

/**
 * The value a server decodes from what the executor sends for `value` (its text, percent-encoded, under the
 * parameter's name): by the parameter's style and schema (OpenAPI 3.1 section 4.8.12.4), as the request check
 * reads it, so what fuzz calls valid the check calls valid. A plain parameter is today's typed scalar.
 */
function judgedValue(compiled: CompiledSpec, param: ParamModel, value: ParamValue): unknown {
  const resolve = (schema: unknown) => deref(compiled.spec.document, schema);
  const wire = styledWire(param, value);
  if (wire === undefined) return wireValue(param, value);
  const decodable = { ...param, resolve };
  if (typeof wire !== 'string') return decodeParameter(decodable, queryPairs(queryText(wire)));
  return decodeParameter(decodable, wire);
}

/** A styled query parameter's value decoded from a saved request's pairs (`styledQuery`); undefined when absent. */
function recordedValue(compiled: CompiledSpec, param: ParamModel, styledQuery: string | undefined): unknown {
  if (styledQuery === undefined || param.in !== 'query' || isPlainParameter(param, param.schema)) return undefined;
  const resolve = (schema: unknown) => deref(compiled.spec.document, schema);
  return decodeParameter({ ...param, resolve }, queryPairs(styledQuery));
}

/**
 * What the executor sends for a parameter's value, in the parameter's style (OpenAPI 3.1 section 4.8.12.4): an
 * array schema's value as a list of it, an object schema's JSON text as that object. Undefined for a plain
 * parameter (default style, primitive schema), sent as its text as before; a query's pairs come percent-encoded.
 */
export function styledWire(param: ParamModel, value: ParamValue): WireForm | undefined {
  if (isPlainParameter(param, param.schema)) return undefined;
  const shape = shapeOf(param.schema);
  let styled: unknown = value;
  if (shape === 'array') styled = [value];
  else if (shape === 'object' && typeof value === 'string') {
    try {
      const parsed = JSON.parse(value) as unknown;
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) styled = parsed;
    } catch {
      // Not an object's JSON: sent as the text it is, which its style reads as malformed (a negative case).
    }
  }
  return encodeParameter(param, styled) ?? [];
}

/** A body sent as text: not JSON at all is a violation of its media type (RFC 8259 §2), else judged as its value. */
function rawBodyViolations(model: OperationModel, compiled: CompiledSpec, text: string): Violation[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [{ where: 'body', message: `the body is not JSON, as its media type ${model.body!.mediaType} says` }];
  }
  const schemaPath = model.body!.schemaPath;
  if (schemaPath === undefined) return [];
  return compiled.validateAt(schemaPath, value).map((error) => ({
    where: 'body',
    message: describe(error, 'body'),
  }));
}

/** JSON.stringify is what goes on the wire: undefined fields vanish, -0 becomes 0. */
function jsonOnWire(body: unknown): { value: unknown; problems: string[] } {
  return { value: JSON.parse(JSON.stringify(body)) as unknown, problems: [] };
}

/**
 * A form body as the request check reads it back from what the fuzzer encodes: the field `"3"` of an integer is 3
 * there, a null is an empty text, an empty array no field at all. Judged so, a case is negative only when the server
 * could tell (OpenAPI 3.1 sections 4.8.14.4, 4.8.14.5).
 */
function formOnWire(plan: FormPlan, body: unknown): { value: unknown; problems: string[] } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return jsonOnWire(body);
  const { contentType, body: text } = encodeForm(plan.multipart, body as Record<string, unknown>, plan);
  const decoded = decodeFormBody(plan, text, contentType);
  // Over the field cap the check does not read it back either: judged as the value it is.
  if ('tooMany' in decoded) return jsonOnWire(body);
  if ('malformed' in decoded)
    return { ...jsonOnWire(body), problems: [`the body is not a form: ${decoded.malformed}`] };
  return { value: decoded.value, problems: decoded.problems.map((problem) => problem.message) };
}

function describe(error: SchemaError, subject: string): string {
  return error.message.replace(/^body\b/, subject);
}

export function typesOf(schema: Record<string, unknown>): string[] {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.map(String);
  return [];
}

/** Follows `$ref`s (local ones; the loader has checked that each resolves). */
export function deref(document: unknown, value: unknown): unknown {
  let node = value;
  for (
    let hops = 0;
    hops < 20 && node !== null && typeof node === 'object' && typeof (node as { $ref?: unknown }).$ref === 'string';
    hops++
  ) {
    node = resolvePointer(document, (node as { $ref: string }).$ref);
  }
  return node;
}

function follow(document: unknown, value: unknown, at: JsonPath): { value: unknown; path: JsonPath } {
  let node = value;
  let path = at;
  for (
    let hops = 0;
    hops < 20 && node !== null && typeof node === 'object' && typeof (node as { $ref?: unknown }).$ref === 'string';
    hops++
  ) {
    const ref = (node as { $ref: string }).$ref;
    path = pointerToPath(ref);
    node = resolvePointer(document, ref);
  }
  return { value: node, path };
}

function pointerOf(path: JsonPath): string {
  return path.map((segment) => '/' + String(segment).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}
