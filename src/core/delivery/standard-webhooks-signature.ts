// delivery_signature under the `standard-webhooks` scheme, as the Standard Webhooks specification has it
// (https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md, "Signature scheme"
// and "Verifying webhook authenticity"; https://www.standardwebhooks.com/verify): the sender sends webhook-id,
// webhook-timestamp (integer Unix seconds) and webhook-signature, a space-delimited list of `v1,<base64>`
// entries; each is HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>` keyed with the secret's bytes
// (the base64 after `whsec_`). One v1 entry verifying is enough (several appear while a secret rotates); other
// versions (`v1a` is an asymmetric signature) are not ours to judge. A timestamp further from now than the
// tolerance fails: the spec's replay protection, five minutes in its libraries.
import type { Finding } from '../finding.js';
import type { StandardWebhooksScheme } from './delivery-convention.js';
import { deliveryHeader, type ReceivedDelivery } from './received-delivery.js';
import { hmacMatches } from './signature-compare.js';
import { signatureFinding as finding, signedWithoutSecret } from './signature-finding.js';

const headers = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;
const form = 'v1,<base64 HMAC-SHA256 of "webhook-id.webhook-timestamp.body">';

/** The HMAC key a `whsec_` secret stands for, or undefined when it is not base64 (see secretProblem). */
export function standardWebhooksKey(secret: string): Buffer | undefined {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined;
  const key = Buffer.from(encoded, 'base64');
  return key.length === 0 ? undefined : key;
}

export function standardWebhooksSignature(
  scheme: StandardWebhooksScheme,
  operation: string,
  delivery: ReceivedDelivery,
  secret: string | null,
  nowMs: number,
): Finding[] {
  const [id, timestamp, signature] = headers.map((name) => deliveryHeader(delivery, name));
  if (secret === null) return signedWithoutSecret(operation, 'webhook-signature', signature);
  const missing = headers.filter((_name, index) => [id, timestamp, signature][index] === undefined);
  if (missing.length > 0)
    return [finding(operation, `${missing.join(', ')} missing: Standard Webhooks signs with all three`, form, null)];
  const findings: Finding[] = [];
  if (!/^\d{1,15}$/.test(timestamp!))
    findings.push(
      finding(
        operation,
        'webhook-timestamp is not a whole number of Unix seconds',
        'Unix seconds',
        'a malformed timestamp',
      ),
    );
  else {
    const offset = Math.round(Number(timestamp) - nowMs / 1000);
    if (Math.abs(offset) > scheme.tolerance)
      findings.push(
        finding(
          operation,
          `webhook-timestamp is ${Math.abs(offset)} s ${offset < 0 ? 'in the past' : 'in the future'}, beyond the ${scheme.tolerance} s tolerance`,
          `within ${scheme.tolerance} s of now`,
          `${offset} s from now`,
        ),
      );
  }
  const key = standardWebhooksKey(secret);
  const entries = signature!
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .slice(0, 16)
    .map((entry) => entry.slice(3));
  const verified =
    key !== undefined &&
    entries.some((entry) => hmacMatches(entry, key, 'sha256', [id!, '.', timestamp!, '.', delivery.body], 'base64'));
  if (!verified)
    findings.push(
      finding(
        operation,
        entries.length === 0
          ? 'webhook-signature holds no v1,<base64> entry'
          : 'webhook-signature does not verify over webhook-id.webhook-timestamp.body with the secret',
        form,
        entries.length === 0 ? 'no v1 signature' : 'a signature that does not verify',
      ),
    );
  return findings;
}
