// What the resource model needs of each operation, read once: its parameters (the Path Item's merged with its own,
// OpenAPI 3.1 section 4.8.9), its request media types, its documented statuses and headers, whether it is secured,
// and the schema of its first 2xx JSON answer.
import { isJsonType } from '../media-type.js';
import { resolvePointer } from '../source-locator.js';
import type { OpenApiDocument } from '../load-spec.js';
import { valueAt } from '../link-graph.js';
import type { OperationSpec } from '../operation-index.js';
import { isObject } from './schema-shape.js';

export interface ParameterFact {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
}

export interface OperationFacts {
  spec: OperationSpec;
  parameters: ParameterFact[];
  requestMediaTypes: string[];
  success: string[];
  /** 2xx statuses that document a Location header. */
  location: string[];
  conflicts: string[];
  /** The answers documented for a missing resource: 404, 410 or the 4XX range. */
  gone: string[];
  secured: boolean;
  /** The first 2xx status with a JSON schema, and that schema (undefined: none). */
  answer: { status: string; schema: unknown } | undefined;
  /** Statuses (2xx) documenting a `Link` header. */
  linkHeader: string[];
}

export function operationFacts(document: OpenApiDocument, operations: readonly OperationSpec[]): OperationFacts[] {
  return operations.map((spec) => {
    const raw = (valueAt(document, spec.path) ?? {}) as Record<string, unknown>;
    const item = (valueAt(document, spec.itemPath) ?? {}) as Record<string, unknown>;
    const success = spec.responses.filter((response) => /^2(\d\d|XX)$/i.test(response.status));
    const withHeader = (name: string) =>
      success
        .filter((response) => response.headers.some((header) => header.name.toLowerCase() === name))
        .map((response) => response.status);
    let answer: OperationFacts['answer'];
    for (const response of success) {
      const media = response.mediaTypes.find((candidate) => isJsonType(candidate.mediaType) && candidate.schemaPath);
      if (media?.schemaPath) {
        answer = { status: response.status, schema: valueAt(document, media.schemaPath) };
        break;
      }
    }
    return {
      spec,
      parameters: mergedParameters(document, item.parameters, raw.parameters),
      requestMediaTypes: requestMediaTypes(document, raw.requestBody),
      success: success.map((response) => response.status),
      location: withHeader('location'),
      linkHeader: withHeader('link'),
      conflicts: spec.responses
        .map((response) => response.status)
        .filter((status) => status === '409' || status === '410' || status === '412'),
      gone: spec.responses
        .map((response) => response.status)
        .filter((status) => status === '404' || status === '410' || status.toUpperCase() === '4XX'),
      secured: isSecured(raw.security ?? document.security),
      answer,
    };
  });
}

/** OpenAPI 3.1 section 4.8.9: an operation's parameter overrides the Path Item's of the same name and location. */
function mergedParameters(document: unknown, shared: unknown, own: unknown): ParameterFact[] {
  const byKey = new Map<string, ParameterFact>();
  for (const list of [shared, own]) {
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      const parameter = deref(document, entry);
      if (!isObject(parameter) || typeof parameter.name !== 'string') continue;
      const where = parameter.in;
      if (where !== 'path' && where !== 'query' && where !== 'header' && where !== 'cookie') continue;
      byKey.set(`${where} ${parameter.name}`, {
        name: parameter.name,
        in: where,
        required: where === 'path' || parameter.required === true,
      });
    }
  }
  return [...byKey.values()];
}

function requestMediaTypes(document: unknown, requestBody: unknown): string[] {
  const body = deref(document, requestBody);
  return isObject(body) && isObject(body.content) ? Object.keys(body.content) : [];
}

/**
 * OpenAPI 3.1 section 4.8.30: any one Security Requirement Object satisfies `security`, and an empty one (`{}`)
 * makes the credentials optional; an empty list removes them.
 */
function isSecured(security: unknown): boolean {
  return (
    Array.isArray(security) &&
    security.length > 0 &&
    security.every((requirement) => isObject(requirement) && Object.keys(requirement).length > 0)
  );
}

function deref(document: unknown, value: unknown): unknown {
  let node = value;
  for (let hops = 0; hops < 8 && isObject(node) && typeof node.$ref === 'string'; hops++)
    node = resolvePointer(document, node.$ref);
  return node;
}
