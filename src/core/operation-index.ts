// Indexes the operations of a document (https://spec.openapis.org/oas/v3.1.0#paths-object) and matches a
// concrete request (`GET /repos/o/r/hooks/42`) to its operation.
import { escapeLine } from './escape-line.js';
import { resolvePointer } from './source-locator.js';
import type { OpenApiDocument } from './load-spec.js';
import { pointerToPath, type JsonPath } from './source-locator.js';
import { setOwn } from './own-key.js';

import { isOpenApi32 } from './oas32/openapi-32.js';
import { fixedMethods31, pathItemOperations } from './oas32/path-item-operations.js';

/** The eight methods of a 3.0/3.1 Path Item; a 3.2 one adds `query` and any other (oas32/path-item-operations.ts). */
export const httpMethods = fixedMethods31;
/** A method in lower case: one of httpMethods, or (OpenAPI 3.2) `query` or an additional operation's. */
export type HttpMethod = string;

export interface MediaTypeSpec {
  mediaType: string;
  /** Document path of the schema, where a validator is compiled; undefined when the media type has none. */
  schemaPath: JsonPath | undefined;
  /** OpenAPI 3.2 section 4.14: the schema of each item of a sequential media type (stream/item-contract.ts). */
  itemSchemaPath?: JsonPath;
}

export interface ResponseSpec {
  /** "200", "4XX" or "default". */
  status: string;
  /** Document path of the Response Object itself, after following a $ref. */
  path: JsonPath;
  mediaTypes: MediaTypeSpec[];
  /** The response is documented to carry no body (x-no-body, or a 204/304). */
  noBody: boolean;
  headers: { name: string; required: boolean; schemaPath: JsonPath | undefined }[];
}

export interface OperationSpec {
  /**
   * The key the operation goes by: its operationId, unique in the spec. An operation without one, or whose
   * operationId an earlier operation (in document order) already has, goes by `METHOD /path`.
   */
  operationId: string;
  /** The operationId the spec gives, when an earlier operation has it too (so this one goes by `METHOD /path`). */
  duplicateOf?: string;
  method: HttpMethod;
  pathTemplate: string;
  /** Document path of the Operation Object. */
  path: JsonPath;
  /**
   * Document path of its Path Item Object, after following a $ref: `path` less its method, or (OpenAPI 3.2) less
   * `additionalOperations` and the method.
   */
  itemPath: JsonPath;
  responses: ResponseSpec[];
  matcher: RegExp;
  pathParams: string[];
  /** Literal segments count: more literal wins when two templates match. */
  specificity: number;
}

export interface OperationMatch {
  operation: OperationSpec;
  pathParams: Record<string, string>;
}

export function indexOperations(document: OpenApiDocument): OperationSpec[] {
  const operations: OperationSpec[] = [];
  for (const [pathTemplate, rawItem] of Object.entries(document.paths ?? {})) {
    const item = follow(document, rawItem as object, ['paths', pathTemplate]);
    for (const { method, key, operation } of pathItemOperations(item.value, document.openapi)) {
      const operationPath = [...item.path, ...key];
      const { matcher, pathParams, specificity } = compileTemplate(pathTemplate);
      operations.push({
        // One line whatever the spec holds: an operationId is printed in every report.
        operationId: escapeLine(
          String((operation as { operationId?: unknown }).operationId ?? `${method.toUpperCase()} ${pathTemplate}`),
        ),
        method,
        pathTemplate,
        path: operationPath,
        itemPath: item.path,
        responses: indexResponses(document, (operation as { responses?: Record<string, unknown> }).responses ?? {}, [
          ...operationPath,
          'responses',
        ]),
        matcher,
        pathParams,
        specificity,
      });
    }
  }
  return uniquelyKeyed(operations);
}

/**
 * OpenAPI 3.1 section 4.8.10: "The id MUST be unique among all operations described in the API." A spec that breaks
 * this (lint reports it; public descriptions do) had one operation's traffic judged against another's schemas, as
 * every table is keyed by operationId. The first in document order keeps the id; each later one goes by its method
 * and path, unique in a spec, and says so (duplicateOf) so commands can warn which operation a report names.
 */
function uniquelyKeyed(operations: OperationSpec[]): OperationSpec[] {
  const taken = new Set<string>();
  for (const operation of operations) {
    if (!taken.has(operation.operationId)) {
      taken.add(operation.operationId);
      continue;
    }
    const declared = operation.operationId;
    let key = escapeLine(`${operation.method.toUpperCase()} ${operation.pathTemplate}`);
    // Only an operationId written as another operation's `METHOD /path` can take it already.
    for (let suffix = 2; taken.has(key); suffix++)
      key = `${escapeLine(`${operation.method.toUpperCase()} ${operation.pathTemplate}`)} (${suffix})`;
    taken.add(key);
    operation.operationId = key;
    operation.duplicateOf = declared;
  }
  return operations;
}

