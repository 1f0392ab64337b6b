// deleted_hook_404: reading a deleted webhook answers 404 (seed, errors table: 404 for endpoint 8).
import type { Finding } from '../../../core/finding.js';
import { behaviourFinding } from './behaviour-finding.js';

export function deletedHook404(operation: string, status: number): Finding[] {
  if (status === 404) return [];
  return [
    behaviourFinding('deleted_hook_404', operation, `reading a deleted webhook must answer 404, got ${status}`, {
      expected: 404,
      actual: status,
    }),
  ];
}
