// The operations a response leads to, read from its Link Objects (https://spec.openapis.org/oas/v3.1.0#link-object):
// an edge per link, from (operation, status) to an operation, with each parameter bound by a runtime expression
// (https://spec.openapis.org/oas/v3.1.0#runtime-expressions). The stateful fuzzer walks this graph; what it may
// follow is what the spec says, not a table in code.
import type { OpenApiDocument } from './load-spec.js';
import { resolvePointer } from './source-locator.js';
import { indexOperations, type OperationSpec } from './operation-index.js';
import { pointerToPath, type JsonPath } from './source-locator.js';
import { ownValue, setOwn } from './own-key.js';

/** Where a link parameter's value comes from: the response body at a JSON pointer, or the request's path. */
export type LinkSource = { from: 'response.body'; pointer: string } | { from: 'request.path'; name: string };

export interface LinkEdge {
  from: string;
  /** The response status the link hangs on ("201", "2XX"). */
  status: string;
  /** The link's name in the Response Object. */
  name: string;
  to: string;
  parameters: { name: string; source: LinkSource }[];
}

export interface LinkGraph {
  edges: LinkEdge[];
  /** Links that cannot be followed, one line each (a target that is not an operation, an expression not supported). */
  problems: string[];
}

/** What an exchange offers a link's runtime expressions: its request path parameters and its parsed response body. */
export interface LinkContext {
  path: Readonly<Record<string, unknown>>;
  body: unknown;
}

/** `operations`: the document's, when the caller has indexed them already (the resource model does). */
export function linkGraph(
  document: OpenApiDocument,
  operations: readonly OperationSpec[] = indexOperations(document),
): LinkGraph {
  const known = new Set(operations.map((operation) => operation.operationId));
  const edges: LinkEdge[] = [];
  const problems: string[] = [];
  for (const operation of operations) {
    for (const response of operation.responses) {
      const links = (valueAt(document, response.path) as { links?: unknown } | undefined)?.links;
      if (links === null || typeof links !== 'object') continue;
      for (const [name, raw] of Object.entries(links)) {
        const where = `${operation.operationId} ${response.status} link ${name}`;
        const link = follow(document, raw) as
          | { operationId?: unknown; operationRef?: unknown; parameters?: unknown }
          | undefined;
        const to = link?.operationId;
        if (typeof to !== 'string' || !known.has(to)) {
          problems.push(
            `${where}: ${typeof to === 'string' ? `operationId ${to} names no operation` : 'only links by operationId are followed'}`,
          );
          continue;
        }
        const parameters: LinkEdge['parameters'] = [];
        let followable = true;
        for (const [parameter, expression] of Object.entries((link!.parameters ?? {}) as Record<string, unknown>)) {
          const source = typeof expression === 'string' ? parseExpression(expression) : undefined;
          if (!source) {
            problems.push(
              `${where}: parameter ${parameter}: ${JSON.stringify(expression)} is not a supported runtime expression`,
            );
            followable = false;
            continue;
          }
          // A link may qualify a name with its location (path.hook_id); every parameter here is named once.
          parameters.push({ name: parameter.replace(/^(path|query|header|cookie)\./, ''), source });
        }
        if (followable) edges.push({ from: operation.operationId, status: response.status, name, to, parameters });
      }
    }
  }
  return { edges, problems };
}

/** The value a link gives a parameter in a given exchange; undefined when the expression finds nothing there. */
export function resolveLinkSource(source: LinkSource, context: LinkContext): unknown {
  if (source.from === 'request.path') return ownValue(context.path, source.name);
  let node = context.body;
  for (const segment of pointerToPath(source.pointer)) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

/** Binds every parameter of an edge, or undefined when one of them finds no value (an empty list, a missing id). */
export function bindLink(edge: LinkEdge, context: LinkContext): Record<string, unknown> | undefined {
  const bound: Record<string, unknown> = {};
  for (const { name, source } of edge.parameters) {
    const value = resolveLinkSource(source, context);
    if (value === undefined || value === null || typeof value === 'object') return undefined;
    setOwn(bound, name, value);
  }
  return bound;
}

/** Whether a status matches a response key of the spec ("201", "2XX"; "default" matches any). */
export function statusMatches(key: string, status: number): boolean {
  if (key === 'default') return true;
  if (/^[1-5]XX$/i.test(key)) return Math.floor(status / 100) === Number(key[0]);
  return key === String(status);
}

function parseExpression(expression: string): LinkSource | undefined {
  const body = /^\$response\.body(#.*)?$/.exec(expression);
  if (body) return { from: 'response.body', pointer: body[1] ?? '#' };
  const path = /^\$request\.path\.([A-Za-z0-9_.~-]+)$/.exec(expression);
  if (path) return { from: 'request.path', name: path[1]! };
  return undefined;
}

/** The value at a document path (what resolvePointer(pathToPointer(path)) finds, without the pointer's round trip). */
export function valueAt(document: unknown, path: JsonPath): unknown {
  let node = document;
  for (const segment of path) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

function follow(document: OpenApiDocument, value: unknown): unknown {
  let current = value;
  for (let hops = 0; hops < 10 && current !== null && typeof current === 'object'; hops++) {
    const ref = (current as { $ref?: unknown }).$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#')) break;
    current = resolvePointer(document, ref);
  }
  return current;
}