/** One line per operation that goes by `METHOD /path` because an earlier one has its operationId. */
export function duplicateOperationIdWarnings(operations: readonly OperationSpec[]): string[] {
  return operations.flatMap((operation) => {
    if (operation.duplicateOf === undefined) return [];
    const first = operations.find((other) => other.operationId === operation.duplicateOf);
    const where = first ? `${first.method.toUpperCase()} ${escapeLine(first.pathTemplate)}` : 'another operation';
    const self = `${operation.method.toUpperCase()} ${escapeLine(operation.pathTemplate)}`;
    return [
      `operationId "${operation.duplicateOf}" is on ${where} and ${self} (it must be unique, OpenAPI 3.1 section 4.8.10): "${operation.duplicateOf}" means ${where}; ${self} is reported as "${operation.operationId}"`,
    ];
  });
}

/** The operation for a method and a concrete path (no query string); the most literal template wins. */
export function matchOperation(
  operations: readonly OperationSpec[],
  method: string,
  path: string,
): OperationMatch | undefined {
  const lower = method.toLowerCase();
  let best: OperationMatch | undefined;
  for (const operation of operations) {
    if (operation.method !== lower) continue;
    const match = operation.matcher.exec(path);
    if (!match) continue;
    if (best && best.operation.specificity >= operation.specificity) continue;
    const pathParams: Record<string, string> = {};
    operation.pathParams.forEach((name, index) => setOwn(pathParams, name, safeDecode(match[index + 1] ?? '')));
    best = { operation, pathParams };
  }
  return best;
}

/** The documented response for a status: exact code, then its range (4XX), then default. */
export function responseFor(operation: OperationSpec, status: number): ResponseSpec | undefined {
  const code = String(status);
  return (
    operation.responses.find((response) => response.status === code) ??
    operation.responses.find((response) => response.status.toUpperCase() === `${code[0]}XX`) ??
    operation.responses.find((response) => response.status === 'default')
  );
}

function indexResponses(document: OpenApiDocument, responses: Record<string, unknown>, at: JsonPath): ResponseSpec[] {
  const three2 = isOpenApi32(document.openapi);
  return Object.entries(responses).map(([status, raw]) => {
    const { value, path } = follow(document, raw as object, [...at, status]);
    const response = value as {
      content?: Record<string, { schema?: unknown }>;
      headers?: Record<string, unknown>;
      'x-no-body'?: unknown;
    };
    const mediaTypes = Object.entries(response.content ?? {}).map(([mediaType, media]) => ({
      mediaType,
      schemaPath:
        media && typeof media === 'object' && 'schema' in media ? [...path, 'content', mediaType, 'schema'] : undefined,
      ...(three2 && media && typeof media === 'object' && 'itemSchema' in media
        ? { itemSchemaPath: [...path, 'content', mediaType, 'itemSchema'] }
        : {}),
    }));
    const headers = Object.entries(response.headers ?? {}).map(([name, rawHeader]) => {
      const header = follow(document, rawHeader as object, [...path, 'headers', name]);
      const headerValue = header.value as { required?: boolean; schema?: unknown };
      return {
        name,
        required: headerValue.required === true,
        schemaPath: 'schema' in headerValue ? [...header.path, 'schema'] : undefined,
      };
    });
    return {
      status,
      path,
      mediaTypes,
      noBody: response['x-no-body'] === true || status === '204' || status === '304',
      headers,
    };
  });
}

/** Follows a Reference Object to what it points at, keeping the document path of the target. */
function follow(document: OpenApiDocument, value: object, path: JsonPath): { value: object; path: JsonPath } {
  let current: { value: object; path: JsonPath } = { value, path };
  for (let hops = 0; hops < 10; hops++) {
    const ref = (current.value as { $ref?: unknown }).$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#')) break;
    const target = resolvePointer(document, ref);
    if (target === null || typeof target !== 'object') break;
    current = { value: target, path: pointerToPath(ref) };
  }
  return current;
}

function compileTemplate(template: string): { matcher: RegExp; pathParams: string[]; specificity: number } {
  const pathParams: string[] = [];
  let specificity = 0;
  const pattern = template
    .split('/')
    .map((segment) => {
      if (!segment.includes('{')) {
        if (segment) specificity++;
        return escapeRegExp(segment);
      }
      return segment
        .split(/(\{[^}]+\})/)
        .map((part) => {
          const name = /^\{([^}]+)\}$/.exec(part)?.[1];
          if (name === undefined) return escapeRegExp(part);
          pathParams.push(name);
          return '([^/]+)';
        })
        .join('');
    })
    .join('/');
  return { matcher: new RegExp(`^${pattern}/?$`), pathParams, specificity };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
