// remove_events: an update with `remove_events` removes them and keeps the others (seed, endpoint rule 3).
import type { Finding } from '../../../core/finding.js';
import { behaviourFinding, eventsOf, list, sameSet } from './behaviour-finding.js';

export function removeEvents(
  operation: string,
  before: readonly string[],
  removed: readonly string[],
  after: unknown,
): Finding[] {
  const events = eventsOf(after) ?? [];
  const expected = before.filter((event) => !removed.includes(event));
  if (sameSet(events, expected)) return [];
  return [
    behaviourFinding(
      'remove_events',
      operation,
      `remove_events ${list(removed)} on ${list(before)} must give ${list(expected)}, got ${list(events)}`,
      { instancePath: '/events', expected, actual: events },
    ),
  ];
}
