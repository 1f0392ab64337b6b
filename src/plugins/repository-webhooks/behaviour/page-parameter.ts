// page_parameter: the webhook list pages with per_page and page (webhooks seed: rule 7). With per_page=1 and at
// least two hooks, page 2 holds one hook, not the one on page 1.
import type { Finding } from '../../../core/finding.js';
import { behaviourFinding } from './behaviour-finding.js';
import { idsOf } from './ids.js';
import { isSuccess } from './request-refused.js';

export function pageParameter(operation: string, firstPage: unknown, status: number, secondPage: unknown): Finding[] {
  if (!isSuccess(status))
    return [
      behaviourFinding('page_parameter', operation, `page=2 with per_page=1 answered ${status}`, {
        expected: '2xx',
        actual: status,
      }),
    ];
  const first = idsOf(firstPage);
  const second = idsOf(secondPage);
  if (second.length !== 1)
    return [
      behaviourFinding(
        'page_parameter',
        operation,
        `page=2 with per_page=1 must hold one hook when there are at least two, got ${second.length}`,
        { expected: 1, actual: second.length },
      ),
    ];
  if (first.includes(second[0]))
    return [
      behaviourFinding(
        'page_parameter',
        operation,
        `page=2 holds the same hook as page 1 (id ${String(second[0])}): page is ignored`,
        { actual: second[0] },
      ),
    ];
  return [];
}
