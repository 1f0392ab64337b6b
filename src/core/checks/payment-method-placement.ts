// payment_method_placement: the client-session seed's rule. Its schema puts paymentMethod at the top level,
// its example under order: either place, or both, is accepted; neither fails; both with different contents warns.
import type { Finding } from '../finding.js';
import { finding, type ExchangeCheck } from './check-context.js';

export const paymentMethodPlacement: ExchangeCheck = {
  name: 'payment_method_placement',
  applies: (context) => context.media?.placement !== undefined && context.body.kind === 'json',
  run(context) {
    const { accepted, segments } = context.media!.placement!;
    const body = context.body.kind === 'json' ? context.body.value : undefined;
    const found: { pointer: string; value: unknown }[] = [];
    for (let index = 0; index < accepted.length; index++) {
      const value = valueAt(body, segments[index]!);
      if (value !== undefined) found.push({ pointer: accepted[index]!, value });
    }
    const findings: Finding[] = [];
    if (found.length === 0) {
      findings.push(
        finding(context, 'payment_method_placement', {
          message: `paymentMethod is missing: expected at ${accepted.join(' (the seed schema) or at ')} (the seed example), or both`,
          expected: accepted,
          actual: null,
        }),
      );
    } else if (found.length > 1 && !found.every((entry) => sameContents(entry.value, found[0]!.value))) {
      findings.push(
        finding(context, 'payment_method_placement', {
          severity: 'warning',
          instancePath: found[1]!.pointer,
          message: `paymentMethod is present at ${found.map((entry) => entry.pointer).join(' and ')} with different contents: which one applies is not defined`,
        }),
      );
    }
    return findings;
  },
};

/**
 * Deep equality of two parsed JSON values (object keys in any order); contents nested too deeply to compare count as
 * different. Written here rather than node:util's isDeepStrictEqual, which gives the same on JSON values, so that the
 * checks bundle for a browser (contracts-kit/msw).
 */
function sameContents(a: unknown, b: unknown): boolean {
  try {
    return sameJson(a, b);
  } catch {
    return false;
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  if (aKeys.length !== Object.keys(b).length) return false;
  const aRecord = a as Record<string, unknown>;
  const bRecord = b as Record<string, unknown>;
  return aKeys.every((key) => Object.hasOwn(bRecord, key) && sameJson(aRecord[key], bRecord[key]));
}

/** The value at a path of object keys (arrays are not entered), or undefined; coverage uses it for the branch too. */
export function valueAt(value: unknown, segments: readonly string[]): unknown {
  let node = value;
  for (const segment of segments) {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}
