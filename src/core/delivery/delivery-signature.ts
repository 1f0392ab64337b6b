// delivery_signature: every signature scheme the API's convention names verifies over the raw body with its
// secret; a hook known to have no secret gets no signature header (webhooks seed: events 3). The schemes are
// configured per API (delivery-convention.ts); every compare is constant-time (signature-compare.ts).
import type { Finding } from '../finding.js';
import type { SignatureScheme } from './delivery-convention.js';
import { hmacSignature } from './hmac-signature.js';
import type { ReceivedDelivery } from './received-delivery.js';
import { standardWebhooksSignature } from './standard-webhooks-signature.js';
import { stripeSignature } from './stripe-signature.js';

export function deliverySignature(
  scheme: SignatureScheme,
  operation: string,
  delivery: ReceivedDelivery,
  secret: string | null,
  nowMs: number,
): Finding[] {
  switch (scheme.scheme) {
    case 'hmac':
      return hmacSignature(scheme, operation, delivery, secret);
    case 'standard-webhooks':
      return standardWebhooksSignature(scheme, operation, delivery, secret, nowMs);
    case 'stripe':
      return stripeSignature(scheme, operation, delivery, secret, nowMs);
  }
}
