// Compiles a spec into a contract: every operation × status × media type gets its validators at load time,
// so checking a response does no schema work. A big spec (GitHub's has some 1,100 operations) compiles each
// validator when it is first used instead: compiling them all would cost more than most runs check.
import { itemContract, type ItemContract } from './stream/item-contract.js';
import { basePaths } from './server-bases.js';
import type { ValidateFunction } from 'ajv';
import { compileRequests, lazyRequests, type CompiledRequest } from './compile-request.js';
import { compileSpec, type CompiledSpec, type Validation } from './compile-spec.js';
import { resolvePointer } from './source-locator.js';
import type { LoadedSpec } from './load-spec.js';
import { parseMediaType, type MediaRange } from './media-type.js';
import { indexOperations, type OperationSpec, type ResponseSpec } from './operation-index.js';
import { pathToPointer, pointerToPath, type JsonPath } from './source-locator.js';
import { presenceWalk, type PresenceWalk } from './read-write-presence.js';
import { directionViews, mayMark } from './read-write-views.js';
import { strictDocument } from './strict-schemas.js';
import { isOpenApi30 } from './upgrade-openapi-30.js';

/** The seed's paymentMethod placement rule, read from the schema's x-payment-method-placement extension. */
export interface PlacementRule {
  /** JSON pointers where the object may stand, e.g. ['/paymentMethod', '/order/paymentMethod']. */
  accepted: string[];
  /** The same pointers split into segments once, at load time. */
  segments: string[][];
  description: string;
}

export interface CompiledMediaType {
  /** The documented content key, lower-cased (for messages). */
  mediaType: string;
  /** The key parsed at load time; undefined when it is no media type (it then matches nothing). */
  range: MediaRange | undefined;
  /** The key is application/json or a +json type: bodies are read as JSON and held to the schema. */
  json: boolean;
  schemaPath: JsonPath | undefined;
  validate: ValidateFunction | undefined;
  /** With --strict: the same schema refusing undeclared properties. */
  validateStrict: ValidateFunction | undefined;
  placement: PlacementRule | undefined;
  /** For a 3.0 schema that can reach a writeOnly property: where a body carries one (it SHOULD NOT). */
  writeOnlyPresence?: PresenceWalk;
  /** OpenAPI 3.2: a sequential media type's items and what each is held to (stream/item-contract.ts). */
  items?: ItemContract;
}

export interface CompiledHeader {
  name: string;
  required: boolean;
  schemaType: string | undefined;
  validate: ValidateFunction | undefined;
}

export interface CompiledResponse {
  spec: ResponseSpec;
  mediaTypes: CompiledMediaType[];
  headers: CompiledHeader[];
}

export interface CompiledOperation {
  spec: OperationSpec;
  responses: CompiledResponse[];
}

export interface Contract {
  spec: LoadedSpec;
  operations: OperationSpec[];
  /** The base paths of the spec's servers, longest first (server-bases.ts): a request under one still matches. */
  bases: string[];
  byOperationId: Map<string, CompiledOperation>;
  /** What a request to each operation must carry, by operationId (request conformance). */
  requests: Map<string, CompiledRequest>;
  /** Runs one of the contract's validators, in time linear in the value, with its errors bounded. */
  check(validate: ValidateFunction, value: unknown): Validation;
  /** The same for a `validateStrict` validator. */
  checkStrict(validate: ValidateFunction, value: unknown): Validation;
}

export interface ContractOptions {
  /** Also compile the --strict validators (unknown fields reported). */
  strict?: boolean;
  /**
   * Compile each validator when first used, whatever the spec's size: for a run that checks one exchange, where
   * compiling every operation's schemas would cost more than everything else it does.
   */
  lazy?: boolean;
  /**
   * Compile what a request to an operation must carry when a request to it is first checked (a mock: one request
   * answered must not wait for every operation's). `requests` then holds only what was compiled; `get` works.
   */
  lazyRequests?: boolean;
}

/** Above this many operations, validators are compiled when first used rather than at load time. */
export const lazyCompileAbove = 100;

