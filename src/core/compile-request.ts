// What a request to each operation must carry, compiled at load time: parameter and body validators (OpenAPI 3.1
// Parameter and Request Body Objects) and the credentials of its Security Requirement alternatives, so checking a
// request does no schema work. A big spec's (compileContract's lazy mode) validators are compiled when first read:
// fuzz reads only the security of every operation, and compiling every operation's validators for it held them all
// for the whole run.
import type { ValidateFunction } from 'ajv';
import type { CompiledSpec } from './compile-spec.js';
import type { ClosedQuerystring } from './oas32/querystring-parameters.js';
import { resolvePointer } from './source-locator.js';
import type { LoadedSpec } from './load-spec.js';
import { parseMediaType, type MediaRange } from './media-type.js';
import { deref, operationModels, typesOf, type CheckedParamModel, type OperationModel } from './request-model.js';
import { ownValue } from './own-key.js';
import { isPlainParameter, type DecodableParameter } from './parameter-style.js';
import { presenceWalk, type PresenceWalk } from './read-write-presence.js';
import type { JsonPath } from './source-locator.js';
import { mayMark } from './read-write-views.js';
import { isOpenApi30 } from './upgrade-openapi-30.js';
import { formPlan, type EncodingHeader, type FormPlan } from './form-body/form-plan.js';

export interface CompiledParameter {
  model: CheckedParamModel;
  types: string[];
  validate: ValidateFunction;
  /** How its value is read off the wire (OpenAPI 3.1 section 4.8.12.4), its subschemas' $refs followed. */
  decodable: DecodableParameter;
  /** True when it is read as today's scalars were: its location's default style, a primitive schema, no `content`,
   * not a cookie. Decided here, so such a parameter costs no style work per request. */
  plain: boolean;
  /** A query parameter whose allowReserved is false (section 4.8.12.2): reserved characters come percent-encoded. */
  reservedEncoded: boolean;
  /** Also a credential (a security scheme's name): its value is never shown. */
  secret: boolean;
  /** The query names the operation's other parameters and query credentials take (an exploded form object with
   * additionalProperties leaves them to those). */
  otherQueryNames: ReadonlySet<string>;
}

export interface CompiledRequestMediaType {
  mediaType: string;
  /** The key parsed at load time (media-type.ts); undefined when it is no media type. */
  range: MediaRange | undefined;
  /** application/json or a +json type: the body is read as JSON and held to the schema. */
  json: boolean;
  validate: ValidateFunction | undefined;
  /** For a 3.0 schema that can reach a readOnly property: where a body carries one (it SHOULD NOT). */
  readOnlyPresence?: PresenceWalk;
  /** For a form media type (urlencoded, multipart) with a schema: how its fields are read, and its Encoding
   * Objects' header validators. */
  form?: CompiledForm;
}

export interface CompiledForm {
  plan: FormPlan;
  headerValidators: Map<EncodingHeader, ValidateFunction>;
}

export interface CompiledRequestBody {
  required: boolean;
  mediaTypes: CompiledRequestMediaType[];
}

/** One credential a security scheme puts on the wire; only its presence is ever checked. */
export interface SecurityCredential {
  scheme: string;
  in: 'header' | 'query' | 'cookie';
  name: string;
  /** For an http scheme: the Authorization value's scheme word (`Bearer`, `Basic`). */
  prefix?: string;
}

export interface CompiledRequest {
  params: CompiledParameter[];
  body: CompiledRequestBody | undefined;
  /** Security Requirement alternatives (any one suffices); empty when the operation needs no credential. */
  security: SecurityCredential[][];
  /** OpenAPI 3.2: a querystring parameter whose form admits only the fields it names. */
  closedQuerystring?: ClosedQuerystring;
}

// OpenAPI 3.1 section 4.8.12.1: header parameters with these names are ignored.
const ignoredHeaders = new Set(['accept', 'content-type', 'authorization']);

