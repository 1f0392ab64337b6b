// redelivery_delivered: a redelivery reaches the hook again, as another attempt of the same delivery: the same
// event and payload (webhooks seed: rule 6, events rule 5).
import type { Finding } from '../../../core/finding.js';
import { sameJson, type ArrivedDelivery } from './arrived-delivery.js';
import { behaviourFinding } from './behaviour-finding.js';

export function redeliveryDelivered(
  operation: string,
  original: ArrivedDelivery,
  again: ArrivedDelivery | undefined,
  waitedMs: number,
): Finding[] {
  const finding = (message: string, extra: Parameters<typeof behaviourFinding>[3] = {}) =>
    behaviourFinding('redelivery_delivered', operation, message, extra);
  if (!again)
    return [
      finding(`no delivery arrived at the receiver within ${waitedMs} ms of the redelivery (202)`, {
        expected: { event: original.event ?? null },
        actual: null,
      }),
    ];
  const findings: Finding[] = [];
  if (again.event !== original.event)
    findings.push(
      finding(
        `the redelivery arrived with X-Service-Event ${JSON.stringify(again.event ?? null)}, the original with ${JSON.stringify(original.event ?? null)}`,
        { instancePath: '/headers/X-Service-Event', expected: original.event ?? null, actual: again.event ?? null },
      ),
    );
  if (!sameJson(again.payload, original.payload))
    findings.push(
      finding('the redelivery arrived with another payload than the delivery it repeats', { instancePath: '/payload' }),
    );
  return findings;
}