export function compileContract(spec: LoadedSpec, options: ContractOptions = {}): Contract {
  // A readOnly or writeOnly property some `required` names: responses and requests are judged by views of their
  // own (read-write-views.ts). Otherwise one compilation serves both, as for any other spec.
  const views = directionViews(spec);
  const compiled = compileSpec(views?.response ?? spec);
  let requestCompiled: CompiledSpec | undefined = views ? undefined : compiled;
  const forRequests = () => (requestCompiled ??= compileSpec(views!.request));
  const strict: CompiledSpec | undefined = options.strict
    ? compileSpec(spec, strictDocument((views?.response ?? spec).document))
    : undefined;
  // 3.0 only: a writeOnly property in a response SHOULD NOT be (3.1 makes it an annotation).
  const warnWriteOnly = isOpenApi30(spec.sourceVersion) && mayMark(spec);
  const operations = indexOperations(spec.document);
  const lazy = options.lazy === true || operations.length > lazyCompileAbove;
  const validator = (from: CompiledSpec | undefined, schemaPath: JsonPath | undefined) =>
    once(lazy, () => (from && schemaPath ? from.validatorAt(schemaPath) : undefined));
  const byOperationId = new Map<string, CompiledOperation>();
  let requests = lazy ? undefined : compileRequests(spec, forRequests());
  for (const operation of operations) {
    byOperationId.set(operation.operationId, {
      spec: operation,
      responses: operation.responses.map((response) => ({
        spec: response,
        mediaTypes: response.mediaTypes.map((media) => {
          const validate = validator(compiled, media.schemaPath);
          const validateStrict = validator(strict, media.schemaPath);
          const range = parseMediaType(media.mediaType);
          return {
            mediaType: media.mediaType.toLowerCase(),
            range,
            json: range?.json === true,
            schemaPath: media.schemaPath,
            get validate() {
              return validate();
            },
            get validateStrict() {
              return validateStrict();
            },
            placement: media.schemaPath ? placementRule(spec.document, media.schemaPath) : undefined,
            ...(warnWriteOnly && media.schemaPath ? writeOnlyWalk(spec.document, media.schemaPath) : {}),
            ...itemContract(spec.document, media, (at) => validator(compiled, at)),
          };
        }),
        headers: response.headers.map((header) => {
          const validate = validator(compiled, header.schemaPath);
          return {
            name: header.name,
            required: header.required,
            schemaType: header.schemaPath ? schemaType(spec.document, header.schemaPath) : undefined,
            get validate() {
              return validate();
            },
          };
        }),
      })),
    });
  }
  return {
    spec,
    operations,
    bases: basePaths(spec.document),
    byOperationId,
    // What requests must carry is needed only where requests are checked (a HAR capture, a fuzz run).
    get requests() {
      return (requests ??= options.lazyRequests
        ? lazyRequests(spec, forRequests, lazy)
        : compileRequests(spec, forRequests(), lazy));
    },
    // With views, a request validator belongs to the request view's compilation: its check runs it.
    check: views
      ? (validate, value) => (compiled.owns(validate) ? compiled : forRequests()).check(validate, value)
      : (validate, value) => compiled.check(validate, value),
    checkStrict: (validate, value) => (strict ?? compiled).check(validate, value),
  };
}

/** The schema at a path, following $refs, or undefined. */
function resolveSchema(document: object, path: JsonPath): Record<string, unknown> | undefined {
  let schema = resolvePointer(document, '#' + pathToPointer(path));
  for (
    let hops = 0;
    hops < 10 && schema && typeof schema === 'object' && typeof (schema as { $ref?: unknown }).$ref === 'string';
    hops++
  ) {
    schema = resolvePointer(document, (schema as { $ref: string }).$ref);
  }
  return schema && typeof schema === 'object' ? (schema as Record<string, unknown>) : undefined;
}

function placementRule(document: object, schemaPath: JsonPath): PlacementRule | undefined {
  const extension = resolveSchema(document, schemaPath)?.['x-payment-method-placement'] as
    | { accepted?: unknown; description?: unknown }
    | undefined;
  if (!extension || !Array.isArray(extension.accepted)) return undefined;
  const accepted = extension.accepted.map(String);
  return {
    accepted,
    segments: accepted.map((pointer) => pointerToPath(pointer)),
    description: String(extension.description ?? ''),
  };
}

function schemaType(document: object, schemaPath: JsonPath): string | undefined {
  const type = resolveSchema(document, schemaPath)?.type;
  return typeof type === 'string' ? type : undefined;
}

function writeOnlyWalk(document: object, schemaPath: JsonPath): { writeOnlyPresence?: PresenceWalk } {
  const walk = presenceWalk(document, schemaPath, 'writeOnly');
  return walk ? { writeOnlyPresence: walk } : {};
}

/** `make`'s value, computed now (eager) or on the first call, and then kept. */
function once<T>(lazy: boolean, make: () => T): () => T {
  let made = !lazy;
  let value = lazy ? (undefined as T) : make();
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value;
  };
}
