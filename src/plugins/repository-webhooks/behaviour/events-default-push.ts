// events_default_push: a webhook created without `events` subscribes to push (seed, endpoint rule 2).
import type { Finding } from '../../../core/finding.js';
import { behaviourFinding, eventsOf, list } from './behaviour-finding.js';

export function eventsDefaultPush(operation: string, created: unknown): Finding[] {
  const events = eventsOf(created);
  if (events && events.length === 1 && events[0] === 'push') return [];
  return [
    behaviourFinding(
      'events_default_push',
      operation,
      `a webhook created without events must have events [push], got ${events ? list(events) : 'no events field'}`,
      { instancePath: '/events', expected: ['push'], actual: events ?? null },
    ),
  ];
}
