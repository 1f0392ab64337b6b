// Which of the spec's webhooks a delivery is. OpenAPI 3.1 keys `webhooks` by a name the delivery itself does not
// carry (https://spec.openapis.org/oas/v3.1.0#oasWebhooks), so it is told one of two ways:
// - by the header the API's config names (`webhooks.eventHeader`): its value is the webhook's key;
// - else by the delivery: the webhooks that document its content type are the candidates; one candidate is it;
//   among several, the one whose payload schema alone accepts the payload. When several accept it, the delivery is
//   ambiguous and no webhook is claimed (its payload holds for each); when none does, it is none of them.
import { escapeLine } from '../escape-line.js';
import type { CompiledWebhook, DeliveryContract, DeliveryMediaType } from './delivery-contract.js';
import type { PayloadReading } from './delivery-payload.js';
import { deliveryHeader, type ReceivedDelivery } from './received-delivery.js';

export type Identification =
  /** By the event header; `webhook` undefined: the spec documents no webhook of that name. */
  | { how: 'event-header'; header: string; value: string | undefined; webhook: CompiledWebhook | undefined }
  /** The only webhook documenting the delivery's content type. */
  | { how: 'only-candidate'; webhook: CompiledWebhook }
  /** The only candidate whose payload schema accepts the payload. */
  | { how: 'payload-schema'; webhook: CompiledWebhook }
  | { how: 'ambiguous'; candidates: CompiledWebhook[] }
  | { how: 'no-match'; candidates: CompiledWebhook[] }
  /** No payload to match (unreadable), no candidate for its content type, or a payload too deep to check. */
  | { how: 'unknown'; candidates: CompiledWebhook[] };

export function identifyWebhook(
  contract: DeliveryContract,
  delivery: ReceivedDelivery,
  reading: PayloadReading,
): Identification {
  const header = contract.convention.eventHeader;
  if (header !== undefined) {
    const value = deliveryHeader(delivery, header);
    return {
      how: 'event-header',
      header,
      value,
      webhook: value === undefined ? undefined : contract.webhooks.get(value),
    };
  }
  const candidates = [...contract.webhooks.values()].filter((webhook) => mediaFor(webhook, reading.mediaType));
  if (candidates.length === 1) return { how: 'only-candidate', webhook: candidates[0]! };
  if (reading.kind !== 'json' || candidates.length === 0) return { how: 'unknown', candidates };
  const accepting: CompiledWebhook[] = [];
  for (const webhook of candidates) {
    const validate = mediaFor(webhook, reading.mediaType)!.validate;
    try {
      if (!validate || validate(reading.value) === true) accepting.push(webhook);
    } catch {
      // Nested past the validator's stack: the payload check says so; no webhook is claimed.
      return { how: 'unknown', candidates };
    }
  }
  if (accepting.length === 1) return { how: 'payload-schema', webhook: accepting[0]! };
  return accepting.length === 0 ? { how: 'no-match', candidates } : { how: 'ambiguous', candidates: accepting };
}

/** The webhook's media type entry for a delivery's content type (a `+json` type falls back to application/json). */
export function mediaFor(webhook: CompiledWebhook, mediaType: string | undefined): DeliveryMediaType | undefined {
  return (
    webhook.mediaTypes.find((candidate) => candidate.mediaType === mediaType) ??
    (mediaType?.endsWith('+json')
      ? webhook.mediaTypes.find((candidate) => candidate.mediaType === 'application/json')
      : undefined)
  );
}

/** The operation a delivery's findings are filed under. */
export function identifiedOperation(identification: Identification): string {
  switch (identification.how) {
    case 'event-header':
      return (
        identification.webhook?.operationId ?? `delivery ${identification.value ?? `(no ${identification.header})`}`
      );
    case 'only-candidate':
    case 'payload-schema':
      return identification.webhook.operationId;
    case 'ambiguous':
      return `delivery (one of ${names(identification.candidates)})`;
    case 'no-match':
      return 'delivery (no documented webhook)';
    case 'unknown':
      return 'delivery (unidentified)';
  }
}

/** How the webhook was told, in words, for the output. */
export function identifiedHow(identification: Identification): string {
  switch (identification.how) {
    case 'event-header':
      return identification.webhook
        ? `by ${identification.header}`
        : `${identification.header} ${identification.value === undefined ? 'is missing' : 'names no webhook of the spec'}`;
    case 'only-candidate':
      return 'the only webhook documenting its content type';
    case 'payload-schema':
      return 'by its payload, which only this webhook accepts';
    case 'ambiguous':
      return `ambiguous: the payload fits ${names(identification.candidates)}; none is claimed`;
    case 'no-match':
      return 'no webhook accepts the payload';
    case 'unknown':
      return 'not identified';
  }
}

/** Webhook names for a message, at most five. */
export function names(webhooks: readonly CompiledWebhook[]): string {
  // A webhook's key is the spec's text: it cannot break the line it is printed in.
  const shown = webhooks.slice(0, 5).map((webhook) => escapeLine(webhook.event));
  return webhooks.length > 5 ? `${shown.join(', ')} and ${webhooks.length - 5} more` : shown.join(', ');
}
