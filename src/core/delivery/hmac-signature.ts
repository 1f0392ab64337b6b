// delivery_signature under the `hmac` scheme: `<prefix><hex HMAC>` of the raw body in one header, as GitHub signs
// its deliveries (X-Hub-Signature-256: sha256=…, the convention @octokit/webhooks-methods implements). The
// repository-webhooks example is two of these (X-Hub-Signature-256 and X-Hub-Signature).
import type { Finding } from '../finding.js';
import type { HmacScheme } from './delivery-convention.js';
import { deliveryHeader, type ReceivedDelivery } from './received-delivery.js';
import { hmacMatches } from './signature-compare.js';
import { signatureFinding as finding, signedWithoutSecret } from './signature-finding.js';

export function hmacSignature(
  scheme: HmacScheme,
  operation: string,
  delivery: ReceivedDelivery,
  secret: string | null,
): Finding[] {
  const value = deliveryHeader(delivery, scheme.header);
  if (secret === null) return signedWithoutSecret(operation, scheme.header, value);
  const form = `${scheme.prefix}<hex HMAC-${scheme.algorithm.toUpperCase()} of the body>`;
  if (value === undefined)
    return [finding(operation, `${scheme.header} is missing, but the hook has a secret`, form, null)];
  if (hmacMatches(value, secret, scheme.algorithm, [delivery.body], 'hex', scheme.prefix)) return [];
  return [
    finding(
      operation,
      `${scheme.header} does not verify over the body with the hook's secret`,
      form,
      'a signature that does not verify',
    ),
  ];
}
