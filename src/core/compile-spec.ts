// Compiles the Schema Objects of one loaded spec with the shared ajv setup; each validator is built once.
import type { ErrorObject, ValidateFunction } from 'ajv';
import {
  boundErrorCollection,
  budgetProperty,
  ErrorBudget,
  ErrorListStopped,
  maxCreatedErrors,
  maxListedErrors,
} from './bounded-errors.js';
import { ajvDocument, ajvPointer } from './ajv-document.js';
import { compileKey } from './compile-key.js';
import { discriminatorBranchesKeyword } from './discriminator.js';
import {
  addDocumentKeywords,
  createAjv,
  documentKeys,
  namesInheritedMembers,
  type ContractsAjv,
} from './create-ajv.js';
import { ContractsError } from './errors.js';
import { escapeLine } from './escape-line.js';
import type { LoadedSpec } from './load-spec.js';
import { pathToPointer, type JsonPath } from './source-locator.js';

export interface SchemaError {
  /** Where in the checked value, as a JSON pointer (`/order/paymentMethod`). */
  instancePath: string;
  /** Where in the spec's schema, as a JSON pointer relative to the document. */
  schemaPath: string;
  keyword: string;
  message: string;
  params: Record<string, unknown>;
}

/** The outcome of validating one value, with its errors bounded whatever the value. */
export interface Validation {
  valid: boolean;
  /** In document order; when listing stopped, those found until then (or the first, when none could be kept). */
  errors: SchemaError[];
  /** Set when the value had too many errors to list them all: listing stopped after this many. */
  stoppedAfter?: number;
}

export interface CompiledSpec {
  spec: LoadedSpec;
  ajv: ContractsAjv;
  /**
   * The validator for the schema at a document path (e.g. [...mediaTypePath, 'schema']); compiled once, then
   * cached. It stops at the first error: run it through check() for every error.
   */
  validatorAt(schemaPath: JsonPath): ValidateFunction;
  /** The all-errors twin of a validator from validatorAt, which check() runs when that one fails. */
  allErrorsValidator(validate: ValidateFunction): ValidateFunction;
  /** Validates a value against the schema at a document path; an empty array when it holds. */
  validateAt(schemaPath: JsonPath, value: unknown): SchemaError[];
  /** Runs a validator from validatorAt in time linear in the value, with its errors bounded. */
  check(validate: ValidateFunction, value: unknown): Validation;
  /** The `format` values ajv has no check for, taken as annotations (OpenAPI allows any format). */
  unknownFormats: ReadonlySet<string>;
  /** Whether a validator came from this compilation's validatorAt (so its check() can run it). */
  owns(validate: ValidateFunction): boolean;
  /** Equal for two schema paths that compile alike (compile-key.ts); undefined when that cannot be told. */
  compileKey(schemaPath: JsonPath): string | undefined;
}

// Top-level fields of an OpenAPI Object (https://spec.openapis.org/oas/v3.1.0#openapi-object; 3.2 adds `$self`,
// section 4.8.1, the document's own URI: a base for references, which names nothing ajv should read).
const documentKeywords = [
  'openapi',
  '$self',
  'info',
  'jsonSchemaDialect',
  'servers',
  'paths',
  'webhooks',
  'components',
  'security',
  'tags',
];

export interface CompileOptions {
  /**
   * A `format` ajv does not know: `ignore` (the default) treats it as an annotation, as OpenAPI allows (format is
   * an open value: GitHub's description uses `timestamp`); lint says `refuse`, to catch a misspelt one.
   */
  unknownFormats?: 'ignore' | 'refuse';
  /**
   * Whether ajv optimizes the code it generates (its default). Lint compiles every schema to use each once, and on a
   * large spec the optimizer is most of that time (Microsoft Graph, 20 MB: lint 173 s → 92 s without it).
   */
  optimize?: boolean;
  /**
   * A keyword JSON Schema does not define (`descrciption`, a property written beside `properties`): `annotate` (the
   * default) ignores it, as 2020-12 says to; lint says `refuse`, so contracts-schema-valid reports it.
   */
  unknownKeywords?: 'annotate' | 'refuse';
}

