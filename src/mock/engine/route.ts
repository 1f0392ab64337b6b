// Which operation a request to the engine is for: the core's operation index (most literal template wins,
// operation-index.ts), tried on the path as sent and then on the path under each server's base path. OpenAPI 3.1
// section 4.8.8: a Paths Object's keys are "appended to the expanded URL from the Server Object's url field", so
// `GET /api/v3/pets` is `/pets` of a spec served at `https://example.com/api/v3`; a client that leaves the base path
// out (fuzz, Prism's users) is routed too.
import { candidatePaths } from '../../core/server-bases.js';
import { matchOperation, type OperationMatch, type OperationSpec } from '../../core/operation-index.js';

export type Route =
  | { kind: 'operation'; match: OperationMatch /** The path without the server's base path. */; path: string }
  | { kind: 'no-path' }
  | { kind: 'no-method'; allow: string[] };

export { basePaths } from '../../core/server-bases.js';

export function route(
  operations: readonly OperationSpec[],
  bases: readonly string[],
  method: string,
  path: string,
): Route {
  const candidates = candidatePaths(bases, path);
  for (const candidate of candidates) {
    const match = matchOperation(operations, method, candidate);
    if (match) return { kind: 'operation', match, path: candidate };
  }
  // HEAD of a resource whose GET is documented: its GET twin without the body (RFC 9110 section 9.3.2).
  if (method.toUpperCase() === 'HEAD') {
    for (const candidate of candidates) {
      const match = matchOperation(operations, 'GET', candidate);
      if (match) return { kind: 'operation', match, path: candidate };
    }
  }
  const allow = new Set<string>();
  for (const candidate of candidates)
    for (const operation of operations)
      if (operation.matcher.test(candidate)) allow.add(operation.method.toUpperCase());
  return allow.size > 0 ? { kind: 'no-method', allow: [...allow].sort() } : { kind: 'no-path' };
}
