// One rule for an undocumented status, in fuzz, proxy and validate alike: a 4xx answer to a request that breaks the
// spec is the refusal that request deserves, documented or not (the client broke the contract first), so
// status_code_conformance does not hold it against the target; an answer to a valid request must have a documented
// status. fuzz judges its negative cases so (negative_data_rejection); proxy and validate --har apply this here.
import type { ExchangeResult } from './check-exchange.js';
import type { Finding } from './finding.js';

/** `response` without its status_code_conformance findings when the request broke the spec and was refused 4xx. */
export function excuseRefusal(
  response: ExchangeResult,
  request: { findings: readonly Finding[] },
  status: number,
): ExchangeResult {
  const invalid = request.findings.some((finding) => finding.severity === 'error');
  if (!invalid || status < 400 || status > 499) return response;
  const findings = response.findings.filter((finding) => finding.check !== 'status_code_conformance');
  if (findings.length === response.findings.length) return response;
  const { status_code_conformance: _dropped, ...omitted } = response.omitted ?? {};
  return { ...response, findings, ...(response.omitted ? { omitted } : {}) };
}
