// ping_delivery: a ping causes a ping event to be sent to the hook (webhooks seed: rule 4, events rule 2).
import type { Finding } from '../../../core/finding.js';
import { behaviourFinding } from './behaviour-finding.js';
import { newItems } from './new-items.js';

export function pingDelivery(operation: string, before: unknown, after: unknown, waitedMs: number): Finding[] {
  const fresh = newItems(before, after);
  if (fresh.some((item) => item.event === 'ping')) return [];
  const message =
    fresh.length === 0
      ? `no delivery appeared within ${waitedMs} ms of the ping (204)`
      : `the deliveries that appeared after the ping have events ${fresh.map((item) => JSON.stringify(item.event ?? null)).join(', ')}, none "ping"`;
  return [
    behaviourFinding('ping_delivery', operation, message, {
      expected: { event: 'ping' },
      actual: fresh.map((item) => item.event ?? null),
    }),
  ];
}
