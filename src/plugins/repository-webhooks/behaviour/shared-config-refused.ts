// shared_config_refused: several webhooks of a repository may share one config only if their events do not
// overlap (webhooks seed: "What the service does"). A create with another hook's config and overlapping events is
// refused as a validation failure (422, or 400); a 401/403/404 says nothing about the rule.
import type { Finding } from '../../../core/finding.js';
import { behaviourFinding } from './behaviour-finding.js';

export function sharedConfigRefused(operation: string, status: number): Finding[] {
  if (status === 422 || status === 400) return [];
  const message =
    status === 201
      ? 'a second hook with the same config and overlapping events was created (201): it must be refused'
      : `a second hook with the same config and overlapping events must be refused with 422 (or 400), got ${status}`;
  return [behaviourFinding('shared_config_refused', operation, message, { expected: '422 or 400', actual: status })];
}