/** `document` replaces the spec's own document (the strict variant compiles a transformed copy). */
export function compileSpec(
  spec: LoadedSpec,
  document: object = spec.document,
  options: CompileOptions = {},
): CompiledSpec {
  const documentId = 'https://contracts.invalid/' + encodeURIComponent(spec.file);
  // Two compilations of the same schemas. allErrors off, compiled at load: whether a value is valid at all, and its
  // first error; a conforming value costs this one call. allErrors on, with error collection bounded, compiled on
  // the first failure of each schema: every error, for the findings.
  const ignoreFormats = options.unknownFormats !== 'refuse';
  const code = options.optimize === false ? { optimize: false } : {};
  // ajv's copy of the document, made once: both instances (first error, all errors) register it.
  const forAjv = ajvDocument(document);
  const keys = documentKeys(forAjv);
  const ownProperties = namesInheritedMembers(keys);
  const baseAjv = createAjv({ allErrors: false, code, ownProperties });
  const customFormats = unknownFormats(baseAjv, document);
  const resource: DocumentResource = {
    document: forAjv,
    id: documentId,
    keys,
    unknownKeywords: options.unknownKeywords ?? 'annotate',
    annotations: ignoreFormats ? customFormats : new Set(),
  };
  const ajv = documentAjv(baseAjv, resource);
  let allErrorsAjv: ContractsAjv | undefined;
  const budget = new ErrorBudget();
  const cache = new Map<string, ValidateFunction>();
  const pointers = new WeakMap<ValidateFunction, string>();
  const allErrorsCache = new Map<string, ValidateFunction>();

  // The same path array asked again (a request model's parameter, per fuzz case) skips building its pointer.
  const byPath = new WeakMap<JsonPath, ValidateFunction>();
  const validatorAt = (schemaPath: JsonPath): ValidateFunction => {
    const known = byPath.get(schemaPath);
    if (known) return known;
    // A JSON pointer inside a URI fragment: each segment is also percent-encoded.
    // In ajv's copy of the document: a discriminated oneOf/anyOf moved (ajv-document.ts).
    const pointer = ajvPointer(forAjv, pathToPointer(schemaPath)).split('/').map(encodeURIComponent).join('/');
    let validate = cache.get(pointer);
    if (!validate) {
      try {
        validate = ajv.compile({ $ref: `${documentId}#${pointer}` });
      } catch (error) {
        // A schema ajv cannot compile (a dangling $ref, `type: application/json`, an allOf that is no list) is the
        // spec's fault, said as such: the command that needed it reports it, never as an internal error.
        const message = (error as Error).message.replace(/ in schema at path ".*"$/, '');
        throw Object.assign(
          new ContractsError(
            'SPEC_SCHEMA_INVALID',
            `the schema at ${pathToPointer(schemaPath)} cannot be compiled: ${message} (\`contracts lint\` shows where)`,
          ),
          { ajvMessage: message },
        );
      }
      cache.set(pointer, validate);
      pointers.set(validate, pointer);
    }
    if (Object.isFrozen(schemaPath)) byPath.set(schemaPath, validate);
    return validate;
  };

  const allErrorsValidator = (validate: ValidateFunction): ValidateFunction => {
    const pointer = pointers.get(validate);
    if (pointer === undefined) throw new Error('compileSpec: check() takes validators from validatorAt()');
    let all = allErrorsCache.get(pointer);
    if (!all) {
      if (!allErrorsAjv) {
        allErrorsAjv = documentAjv(
          createAjv({ code: { ...code, process: boundErrorCollection }, ownProperties }),
          resource,
        );
        (allErrorsAjv as unknown as Record<string, unknown>)[budgetProperty] = budget;
      }
      all = allErrorsAjv.compile({ $ref: `${documentId}#${pointer}` });
      allErrorsCache.set(pointer, all);
    }
    return all;
  };

  const check = (validate: ValidateFunction, value: unknown): Validation => {
    if (validate(value)) return { valid: true, errors: [] };
    const firstErrors = validate.errors ?? [];
    const all = allErrorsValidator(validate);
    budget.created = 0;
    try {
      // Both validators compile the same schema: a value one rejects the other rejects (tests/core/fast-path
      // compares them); should they ever differ, the first error still stands rather than a silent pass.
      return {
        valid: false,
        errors: (all(value) ? firstErrors : (all.errors ?? [])).map((found) => toSchemaError(found, documentId)),
      };
    } catch (error) {
      if (!(error instanceof ErrorListStopped)) throw error;
      // The errors counted so far may include those of an alternative (anyOf/oneOf) that another one would have
      // excused; the first-error validator, linear and exact, has already said the value fails.
      const listed =
        error.reason === 'listed' && error.errors.length > 0 ? (error.errors as ErrorObject[]) : firstErrors;
      return {
        valid: false,
        errors: listed.map((found) => toSchemaError(found, documentId)),
        stoppedAfter: error.reason === 'listed' ? maxListedErrors : maxCreatedErrors,
      };
    }
  };

  return {
    spec,
    ajv,
    validatorAt,
    allErrorsValidator,
    unknownFormats: customFormats,
    owns: (validate) => pointers.has(validate),
    compileKey: (schemaPath) => compileKey(forAjv, ajvPointer(forAjv, pathToPointer(schemaPath))),
    validateAt(schemaPath, value) {
      return check(validatorAt(schemaPath), value).errors;
    },
    check,
  };
}

