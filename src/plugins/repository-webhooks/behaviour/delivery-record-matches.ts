// delivery_record_matches: a delivery's record (endpoint 4) holds the request that actually reached the target
// and the status the target answered (webhooks seed: Delivery detail; events rule 3): its guid is the
// X-Service-Delivery that arrived, its event the X-Service-Event, request.headers the seed's headers as they
// arrived, request.payload the payload, status_code the receiver's answer.
import type { Finding } from '../../../core/finding.js';
import { sameJson, type ArrivedDelivery } from './arrived-delivery.js';
import { behaviourFinding } from './behaviour-finding.js';
import { ownValue } from '../../../core/own-key.js';

/** The request headers the seed names (events rule 3), compared wherever either side has them. */
const recordedHeaders = [
  'X-Service-Delivery',
  'X-Service-Hook-ID',
  'X-Service-Event',
  'X-Service-Hook-Installation-Target-ID',
  'X-Service-Hook-Installation-Target-Type',
  'X-Hub-Signature-256',
  'X-Hub-Signature',
  'User-Agent',
  'content-type',
];
const signature = /^x-hub-signature/i;

export function deliveryRecordMatches(operation: string, detail: unknown, arrived: ArrivedDelivery): Finding[] {
  const finding = (message: string, instancePath: string, expected?: unknown, actual?: unknown) =>
    behaviourFinding('delivery_record_matches', operation, message, {
      instancePath,
      ...(expected === undefined ? {} : { expected }),
      ...(actual === undefined ? {} : { actual }),
    });
  const record = detail !== null && typeof detail === 'object' ? (detail as Record<string, unknown>) : {};
  const request =
    record.request !== null && typeof record.request === 'object' ? (record.request as Record<string, unknown>) : {};
  const findings: Finding[] = [];
  if (record.guid !== arrived.guid)
    findings.push(
      finding(
        `the record's guid is ${JSON.stringify(record.guid ?? null)}, but X-Service-Delivery arrived as ${JSON.stringify(arrived.guid ?? null)}`,
        '/guid',
        arrived.guid ?? null,
        record.guid ?? null,
      ),
    );
  if (record.event !== arrived.event)
    findings.push(
      finding(
        `the record's event is ${JSON.stringify(record.event ?? null)}, but X-Service-Event arrived as ${JSON.stringify(arrived.event ?? null)}`,
        '/event',
        arrived.event ?? null,
        record.event ?? null,
      ),
    );
  const raw =
    request.headers !== null && typeof request.headers === 'object' && !Array.isArray(request.headers)
      ? (request.headers as Record<string, unknown>)
      : undefined;
  if (!raw) findings.push(finding('the record has no request.headers object', '/request/headers'));
  else {
    const recorded = new Map(Object.entries(raw).map(([name, value]) => [name.toLowerCase(), value]));
    for (const name of recordedHeaders) {
      const got = ownValue(arrived.headers, name.toLowerCase());
      const sent = Array.isArray(got) ? got.join(', ') : got;
      const kept = recorded.get(name.toLowerCase());
      if (sent === undefined && kept === undefined) continue;
      if (kept !== undefined && sent !== undefined && String(kept) === sent) continue;
      // Signatures are never echoed: they are as good as the secret for replaying a payload.
      const show = (value: unknown) => (value === undefined ? null : signature.test(name) ? 'a signature' : value);
      const message =
        kept === undefined
          ? `the record's request.headers lack ${name}, which arrived`
          : sent === undefined
            ? `the record's request.headers hold ${name}, which did not arrive`
            : signature.test(name)
              ? `the record's ${name} differs from the one that arrived`
              : `the record's ${name} is ${JSON.stringify(kept)}, but ${JSON.stringify(sent)} arrived`;
      findings.push(finding(message, `/request/headers/${name}`, show(sent), show(kept)));
    }
  }
  if (arrived.payload === undefined)
    findings.push(
      finding(
        'the payload that arrived could not be read, so the record cannot be compared with it',
        '/request/payload',
      ),
    );
  else if (!sameJson(request.payload, arrived.payload))
    findings.push(finding("the record's request.payload is not the payload that arrived", '/request/payload'));
  if (record.status_code !== arrived.status)
    findings.push(
      finding(
        `the record's status_code is ${JSON.stringify(record.status_code ?? null)}, but the receiver answered ${arrived.status}`,
        '/status_code',
        arrived.status,
        record.status_code ?? null,
      ),
    );
  return findings;
}
