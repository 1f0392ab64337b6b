// delivery_request_headers: a delivery record holds the request sent to the target, with the seed's headers
// (webhooks seed: events rule 3): X-Service-Delivery is the guid, X-Service-Event the event, X-Service-Hook-ID the
// hook; a hook with a secret signs with X-Hub-Signature-256 (sha256=) and X-Hub-Signature (sha1=).
import type { Finding } from '../../../core/finding.js';
import { behaviourFinding } from './behaviour-finding.js';

export function deliveryRequestHeaders(
  operation: string,
  hookId: number,
  hasSecret: boolean,
  detail: unknown,
): Finding[] {
  const record = detail !== null && typeof detail === 'object' ? (detail as Record<string, unknown>) : {};
  const request =
    record.request !== null && typeof record.request === 'object' ? (record.request as Record<string, unknown>) : {};
  const raw =
    request.headers !== null && typeof request.headers === 'object' && !Array.isArray(request.headers)
      ? (request.headers as Record<string, unknown>)
      : undefined;
  if (!raw)
    return [
      finding(
        operation,
        '/request/headers',
        'the delivery record has no request.headers object',
        'an object of headers',
        null,
      ),
    ];
  const headers = new Map(Object.entries(raw).map(([name, value]) => [name.toLowerCase(), value]));
  const findings: Finding[] = [];
  const expectEqual = (name: string, expected: unknown) => {
    const actual = headers.get(name.toLowerCase());
    if (actual === undefined)
      findings.push(
        finding(
          operation,
          `/request/headers/${name}`,
          `${name} is missing from the recorded request headers`,
          expected,
          null,
        ),
      );
    else if (String(actual) !== String(expected))
      findings.push(
        finding(
          operation,
          `/request/headers/${name}`,
          `${name} is ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`,
          expected,
          actual,
        ),
      );
  };
  expectEqual('X-Service-Delivery', record.guid);
  expectEqual('X-Service-Event', record.event);
  expectEqual('X-Service-Hook-ID', hookId);
  const signatures: [string, RegExp][] = [
    ['X-Hub-Signature-256', /^sha256=[0-9a-f]{64}$/],
    ['X-Hub-Signature', /^sha1=[0-9a-f]{40}$/],
  ];
  for (const [name, pattern] of signatures) {
    const actual = headers.get(name.toLowerCase());
    if (hasSecret && actual === undefined)
      findings.push(
        finding(
          operation,
          `/request/headers/${name}`,
          `${name} is missing, but the hook has a secret`,
          pattern.source,
          null,
        ),
      );
    else if (hasSecret && !pattern.test(String(actual)))
      findings.push(
        finding(
          operation,
          `/request/headers/${name}`,
          `${name} does not have the form ${pattern.source}`,
          pattern.source,
          'a malformed signature',
        ),
      );
  }
  return findings;
}

const finding = (
  operation: string,
  instancePath: string,
  message: string,
  expected: unknown,
  actual: unknown,
): Finding => behaviourFinding('delivery_request_headers', operation, message, { instancePath, expected, actual });
