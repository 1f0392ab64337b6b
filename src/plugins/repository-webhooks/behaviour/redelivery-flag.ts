// redelivery_flag: a redelivery produces a new delivery whose redelivery field is true (seed, events rule 5).
import type { Finding } from '../../../core/finding.js';
import { behaviourFinding } from './behaviour-finding.js';
import { newItems } from './new-items.js';

export function redeliveryFlag(operation: string, deliveriesBefore: unknown, deliveriesAfter: unknown): Finding[] {
  const fresh = newItems(deliveriesBefore, deliveriesAfter);
  if (fresh.some((item) => item.redelivery === true)) return [];
  const message =
    fresh.length === 0
      ? 'after a redelivery (202) the deliveries list holds no new delivery'
      : `after a redelivery the new deliveries (${fresh.length}) have no redelivery: true`;
  return [
    behaviourFinding('redelivery_flag', operation, message, {
      expected: { redelivery: true },
      actual: fresh.map((item) => item.redelivery ?? null),
    }),
  ];
}
