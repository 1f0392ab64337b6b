// ping_delivered: a ping reaches the hook's URL as a ping event (webhooks seed: rule 4, events rule 2).
import type { Finding } from '../../../core/finding.js';
import type { ArrivedDelivery } from './arrived-delivery.js';
import { behaviourFinding } from './behaviour-finding.js';

/** `hint`: what to look at when nothing arrives (whether the target can reach the receiver). */
export function pingDelivered(
  operation: string,
  hook: string,
  arrived: ArrivedDelivery | undefined,
  waitedMs: number,
  hint = '',
): Finding[] {
  if (!arrived)
    return [
      behaviourFinding(
        'ping_delivered',
        operation,
        `no delivery arrived at the receiver for ${hook} within ${waitedMs} ms of its ping (204)${hint ? `: ${hint}` : ''}`,
        { expected: { event: 'ping' }, actual: null },
      ),
    ];
  if (arrived.event === 'ping') return [];
  return [
    behaviourFinding(
      'ping_delivered',
      operation,
      `the delivery that arrived for ${hook} after its ping has X-Service-Event ${JSON.stringify(arrived.event ?? null)}, not "ping"`,
      { instancePath: '/headers/X-Service-Event', expected: 'ping', actual: arrived.event ?? null },
    ),
  ];
}
