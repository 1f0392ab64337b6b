// The deliveries a spec documents: its top-level webhooks (https://spec.openapis.org/oas/v3.1.0#oasWebhooks),
// each compiled once into header validators and one payload validator per media type.
import type { ValidateFunction } from 'ajv';
import { compileSpec } from '../compile-spec.js';
import type { LoadedSpec } from '../load-spec.js';
import { pointerToPath, type JsonPath } from '../source-locator.js';
import { exampleConvention, type DeliveryConvention } from './delivery-convention.js';

export interface DeliveryHeaderRule {
  name: string;
  required: boolean;
  validate: ValidateFunction | undefined;
}

export interface DeliveryMediaType {
  mediaType: string;
  /** The payload's schema; for a form, the schema of its payload field (the JSON the form carries). */
  validate: ValidateFunction | undefined;
  form: boolean;
}

export interface CompiledWebhook {
  /** The webhook's key in the spec (what the convention's event header carries, when it has one). */
  event: string;
  operationId: string;
  headers: DeliveryHeaderRule[];
  mediaTypes: DeliveryMediaType[];
}

export interface DeliveryContract {
  webhooks: Map<string, CompiledWebhook>;
  /** How the API tells its webhooks apart and signs them (from the config). */
  convention: DeliveryConvention;
  /** The headers every documented delivery shares (for an event the spec does not document). */
  commonHeaders: DeliveryHeaderRule[];
  /** Runs a validator (linear in the value, errors bounded): the errors, empty when the value holds. */
  errorsOf(validate: ValidateFunction, value: unknown): { instancePath: string; schemaPath: string; message: string }[];
}

export const formMediaType = 'application/x-www-form-urlencoded';
/** The form field that carries the JSON payload (webhooks seed: content_type form). */
export const formPayloadField = 'payload';

/** `convention`: the API's, from its config entry; without one, the repository-webhooks example's (the default before). */
export function compileDeliveryContract(
  spec: LoadedSpec,
  convention: DeliveryConvention = exampleConvention,
): DeliveryContract {
  const compiled = compileSpec(spec);
  const document = spec.document;
  const webhooks = new Map<string, CompiledWebhook>();
  const raw = (document.webhooks ?? {}) as Record<string, unknown>;
  for (const event of Object.keys(raw)) {
    const itemPath = follow(document, ['webhooks', event]);
    const operationPath = [...itemPath, 'post'];
    const operation = at(document, operationPath);
    if (!operation) continue;
    const headers: DeliveryHeaderRule[] = [];
    const parameters = Array.isArray(operation.parameters) ? operation.parameters : [];
    parameters.forEach((_parameter, index) => {
      const parameterPath = follow(document, [...operationPath, 'parameters', index]);
      const parameter = at(document, parameterPath);
      if (!parameter || parameter.in !== 'header' || typeof parameter.name !== 'string') return;
      headers.push({
        name: parameter.name,
        required: parameter.required === true,
        validate: parameter.schema ? compiled.validatorAt([...parameterPath, 'schema']) : undefined,
      });
    });
    const mediaTypes: DeliveryMediaType[] = [];
    if (operation.requestBody) {
      const bodyPath = follow(document, [...operationPath, 'requestBody']);
      const content = (at(document, bodyPath)?.content ?? {}) as Record<string, { schema?: unknown }>;
      for (const [mediaType, media] of Object.entries(content)) {
        const form = mediaType.toLowerCase() === formMediaType;
        const schemaPath = form
          ? formPayloadSchemaPath(document, [...bodyPath, 'content', mediaType, 'schema'])
          : [...bodyPath, 'content', mediaType, 'schema'];
        mediaTypes.push({
          mediaType: mediaType.toLowerCase(),
          form,
          validate: media.schema && schemaPath ? compiled.validatorAt(schemaPath) : undefined,
        });
      }
    }
    webhooks.set(event, {
      event,
      operationId: typeof operation.operationId === 'string' ? operation.operationId : `webhook ${event}`,
      headers,
      mediaTypes,
    });
  }
  return {
    webhooks,
    convention,
    commonHeaders: commonHeaders([...webhooks.values()]),
    errorsOf: (validate, value) => compiled.check(validate, value).errors,
  };
}

/** Headers documented alike for every webhook (the event header differs per webhook and is left out). */
function commonHeaders(webhooks: CompiledWebhook[]): DeliveryHeaderRule[] {
  const [first, ...rest] = webhooks;
  if (!first) return [];
  return first.headers.filter((header) =>
    rest.every((other) =>
      other.headers.some(
        (candidate) =>
          candidate.name.toLowerCase() === header.name.toLowerCase() && candidate.validate === header.validate,
      ),
    ),
  );
}

/** The path of the payload field's schema inside a form's schema, following $refs. */
function formPayloadSchemaPath(document: object, schemaPath: JsonPath): JsonPath | undefined {
  const resolved = follow(document, schemaPath);
  const properties = at(document, resolved)?.properties as Record<string, unknown> | undefined;
  return properties && formPayloadField in properties ? [...resolved, 'properties', formPayloadField] : undefined;
}

/** The document path a node resolves to, following $refs (at most 10). */
function follow(document: object, path: JsonPath): JsonPath {
  let current = path;
  for (let hops = 0; hops < 10; hops++) {
    const node = at(document, current);
    if (!node || typeof node.$ref !== 'string' || !node.$ref.startsWith('#')) return current;
    current = pointerToPath(node.$ref.slice(1));
  }
  return current;
}

function at(document: object, path: JsonPath): Record<string, unknown> | undefined {
  let node: unknown = document;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node !== null && typeof node === 'object' ? (node as Record<string, unknown>) : undefined;
}