export function compileRequests(spec: LoadedSpec, compiled: CompiledSpec, lazy = false): Map<string, CompiledRequest> {
  const requests = new Map<string, CompiledRequest>();
  const compileOne = requestCompiler(spec, compiled, lazy);
  for (const model of operationModels(spec)) requests.set(model.operationId, compileOne(model));
  return requests;
}

/**
 * The same map, each operation compiled when first asked for: a mock of a big spec (Stripe's request bodies took
 * 35 s to compile at once) answers its first request after compiling one operation. Only `get` and `has` are lazy.
 */
export function lazyRequests(
  spec: LoadedSpec,
  compiled: () => CompiledSpec,
  lazy = false,
): Map<string, CompiledRequest> {
  let models: Map<string, OperationModel> | undefined;
  let compileOne: ((model: OperationModel) => CompiledRequest) | undefined;
  return new (class extends Map<string, CompiledRequest> {
    override has(operationId: string): boolean {
      models ??= new Map(operationModels(spec).map((model) => [model.operationId, model]));
      return models.has(operationId);
    }
    override get(operationId: string): CompiledRequest | undefined {
      const made = super.get(operationId);
      if (made || !this.has(operationId)) return made;
      compileOne ??= requestCompiler(spec, compiled(), lazy);
      const request = compileOne(models!.get(operationId)!);
      super.set(operationId, request);
      return request;
    }
  })();
}

function requestCompiler(
  spec: LoadedSpec,
  compiled: CompiledSpec,
  lazy: boolean,
): (model: OperationModel) => CompiledRequest {
  const document = spec.document as Record<string, unknown>;
  // 3.0 only: a readOnly property in a request SHOULD NOT be (3.1 makes it an annotation).
  const warnReadOnly = isOpenApi30(spec.sourceVersion) && mayMark(spec);
  return (model) => {
    const raw = resolvePointer(document, '#' + pointerOf(model.spec.path)) as Record<string, unknown>;
    const security = securityAlternatives(document, raw.security ?? document.security);
    const queryNames = new Set([
      ...model.checkedParams.filter((param) => param.in === 'query').map((param) => param.name),
      ...security.flat().flatMap((credential) => (credential.in === 'query' ? [credential.name] : [])),
    ]);
    const resolve = (schema: unknown) => deref(document, schema);
    const credentials = new Set(
      security.flat().map((credential) => `${credential.in}:${credential.name.toLowerCase()}`),
    );
    return {
      params: model.checkedParams
        .filter((param) => !(param.in === 'header' && ignoredHeaders.has(param.name.toLowerCase())))
        .map((param) => {
          const decodable: DecodableParameter = { ...param, resolve };
          return withValidator(compiled, param.schemaPath, lazy, {
            model: param,
            types: typesOf(param.schema),
            decodable,
            plain:
              param.in !== 'cookie' && param.mediaType === undefined && isPlainParameter(param, param.schema, resolve),
            otherQueryNames: new Set([...queryNames].filter((name) => name !== param.name)),
            reservedEncoded: param.in === 'query' && param.allowReserved !== true,
            secret: credentials.has(`${param.in}:${param.name.toLowerCase()}`),
          });
        }),
      body: requestBody(document, raw.requestBody, [...model.spec.path, 'requestBody'], compiled, warnReadOnly, lazy),
      security,
      ...(model.closedQuerystring ? { closedQuerystring: model.closedQuerystring } : {}),
    };
  };
}

