// per_page_respected and per_page_capped (webhooks seed: rule 7, limits table). A page holds exactly per_page
// items when more exist; per_page=101 is rejected (400/422) or capped at 100. The probe counts only beside a
// per_page=1 control that succeeded, and only a plausible rejection counts: a 401/403/404/406/5xx proves nothing.
import type { Finding } from '../../../core/finding.js';
import { behaviourFinding } from './behaviour-finding.js';
import { isSuccess } from './request-refused.js';

/** `available`: how many items the list holds in all (known from a larger page), so a short page is a failure. */
export function perPageRespected(
  operation: string,
  perPage: number,
  status: number,
  items: unknown,
  available: number,
): Finding[] {
  if (!isSuccess(status))
    return [
      behaviourFinding('per_page_respected', operation, `the list with per_page=${perPage} answered ${status}`, {
        expected: '2xx',
        actual: status,
      }),
    ];
  if (!Array.isArray(items))
    return [
      behaviourFinding('per_page_respected', operation, `the list with per_page=${perPage} is not an array`, {
        expected: 'an array',
      }),
    ];
  const expected = Math.min(perPage, available);
  if (items.length === expected) return [];
  return [
    behaviourFinding(
      'per_page_respected',
      operation,
      `per_page=${perPage} with ${available} items to list must give a page of ${expected}, got ${items.length}`,
      { expected, actual: items.length },
    ),
  ];
}

export function perPageCapped(operation: string, controlStatus: number, status: number, items: unknown): Finding[] {
  if (!isSuccess(controlStatus)) {
    return [
      behaviourFinding(
        'per_page_capped',
        operation,
        `could not be exercised: the control list with per_page=1 answered ${controlStatus}, so a refusal of per_page=101 would prove nothing`,
        { expected: 'a 2xx control', actual: controlStatus },
      ),
    ];
  }
  if (status === 400 || status === 422) return [];
  if (isSuccess(status) && Array.isArray(items) && items.length <= 100) return [];
  const message = isSuccess(status)
    ? `per_page=101 must be rejected (400/422) or capped at 100, but the page holds ${Array.isArray(items) ? `${items.length} items` : 'no array'}`
    : `per_page=101 must be rejected with 400 or 422, or capped at 100; got ${status}, which says nothing about per_page`;
  return [
    behaviourFinding('per_page_capped', operation, message, {
      expected: '400 or 422, or at most 100 items',
      actual: status,
    }),
  ];
}
