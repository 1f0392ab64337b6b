// add_events: an update with `add_events` adds them and keeps the others (seed, endpoint rule 3).
import type { Finding } from '../../../core/finding.js';
import { behaviourFinding, eventsOf, list, sameSet } from './behaviour-finding.js';

export function addEvents(
  operation: string,
  before: readonly string[],
  added: readonly string[],
  after: unknown,
): Finding[] {
  const events = eventsOf(after) ?? [];
  const expected = [...new Set([...before, ...added])];
  if (sameSet(events, expected)) return [];
  return [
    behaviourFinding(
      'add_events',
      operation,
      `add_events ${list(added)} on ${list(before)} must give ${list(expected)}, got ${list(events)}`,
      { instancePath: '/events', expected, actual: events },
    ),
  ];
}
