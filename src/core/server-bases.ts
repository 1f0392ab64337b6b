// Which operation a request is for, with the servers' base paths. OpenAPI 3.1 section 4.8.8: a Paths Object's keys
// are "appended to the expanded URL from the Server Object's url field", so `GET /api/v2/items` is `/items` of a
// spec served at `https://shop.example/api/v2`. The path as sent is tried first (a client, a fuzz run or a staging
// deployment that leaves the base path out keeps matching as before), then the path under each base, longest first.
import type { OpenApiDocument } from './load-spec.js';
import { matchOperation, type OperationMatch, type OperationSpec } from './operation-index.js';

/** Servers read at most: a spec's list is short; a hostile one is not walked whole. */
const maxServers = 100;

/** The base paths of the document's top-level servers (`{var}` replaced by its default), longest first, no `/`. */
export function basePaths(document: OpenApiDocument): string[] {
  const servers = (document as { servers?: unknown }).servers;
  const found = new Set<string>();
  for (const server of Array.isArray(servers) ? servers.slice(0, maxServers) : []) {
    if (server === null || typeof server !== 'object' || typeof (server as { url?: unknown }).url !== 'string')
      continue;
    const { url, variables } = server as { url: string; variables?: Record<string, { default?: unknown }> };
    const expanded = url.replace(/\{([^}]+)\}/g, (_all, name: string) => {
      const value = variables && Object.hasOwn(variables, name) ? variables[name]?.default : undefined;
      return typeof value === 'string' ? value : '';
    });
    let pathname: string;
    try {
      pathname = new URL(expanded, 'http://base.invalid').pathname;
    } catch {
      continue;
    }
    const trimmed = pathname.replace(/\/+$/, '');
    if (trimmed !== '') found.add(trimmed);
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/** The paths a request's path may stand for: as sent, then under each base path it starts with. */
export function candidatePaths(bases: readonly string[], path: string): string[] {
  const candidates = [path];
  for (const base of bases)
    if (path === base || path.startsWith(`${base}/`)) candidates.push(path.slice(base.length) || '/');
  return candidates;
}

export interface RequestMatch extends OperationMatch {
  /** The path the operation matched: the request's own, or the part of it under a server's base path. */
  path: string;
}

/** The operation a request is for, trying the path as sent and then under each server base path. */
export function matchRequest(
  contract: { operations: readonly OperationSpec[]; bases: readonly string[] },
  method: string,
  path: string,
): RequestMatch | undefined {
  for (const candidate of candidatePaths(contract.bases, path)) {
    const match = matchOperation(contract.operations, method, candidate);
    if (match) return { ...match, path: candidate };
  }
  return undefined;
}
