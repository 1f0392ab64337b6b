// auth_required and api_version_enforced: a request without X-API-KEY, or with an X-API-VERSION other than
// 2.4, must not succeed (client-session seed: authentication rule 1, versioning).
import type { CheckName, Finding } from '../finding.js';
import { behaviourFinding } from './behaviour-finding.js';

export function requestRefused(check: Extract<CheckName, 'auth_required' | 'api_version_enforced'>, operation: string, what: string, status: number): Finding[] {
  if (status < 200 || status >= 300) return [];
  return [behaviourFinding(check, operation, `a request ${what} must not succeed, got ${status}`, { expected: 'not 2xx', actual: status })];
}
