// The checks fuzzing adds to the core's per-exchange checks, as pure functions returning findings (empty when the
// rule holds). Each message is self-contained: a person reading one failure needs nothing else.
import type { CheckName, Finding } from '../core/finding.js';

/** The checks fuzzing adds or judges in its sequences; all are core CheckNames (src/core/finding.ts). */
export type FuzzCheckName = Extract<
  CheckName,
  | 'not_a_server_error'
  | 'negative_data_rejection'
  | 'positive_data_acceptance'
  | 'ignored_auth'
  | 'use_after_free'
  | 'ensure_resource_availability'
  | 'events_default_push'
  | 'events_replace'
  | 'add_events'
  | 'remove_events'
  | 'secret_masked'
>;

function finding(check: FuzzCheckName, operation: string, message: string, extra: Partial<Finding> = {}): Finding {
  return { check: check, severity: 'error', operation, instancePath: '', message, ...extra };
}

const is2xx = (status: number) => status >= 200 && status < 300;

export function notAServerError(operation: string, status: number): Finding[] {
  return status >= 500
    ? [finding('not_a_server_error', operation, `${operation} answered ${status}: a server error`, { actual: status })]
    : [];
}

export function negativeDataRejection(operation: string, status: number, broken: string): Finding[] {
  if (!is2xx(status)) return [];
  return [
    finding(
      'negative_data_rejection',
      operation,
      `${operation} accepted a request the spec forbids (${broken}): answered ${status}, expected a 4xx`,
      { actual: status },
    ),
  ];
}

export function positiveDataAcceptance(operation: string, status: number): Finding[] {
  if (status !== 400 && status !== 422) return [];
  return [
    finding(
      'positive_data_acceptance',
      operation,
      `${operation} refused a request the spec allows: answered ${status}`,
      { actual: status },
    ),
  ];
}

export function ignoredAuth(operation: string, status: number, header: string, note?: string): Finding[] {
  if (!is2xx(status)) return [];
  const on = note?.startsWith('on ') ? ` ${note}` : '';
  return [
    finding(
      'ignored_auth',
      operation,
      `${operation} answered ${status} to a request without ${header}${on}: authentication is not enforced`,
      { actual: status },
    ),
  ];
}

export function useAfterFree(operation: string, status: number, hookId: number): Finding[] {
  if (status === 404) return [];
  return [
    finding(
      'use_after_free',
      operation,
      `${operation} on hook ${hookId} after its 204 delete answered ${status}, expected 404`,
      { actual: status },
    ),
  ];
}

export function resourceAvailability(operation: string, hookId: number, what: string): Finding[] {
  return [
    finding('ensure_resource_availability', operation, `hook ${hookId}, created with 201, ${what}`, {
      expected: hookId,
    }),
  ];
}

export function eventsExpected(
  check: 'events_default_push' | 'events_replace' | 'add_events' | 'remove_events',
  operation: string,
  expected: readonly string[],
  actual: unknown,
): Finding[] {
  const got = Array.isArray(actual) ? actual.map(String) : undefined;
  if (
    got &&
    got.length === new Set(got).size &&
    got.length === expected.length &&
    expected.every((event) => got.includes(event))
  )
    return [];
  return [
    finding(
      check,
      operation,
      `${check}: expected events ${JSON.stringify([...expected].sort())}, got ${JSON.stringify(actual)}`,
      { instancePath: '/events', expected, actual },
    ),
  ];
}

export function secretInClear(operation: string, secret: string, bodyText: string): Finding[] {
  return bodyText.includes(secret)
    ? [finding('secret_masked', operation, `${operation} returned the webhook secret in clear: it must be masked`)]
    : [];
}
