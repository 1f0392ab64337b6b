// delivery_signature under the `stripe` scheme, as Stripe documents it ("Verify the signature manually",
// https://docs.stripe.com/webhooks/signatures#verify-manually; its libraries' verify_header): the header holds
// comma-separated `key=value` pairs, `t` the Unix seconds the delivery was signed at and each `v1` a hex
// HMAC-SHA256, keyed with the endpoint's secret as it is written (whsec_… included), over `<t>.<raw body>`. One v1
// verifying is enough (several appear while a secret rotates); v0 and other keys are ignored. A `t` older than the
// tolerance fails (Stripe's libraries check only age; five minutes by default).
import type { Finding } from '../finding.js';
import type { StripeScheme } from './delivery-convention.js';
import { deliveryHeader, type ReceivedDelivery } from './received-delivery.js';
import { hmacMatches } from './signature-compare.js';
import { signatureFinding as finding, signedWithoutSecret } from './signature-finding.js';

export function stripeSignature(
  scheme: StripeScheme,
  operation: string,
  delivery: ReceivedDelivery,
  secret: string | null,
  nowMs: number,
): Finding[] {
  const value = deliveryHeader(delivery, scheme.header);
  const form = 't=<Unix seconds>,v1=<hex HMAC-SHA256 of "t.body">';
  if (secret === null) return signedWithoutSecret(operation, scheme.header, value);
  if (value === undefined)
    return [finding(operation, `${scheme.header} is missing, but the hook has a secret`, form, null)];
  const pairs = value
    .split(',')
    .slice(0, 32)
    .map((item) => [item.slice(0, item.indexOf('=')).trim(), item.slice(item.indexOf('=') + 1).trim()] as const);
  const timestamp = pairs.find(([key]) => key === 't')?.[1];
  const signatures = pairs.filter(([key]) => key === 'v1').map(([, signature]) => signature);
  if (timestamp === undefined || !/^\d{1,15}$/.test(timestamp) || signatures.length === 0)
    return [
      finding(
        operation,
        `${scheme.header} has ${timestamp === undefined ? 'no t= timestamp' : signatures.length === 0 ? 'no v1= signature' : 'a t= that is not Unix seconds'}`,
        form,
        'a malformed signature header',
      ),
    ];
  const findings: Finding[] = [];
  const age = Math.round(nowMs / 1000 - Number(timestamp));
  if (age > scheme.tolerance)
    findings.push(
      finding(
        operation,
        `${scheme.header}'s t= is ${age} s old, beyond the ${scheme.tolerance} s tolerance`,
        `at most ${scheme.tolerance} s old`,
        `${age} s old`,
      ),
    );
  if (!signatures.some((signature) => hmacMatches(signature, secret, 'sha256', [timestamp, '.', delivery.body], 'hex')))
    findings.push(
      finding(
        operation,
        `${scheme.header} does not verify over t.body with the secret`,
        form,
        'a signature that does not verify',
      ),
    );
  return findings;
}
