// How one API delivers its webhooks, beyond what OpenAPI says: which header names the event, and how deliveries are
// signed. OpenAPI 3.1 `webhooks` (https://spec.openapis.org/oas/v3.1.0#oasWebhooks) describe each delivery's
// request, not its signature scheme nor how a receiver tells one webhook from another, so the config sets these
// per API (`apis[].webhooks`: src/config/read-config.ts).

/** GitHub-style: `<prefix><hex HMAC>` of the raw body in one header (X-Hub-Signature-256: sha256=…). */
export interface HmacScheme {
  scheme: 'hmac';
  header: string;
  prefix: string;
  algorithm: 'sha1' | 'sha256' | 'sha512';
  secretEnv: string;
}

/** Standard Webhooks: webhook-id, webhook-timestamp and webhook-signature (`v1,<base64>`), a `whsec_` secret. */
export interface StandardWebhooksScheme {
  scheme: 'standard-webhooks';
  secretEnv: string;
  /** Seconds webhook-timestamp may be from now. */
  tolerance: number;
}

/** Stripe: `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export interface StripeScheme {
  scheme: 'stripe';
  header: string;
  secretEnv: string;
  /** Seconds t may be from now. */
  tolerance: number;
}

export type SignatureScheme = HmacScheme | StandardWebhooksScheme | StripeScheme;

export interface DeliveryConvention {
  /** The header whose value is the webhook's key in the spec; without one, the payload tells (identify-webhook.ts). */
  eventHeader?: string;
  /** Every scheme must verify; none: signatures are not judged. */
  signatures: readonly SignatureScheme[];
}

/** Tolerance both Standard Webhooks and Stripe recommend: five minutes. */
export const defaultTolerance = 300;

/** The headers a scheme puts its signature in: never echoed, whatever they hold. */
export function signatureHeaderNames(scheme: SignatureScheme): string[] {
  return scheme.scheme === 'standard-webhooks' ? ['webhook-signature'] : [scheme.header];
}

/**
 * The repository-webhooks example's convention (specs/repository-webhooks.yaml), which its config entry spells out
 * too: the event in X-Service-Event, signed by both X-Hub-Signature-256 and X-Hub-Signature with WEBHOOK_SECRET.
 * It is what a contract compiled without a convention uses, as the library and the check sequences did before
 * conventions were configurable; it moves to that example's plug-in folder when the plug-in seam lands (#45).
 */
export const exampleConvention: DeliveryConvention = Object.freeze({
  eventHeader: 'X-Service-Event',
  signatures: Object.freeze([
    {
      scheme: 'hmac',
      header: 'X-Hub-Signature-256',
      prefix: 'sha256=',
      algorithm: 'sha256',
      secretEnv: 'WEBHOOK_SECRET',
    },
    { scheme: 'hmac', header: 'X-Hub-Signature', prefix: 'sha1=', algorithm: 'sha1', secretEnv: 'WEBHOOK_SECRET' },
  ] as const),
});
