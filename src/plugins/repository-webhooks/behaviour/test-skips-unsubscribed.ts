// test_skips_unsubscribed: a test on a hook not subscribed to push still answers 204 and produces no delivery
// (webhooks seed: rule 5). Judged after waiting as long as a delivery took to appear on a push hook.
import type { Finding } from '../../../core/finding.js';
import { behaviourFinding } from './behaviour-finding.js';
import { newItems } from './new-items.js';

export function testSkipsUnsubscribed(operation: string, status: number, before: unknown, after: unknown): Finding[] {
  if (status !== 204)
    return [
      behaviourFinding(
        'test_skips_unsubscribed',
        operation,
        `a test on a hook not subscribed to push must still answer 204, got ${status}`,
        { expected: 204, actual: status },
      ),
    ];
  const fresh = newItems(before, after);
  if (fresh.length === 0) return [];
  return [
    behaviourFinding(
      'test_skips_unsubscribed',
      operation,
      `a test on a hook not subscribed to push produced ${fresh.length} deliver${fresh.length === 1 ? 'y' : 'ies'} (events ${fresh.map((item) => JSON.stringify(item.event ?? null)).join(', ')})`,
      { expected: 'no delivery', actual: fresh.length },
    ),
  ];
}
