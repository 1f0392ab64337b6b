// test_delivered: a test reaches a hook subscribed to push as a push event, and nothing reaches a hook that is not
// subscribed (webhooks seed: rule 5, events rule 2).
import type { Finding } from '../../../core/finding.js';
import type { ArrivedDelivery } from './arrived-delivery.js';
import { behaviourFinding } from './behaviour-finding.js';

export function testDelivered(
  operation: string,
  hook: string,
  arrived: ArrivedDelivery | undefined,
  waitedMs: number,
): Finding[] {
  if (!arrived)
    return [
      behaviourFinding(
        'test_delivered',
        operation,
        `no delivery arrived at the receiver for ${hook} (subscribed to push) within ${waitedMs} ms of its test (204)`,
        { expected: { event: 'push' }, actual: null },
      ),
    ];
  if (arrived.event === 'push') return [];
  return [
    behaviourFinding(
      'test_delivered',
      operation,
      `the delivery that arrived for ${hook} after its test has X-Service-Event ${JSON.stringify(arrived.event ?? null)}, not "push"`,
      { instancePath: '/headers/X-Service-Event', expected: 'push', actual: arrived.event ?? null },
    ),
  ];
}

export function testNotDelivered(
  operation: string,
  hook: string,
  arrived: readonly ArrivedDelivery[],
  waitedMs: number,
): Finding[] {
  if (arrived.length === 0) return [];
  const events = arrived.map((delivery) => delivery.event ?? null);
  return [
    behaviourFinding(
      'test_delivered',
      operation,
      `${arrived.length} deliver${arrived.length === 1 ? 'y' : 'ies'} (events ${events.map((event) => JSON.stringify(event)).join(', ')}) arrived for ${hook}, which is not subscribed to push, within ${waitedMs} ms of its test`,
      { expected: 'no delivery', actual: events },
    ),
  ];
}
