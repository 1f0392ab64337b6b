// Every per-request check, in the order their findings are reported.
import type { RequestCheck } from './request-check-context.js';
import { requestBodyConformance } from './request-body-conformance.js';
import { requestParametersConformance } from './request-parameters-conformance.js';
import { requestSecurityConformance } from './request-security-conformance.js';

export const requestChecks: readonly RequestCheck[] = [
  requestSecurityConformance,
  requestParametersConformance,
  requestBodyConformance,
];
