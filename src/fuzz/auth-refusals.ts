// Auth is part of the verdict: an operation whose every valid request the target refused with 401 or 403 has not
// been exercised, whatever its documented statuses say. Without this, a run with no credential (or a wrong one)
// printed "40 passed, 0 failed": the target's refusals were documented answers. The hint names what to set.
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

  /** The operations of `api` whose every valid request was refused, each with why it could not be exercised. */
  unexercised(api: string, credentials: readonly ApiCredential[], configFile: string): [string, string][] {
    const out: [string, string][] = [];
    for (const [operation, tally] of this.tallies.get(api) ?? []) {
      if (tally.sent === 0 || tally.refused < tally.sent) continue;
      const statuses = [...tally.statuses].sort().join(' or ');
      const every = tally.sent === 1 ? 'the one valid request' : `every valid request (${tally.sent})`;
      out.push([operation, `${every} to ${operation} was refused (${statuses}): ${hint(credentials, configFile)}`]);
    }
    return out;
  }
}

function hint(credentials: readonly ApiCredential[], configFile: string): string {
  const named = credentials.filter((credential) => credential.env !== undefined);
  const unset = named.filter((credential) => credential.value === undefined).map((credential) => credential.env);
  if (unset.length > 0) return `set ${unset.join(' and ')} (credentials in ${configFile})`;
  if (named.length > 0)
    return `the target refused ${named.map((credential) => credential.env).join(' and ')}: check the value (credentials in ${configFile})`;
  return `give the API credentials in ${configFile} (credentials: [{ env: NAME, securityScheme: … }])`;
}
