// A checks module's default export, read against the spec it is for: every name a check name of the user's (none of
// contracts-kit's), every entry a function or `{ operation, check }`, every operation one of the spec's (an operation
// the spec lacks would leave a check that can never run, said at load instead of as "not exercised" at the end).
import type { Contract } from '../compile-contract.js';
import { closestName } from '../did-you-mean.js';
import { escapeLine } from '../escape-line.js';
import { checkNames, type UserCheckName } from '../finding.js';
import type { OperationSpec } from '../operation-index.js';
import type { UserCheckFunction } from './define-checks.js';

export interface LoadedUserCheck {
  name: UserCheckName;
  /** The operationIds it runs on; undefined: every operation. */
  operations?: ReadonlySet<string>;
  run: UserCheckFunction;
}

/** One run's user checks of one API, and which of them have run on an exchange (for "not exercised" at the end). */
export interface UserCheckSet {
  checks: readonly LoadedUserCheck[];
  ran: Set<string>;
}

/** What a runner is handed by its command: each API's checks for this run (its spec loaded), or none. */
export type UserChecksLoader = (api: string, contract: Contract) => Promise<UserCheckSet | undefined>;

/** Names as Schemathesis's checks and ours are written, bounded so a report line stays a line. */
const checkName = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
const ours: ReadonlySet<string> = new Set(checkNames);

/** The checks of `exported` for a spec of these operations, or why it is no checks module (one line). */
export function userCheckSet(
  exported: unknown,
  operations: readonly OperationSpec[],
): { set: UserCheckSet } | { problem: string } {
  if (exported === null || typeof exported !== 'object' || Array.isArray(exported))
    return { problem: 'its default export is no object of checks by name' };
  const byKey = new Map(operations.map((operation) => [operationKey(operation), operation.operationId]));
  const checks: LoadedUserCheck[] = [];
  for (const [name, entry] of Object.entries(exported)) {
    if (!checkName.test(name))
      return {
        problem: `${JSON.stringify(name).slice(0, 80)} is no check name (a letter, then letters, digits, _ . -)`,
      };
    if (ours.has(name)) return { problem: `${name} is the name of a contracts-kit check: name yours otherwise` };
    if (typeof entry === 'function') {
      checks.push({ name: name as UserCheckName, run: entry as UserCheckFunction });
      continue;
    }
    const scoped = scopedCheck(name, entry, byKey);
    if ('problem' in scoped) return scoped;
    checks.push(scoped.check);
  }
  if (checks.length === 0) return { problem: 'its default export holds no check' };
  return { set: { checks, ran: new Set() } };
}

function scopedCheck(
  name: string,
  entry: unknown,
  byKey: ReadonlyMap<string, string>,
): { check: LoadedUserCheck } | { problem: string } {
  const { operation, check } = (entry ?? {}) as { operation?: unknown; check?: unknown };
  if (entry === null || typeof entry !== 'object' || typeof check !== 'function')
    return { problem: `${name} must be a function, or { operation, check } with check a function` };
  const keys = typeof operation === 'string' ? [operation] : operation;
  if (!Array.isArray(keys) || keys.length === 0 || keys.some((key) => typeof key !== 'string'))
    return { problem: `${name}.operation must be "METHOD /path" as the spec has it, or a list of them` };
  const operations = new Set<string>();
  for (const key of keys as string[]) {
    const normalized = key.replace(/^\s*(\S+)\s+/, (_, method: string) => `${method.toUpperCase()} `).trim();
    const operationId = byKey.get(normalized);
    if (operationId === undefined) {
      const near = closestName(normalized, [...byKey.keys()]);
      return {
        problem: `${name}.operation: ${escapeLine(key.slice(0, 200))} is no operation of the spec${near ? ` (did you mean ${escapeLine(near)}?)` : ''}`,
      };
    }
    operations.add(operationId);
  }
  return { check: { name: name as UserCheckName, operations, run: check as UserCheckFunction } };
}

/** `POST /orders`: how a checks module names an operation. */
export const operationKey = (operation: Pick<OperationSpec, 'method' | 'pathTemplate'>) =>
  `${operation.method.toUpperCase()} ${operation.pathTemplate}`;
