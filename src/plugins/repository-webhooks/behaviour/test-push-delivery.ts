// test_push_delivery: a test on a hook subscribed to push triggers it with a push delivery (webhooks seed: rule 5,
// events rule 2).
import type { Finding } from '../../../core/finding.js';
import { behaviourFinding } from './behaviour-finding.js';
import { newItems } from './new-items.js';

export function testPushDelivery(operation: string, before: unknown, after: unknown, waitedMs: number): Finding[] {
  const fresh = newItems(before, after);
  if (fresh.some((item) => item.event === 'push')) return [];
  const message =
    fresh.length === 0
      ? `no delivery appeared within ${waitedMs} ms of a test (204) on a hook subscribed to push`
      : `the deliveries that appeared after a test on a push hook have events ${fresh.map((item) => JSON.stringify(item.event ?? null)).join(', ')}, none "push"`;
  return [
    behaviourFinding('test_push_delivery', operation, message, {
      expected: { event: 'push' },
      actual: fresh.map((item) => item.event ?? null),
    }),
  ];
}