/** ajv's copy of the document and what every ajv that registers it needs to know, worked out once. */
interface DocumentResource {
  document: object;
  id: string;
  /** Every key in the document (documentKeys). */
  keys: ReadonlySet<string>;
  unknownKeywords: 'annotate' | 'refuse';
  /** Formats ajv does not know, read as annotations. */
  annotations: ReadonlySet<string>;
}

/** Registers the whole document as one resource, so `#/components/...` references resolve inside it. */
function documentAjv(ajv: ContractsAjv, resource: DocumentResource): ContractsAjv {
  const { document, id: documentId, annotations } = resource;
  addDocumentKeywords(ajv, resource.keys, resource.unknownKeywords);
  for (const format of annotations) ajv.addFormat(format, true);
  // ajv compiles its root while resolving; its OpenAPI-only top-level fields are declared as inert keywords.
  for (const keyword of documentKeywords) if (!ajv.getKeyword(keyword)) ajv.addKeyword({ keyword });
  ajv.addSchema(document, documentId, undefined, false);
  return ajv;
}

const discriminatorBranchesPath = new RegExp(`/${discriminatorBranchesKeyword}(?=/|$)`, 'g');

function toSchemaError(error: ErrorObject, documentId: string): SchemaError {
  const schemaPath = error.schemaPath.startsWith(documentId)
    ? error.schemaPath.slice(documentId.length)
    : error.schemaPath;
  return {
    instancePath: shortened(error.instancePath),
    // A discriminated oneOf/anyOf is compiled under discriminatorBranches (discriminator.ts): reported at its place in
    // the spec (the oneOf/anyOf, or the discriminator for a name that maps to no schema).
    schemaPath: schemaPath
      .replace(/^#/, '')
      .replace(discriminatorBranchesPath, (_, at: number, path: string) =>
        at + discriminatorBranchesKeyword.length + 1 === path.length ? '/discriminator' : '',
      ),
    keyword: error.keyword,
    message: describeError(error),
    params: error.params as Record<string, unknown>,
  };
}

/** ajv's message, made to name the field it is about. */
function describeError(error: ErrorObject): string {
  const where = error.instancePath === '' ? 'body' : shortened(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${where} must have required property "${shortened(String(params.missingProperty))}"`;
    case 'additionalProperties':
      return `${where} has a property the schema does not allow: "${shortened(String(params.additionalProperty))}"`;
    case 'unevaluatedProperties':
      return `${where} has a property the schema does not list: "${shortened(String(params.unevaluatedProperty))}"`;
    case 'enum':
      return `${where} must be one of the allowed values (${formatAllowed(params.allowedValues)})`;
    default:
      return `${where} ${error.message ?? 'is invalid'}`;
  }
}

/** Longest body-chosen text (a key, a path of keys) a finding repeats in full. */
export const maxShownLength = 200;

/**
 * A key or path from the body, cut to maxShownLength and made one line: every error under one long key repeats its
 * path, so without the cut a 1 MB key over 100 findings made 200 MB of report from 1 MB of body; and a key holding a
 * newline would start a line of its own wherever the finding is printed (a `::error::` a CI runner obeys). This is
 * where every key a target chose enters a finding.
 */
export function shortened(text: string): string {
  const cut = text.length <= maxShownLength ? text : `${text.slice(0, maxShownLength)}… (${text.length} characters)`;
  return escapeLine(cut);
}

function formatAllowed(values: unknown): string {
  if (!Array.isArray(values)) return '';
  const shown = values.slice(0, 8).map((value) => JSON.stringify(value));
  return values.length > 8 ? `${shown.join(', ')}, … ${values.length} in all` : shown.join(', ');
}

/** String values of `format` keys that ajv has no format for (a `format` key in literal data costs one no-op). */
function unknownFormats(ajv: ContractsAjv, document: unknown): Set<string> {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key === 'format' && typeof child === 'string' && !ajv.formats[child]) found.add(child);
        else walk(child);
      }
    }
  };
  walk(document);
  return found;
}