function requestBody(
  document: Record<string, unknown>,
  raw: unknown,
  at: (string | number)[],
  compiled: CompiledSpec,
  warnReadOnly: boolean,
  lazy: boolean,
): CompiledRequestBody | undefined {
  if (raw === undefined) return undefined;
  let node = raw as Record<string, unknown>;
  let path = at;
  for (let hops = 0; hops < 20 && typeof node?.$ref === 'string'; hops++) {
    path = (node.$ref as string)
      .slice(2)
      .split('/')
      .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
    node = resolvePointer(document, node.$ref as string) as Record<string, unknown>;
  }
  const content = (node?.content ?? {}) as Record<string, { schema?: unknown }>;
  return {
    required: node?.required === true,
    mediaTypes: Object.entries(content).map(([mediaType, media]) => {
      const schemaPath = [...path, 'content', mediaType, 'schema'];
      const hasSchema = media !== null && typeof media === 'object' && 'schema' in media;
      const presence = hasSchema && warnReadOnly ? presenceWalk(document, schemaPath, 'readOnly') : undefined;
      const form = hasSchema ? compiledForm(document, mediaType, [...path, 'content', mediaType], compiled) : undefined;
      const range = parseMediaType(mediaType);
      const fields = {
        mediaType: mediaType.toLowerCase(),
        range,
        json: range?.json === true,
        ...(presence ? { readOnlyPresence: presence } : {}),
        ...(form ? { form } : {}),
      };
      return hasSchema ? withValidator(compiled, schemaPath, lazy, fields) : { ...fields, validate: undefined };
    }),
  };
}

/** `fields` with the validator of the schema at `schemaPath`: compiled now, or (lazy) when `validate` is first read. */
function withValidator<T extends object>(
  compiled: CompiledSpec,
  schemaPath: JsonPath,
  lazy: boolean,
  fields: T,
): T & { validate: ValidateFunction } {
  if (!lazy) return { ...fields, validate: compiled.validatorAt(schemaPath) };
  let made: ValidateFunction | undefined;
  return Object.defineProperty(fields, 'validate', {
    enumerable: true,
    get: () => (made ??= compiled.validatorAt(schemaPath)),
  }) as T & { validate: ValidateFunction };
}

/** A form media type's plan, decided here once (only a form media type has one: JSON bodies pay nothing). */
function compiledForm(
  document: Record<string, unknown>,
  mediaType: string,
  mediaPath: (string | number)[],
  compiled: CompiledSpec,
): CompiledForm | undefined {
  const plan = formPlan(document, mediaType, mediaPath);
  if (!plan) return undefined;
  const headerValidators = new Map<EncodingHeader, ValidateFunction>();
  for (const field of plan.fields.values())
    for (const header of field.headers)
      if (header.schemaPath) headerValidators.set(header, compiled.validatorAt(header.schemaPath));
  return { plan, headerValidators };
}

function securityAlternatives(document: Record<string, unknown>, security: unknown): SecurityCredential[][] {
  if (!Array.isArray(security) || security.length === 0) return [];
  const schemes = ((document.components as Record<string, unknown> | undefined)?.securitySchemes ?? {}) as Record<
    string,
    unknown
  >;
  const alternatives = security.map((requirement: Record<string, unknown>) =>
    Object.keys(requirement ?? {}).flatMap((name): SecurityCredential[] => {
      const scheme = deref(document, ownValue(schemes, name)) as
        | { type?: string; in?: string; name?: string; scheme?: string }
        | undefined;
      if (
        scheme?.type === 'apiKey' &&
        (scheme.in === 'header' || scheme.in === 'query' || scheme.in === 'cookie') &&
        scheme.name
      ) {
        return [{ scheme: name, in: scheme.in, name: scheme.name }];
      }
      if (scheme?.type === 'http' || scheme?.type === 'oauth2' || scheme?.type === 'openIdConnect') {
        const word = scheme.type === 'http' ? String(scheme.scheme ?? '') : 'Bearer';
        return [{ scheme: name, in: 'header', name: 'Authorization', ...(word ? { prefix: word } : {}) }];
      }
      return [];
    }),
  );
  // An empty requirement ({}) makes the credential optional: nothing to check.
  return alternatives.some((alternative) => alternative.length === 0) ? [] : alternatives;
}

function pointerOf(path: readonly (string | number)[]): string {
  return path.map((segment) => '/' + String(segment).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}
