// Auth is part of the verdict: an operation whose every valid request the target refused with 401 or 403 has not
// been exercised, whatever its documented statuses say. Without this, a run with no credential (or a wrong one)
// printed "40 passed, 0 failed": the target's refusals were documented answers. The hint names what to set, only
// where the operation's security requirements name the scheme it feeds (OpenAPI 3.1 section 4.8.10: an operation's
// `security` overrides the document's, `[]` removes it): a login carrying credentials in its body, an operation with
// `security: []` or one needing another scheme was told to set a bearer token that it never uses.
import { deref } from '../core/request-model.js';
import type { ApiCredential } from '../http/api-credentials.js';

interface Tally {
  sent: number;
  refused: number;
  statuses: Set<number>;
}

export class AuthRefusals {
  private readonly tallies = new Map<string, Map<string, Tally>>();

  /** One valid request's answer. */
  record(api: string, operation: string, status: number): void {
    let byOperation = this.tallies.get(api);
    if (!byOperation) this.tallies.set(api, (byOperation = new Map()));
    let tally = byOperation.get(operation);
    if (!tally) byOperation.set(operation, (tally = { sent: 0, refused: 0, statuses: new Set() }));
    tally.sent++;
    if (status === 401 || status === 403) {
      tally.refused++;
      tally.statuses.add(status);
    }
  }

  /**
   * The operations of `api` whose every valid request was refused, each with why it could not be exercised.
   * `securityOf`: the scheme names of each alternative of an operation's security requirement ([] when none).
   */
  unexercised(
    api: string,
    credentials: readonly ApiCredential[],
    configFile: string,
    securityOf: (operation: string) => string[][],
  ): [string, string][] {
    const out: [string, string][] = [];
    for (const [operation, tally] of this.tallies.get(api) ?? []) {
      if (tally.sent === 0 || tally.refused < tally.sent) continue;
      const statuses = [...tally.statuses].sort().join(' or ');
      const every = tally.sent === 1 ? 'the one valid request' : `every valid request (${tally.sent})`;
      const why = hint(credentials, configFile, securityOf(operation));
      out.push([operation, `${every} to ${operation} was refused (${statuses})${why ? `: ${why}` : ''}`]);
    }
    return out;
  }
}

/**
 * What to do about the refusals, from the operation's security requirement: set the variables of the schemes it
 * names, check their values, or give credentials for them. An operation that documents no security gets no advice
 * about credentials, only that fact.
 */
function hint(credentials: readonly ApiCredential[], configFile: string, security: string[][]): string {
  const schemes = [...new Set(security.flat())];
  if (schemes.length === 0)
    return security.length === 0
      ? 'the operation documents no security requirement'
      : 'the operation documents that it may be called without credentials';
  const named = credentials.filter(
    (credential) =>
      credential.env !== undefined && credential.scheme !== undefined && schemes.includes(credential.scheme),
  );
  const unset = named.filter((credential) => credential.value === undefined).map((credential) => credential.env);
  if (unset.length > 0) return `set ${unset.join(' and ')} (credentials in ${configFile})`;
  if (named.length > 0)
    return `the target refused ${named.map((credential) => credential.env).join(' and ')}: check the value (credentials in ${configFile})`;
  const documented = security.map((names) => names.join(' and ')).join(' or ');
  return `give the API credentials in ${configFile} (the operation documents security: ${documented}; credentials: [{ env: NAME, securityScheme: ${schemes[0]} }])`;
}

/** The scheme names of each alternative of an operation's security requirement, its own or the document's. */
export function securityOf(document: unknown, operationPath: readonly (string | number)[]): string[][] {
  let node: unknown = document;
  for (const key of operationPath) node = isRecord(node) ? deref(document, node[key as string]) : undefined;
  const root = isRecord(document) ? document.security : undefined;
  const security = isRecord(node) && node.security !== undefined ? node.security : root;
  if (!Array.isArray(security)) return [];
  return security.map((requirement) => (isRecord(requirement) ? Object.keys(requirement) : []));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
