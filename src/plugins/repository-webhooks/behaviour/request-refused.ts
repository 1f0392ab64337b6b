// auth_required and api_version_enforced: a request without X-API-KEY, or with an X-API-VERSION other than
// 2.4, must not succeed (client-session seed: authentication rule 1, the X-API-VERSION parameter). A refusal
// counts only beside a control: the same request with the key and version 2.4 must have succeeded.
import type { CheckName, Finding } from '../../../core/finding.js';
import { behaviourFinding } from './behaviour-finding.js';

export function requestRefused(
  check: Extract<CheckName, 'auth_required' | 'api_version_enforced'>,
  operation: string,
  what: string,
  controlStatus: number,
  probeStatus: number,
): Finding[] {
  if (!isSuccess(controlStatus)) {
    const message = `could not be exercised: the control request (with X-API-KEY and X-API-VERSION 2.4) answered ${controlStatus}, so a refusal of the request ${what} would prove nothing`;
    return [behaviourFinding(check, operation, message, { expected: 'a 2xx control', actual: controlStatus })];
  }
  if (probeStatus >= 400 && probeStatus < 500) return [];
  const message = isSuccess(probeStatus)
    ? `a request ${what} must not succeed, got ${probeStatus}`
    : `a request ${what} must be refused with a 4xx, got ${probeStatus}${probeStatus >= 500 ? ' (a server error is not a refusal)' : ''}`;
  return [behaviourFinding(check, operation, message, { expected: '4xx', actual: probeStatus })];
}

export const isSuccess = (status: number) => status >= 200 && status < 300;
