// redelivery_flag: a redelivery produces a new delivery whose redelivery field is true (seed, events rule 5).
import type { Finding } from '../finding.js';
import { behaviourFinding } from './behaviour-finding.js';

export function redeliveryFlag(operation: string, deliveriesBefore: unknown, deliveriesAfter: unknown): Finding[] {
  const before = new Set(idsOf(deliveriesBefore));
  const fresh = (Array.isArray(deliveriesAfter) ? deliveriesAfter : []).filter((item) => !before.has((item as { id?: unknown })?.id));
  if (fresh.some((item) => (item as { redelivery?: unknown }).redelivery === true)) return [];
  const message = fresh.length === 0
    ? 'after a redelivery (202) the deliveries list holds no new delivery'
    : `after a redelivery the new deliveries (${fresh.length}) have no redelivery: true`;
  return [behaviourFinding('redelivery_flag', operation, message, { expected: { redelivery: true }, actual: fresh.map((item) => (item as { redelivery?: unknown }).redelivery ?? null) })];
}

function idsOf(list: unknown): unknown[] {
  return Array.isArray(list) ? list.map((item) => (item as { id?: unknown })?.id) : [];
}
