// Compiles the Schema Objects of one loaded spec with the shared ajv setup; each validator is built once.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { addExtensionKeywords, createAjv, type ContractsAjv } from './create-ajv.js';
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

export interface CompiledSpec {
  spec: LoadedSpec;
  ajv: ContractsAjv;
  /** The validator for the schema at a document path (e.g. [...mediaTypePath, 'schema']); compiled once, then cached. */
  validatorAt(schemaPath: JsonPath): ValidateFunction;
  /** Validates a value against the schema at a document path; an empty array when it holds. */
  validateAt(schemaPath: JsonPath, value: unknown): SchemaError[];
  /** The errors of the last failed call of a validator from validatorAt, as SchemaErrors. */
  errorsOf(validate: ValidateFunction): SchemaError[];
}

// Top-level fields of an OpenAPI Object (https://spec.openapis.org/oas/v3.1.0#openapi-object).
const documentKeywords = ['openapi', 'info', 'jsonSchemaDialect', 'servers', 'paths', 'webhooks', 'components', 'security', 'tags'];

/** `document` replaces the spec's own document (the strict variant compiles a transformed copy). */
export function compileSpec(spec: LoadedSpec, document: object = spec.document): CompiledSpec {
  const ajv = createAjv();
  addExtensionKeywords(ajv, document);
  const documentId = 'https://contracts.invalid/' + encodeURIComponent(spec.file);
  // The whole document is registered as one resource so `#/components/...` references resolve inside it.
  // ajv compiles its root while resolving; its OpenAPI-only top-level fields are declared as inert keywords.
  for (const keyword of documentKeywords) if (!ajv.getKeyword(keyword)) ajv.addKeyword({ keyword });
  ajv.addSchema(document, documentId, undefined, false);
  const cache = new Map<string, ValidateFunction>();

  const validatorAt = (schemaPath: JsonPath): ValidateFunction => {
    // A JSON pointer inside a URI fragment: each segment is also percent-encoded.
    const pointer = pathToPointer(schemaPath).split('/').map(encodeURIComponent).join('/');
    let validate = cache.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `${documentId}#${pointer}` });
      cache.set(pointer, validate);
    }
    return validate;
  };

  return {
    spec,
    ajv,
    validatorAt,
    validateAt(schemaPath, value) {
      const validate = validatorAt(schemaPath);
      return validate(value) ? [] : schemaErrorsOf(validate, documentId);
    },
    errorsOf(validate) {
      return schemaErrorsOf(validate, documentId);
    },
  };
}

function schemaErrorsOf(validate: ValidateFunction, documentId: string): SchemaError[] {
  return (validate.errors ?? []).map((error) => toSchemaError(error, documentId));
}

function toSchemaError(error: ErrorObject, documentId: string): SchemaError {
  const schemaPath = error.schemaPath.startsWith(documentId) ? error.schemaPath.slice(documentId.length) : error.schemaPath;
  return {
    instancePath: error.instancePath,
    schemaPath: schemaPath.replace(/^#/, ''),
    keyword: error.keyword,
    message: describeError(error),
    params: error.params as Record<string, unknown>,
  };
}

/** ajv's message, made to name the field it is about. */
function describeError(error: ErrorObject): string {
  const where = error.instancePath === '' ? 'body' : error.instancePath;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${where} must have required property "${String(params.missingProperty)}"`;
    case 'additionalProperties':
      return `${where} has a property the schema does not allow: "${String(params.additionalProperty)}"`;
    case 'unevaluatedProperties':
      return `${where} has a property the schema does not list: "${String(params.unevaluatedProperty)}"`;
    case 'enum':
      return `${where} must be one of the allowed values (${formatAllowed(params.allowedValues)})`;
    default:
      return `${where} ${error.message ?? 'is invalid'}`;
  }
}

function formatAllowed(values: unknown): string {
  if (!Array.isArray(values)) return '';
  const shown = values.slice(0, 8).map((value) => JSON.stringify(value));
  return values.length > 8 ? `${shown.join(', ')}, … ${values.length} in all` : shown.join(', ');
}
