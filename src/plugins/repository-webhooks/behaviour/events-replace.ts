// events_replace: an update with `events` replaces the whole array (seed, endpoint rule 3).
import type { Finding } from '../../../core/finding.js';
import { behaviourFinding, eventsOf, list, sameSet } from './behaviour-finding.js';

export function eventsReplace(operation: string, sent: readonly string[], after: unknown): Finding[] {
  const events = eventsOf(after) ?? [];
  if (sameSet(events, sent)) return [];
  return [
    behaviourFinding(
      'events_replace',
      operation,
      `events ${list(sent)} must replace the hook's events, got ${list(events)}`,
      { instancePath: '/events', expected: sent, actual: events },
    ),
  ];
}
