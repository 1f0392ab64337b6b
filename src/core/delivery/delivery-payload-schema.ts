// delivery_payload_schema: the payload validates against its webhook's requestBody schema, under the content type
// it came with (OpenAPI 3.1 §4.8.13 Request Body Object: content by media type; webhooks seed: events 4). An event
// the spec does not document, named by the event header (the seed does not show the complete list), is only held
// to being a JSON object, as every delivery record's payload is. Told by its payload (identify-webhook.ts), a
// delivery no webhook accepts fails, naming each candidate's first error; an ambiguous one holds for each.
import type { Finding } from '../finding.js';
import type { CompiledWebhook, DeliveryContract } from './delivery-contract.js';
import type { PayloadReading } from './delivery-payload.js';
import { mediaFor, type Identification } from './identify-webhook.js';

export function deliveryPayloadSchema(
  contract: DeliveryContract,
  operation: string,
  identification: Identification,
  reading: PayloadReading,
): Finding[] {
  if (reading.kind === 'unreadable') return [finding(operation, reading.reason, '')];
  const value = reading.value;
  switch (identification.how) {
    case 'event-header':
    case 'only-candidate':
    case 'payload-schema':
      break;
    case 'ambiguous':
      return [];
    case 'no-match':
      return [noMatch(contract, operation, identification.candidates, reading.mediaType, value)];
    case 'unknown':
      return identification.candidates.length === 0
        ? [
            finding(
              operation,
              `no webhook of the spec documents the content type ${JSON.stringify(reading.mediaType)}`,
              '',
            ),
          ]
        : [finding(operation, 'could not check this payload: it is nested too deeply', '')];
  }
  const webhook = identification.webhook;
  if (!webhook) {
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? []
      : [finding(operation, 'the payload is not a JSON object', '')];
  }
  const media = mediaFor(webhook, reading.mediaType);
  if (!media)
    return [
      finding(
        operation,
        `the ${webhook.event} delivery's content type ${JSON.stringify(reading.mediaType)} is not one the spec documents (${webhook.mediaTypes.map((m) => m.mediaType).join(', ')})`,
        '',
      ),
    ];
  if (!media.validate) return [];
  let errors: ReturnType<typeof contract.errorsOf>;
  try {
    errors = contract.errorsOf(media.validate, value);
  } catch (error) {
    // A hostile payload nested thousands deep overflows the recursive validator: reported, not thrown.
    return [
      finding(
        operation,
        `could not check this payload: ${error instanceof RangeError ? 'it is nested too deeply' : (error as Error).message}`,
        '',
      ),
    ];
  }
  return errors.map((error) => ({
    ...finding(operation, error.message.replace(/^body\b/, 'payload'), error.instancePath),
    schemaPath: error.schemaPath,
  }));
}

/** One finding for a payload no candidate accepts: each candidate (at most five) with its first error. */
function noMatch(
  contract: DeliveryContract,
  operation: string,
  candidates: CompiledWebhook[],
  mediaType: string,
  value: unknown,
): Finding {
  const reasons = candidates.slice(0, 5).map((webhook) => {
    const validate = mediaFor(webhook, mediaType)?.validate;
    const first = validate ? contract.errorsOf(validate, value)[0] : undefined;
    const reason = first ? `${first.instancePath || '/'} ${first.message.replace(/^body\b/, 'payload')}` : 'refused';
    return `${webhook.event} (${reason})`;
  });
  return finding(
    operation,
    `the payload matches no webhook documenting ${mediaType}: ${reasons.join('; ')}${candidates.length > 5 ? ` and ${candidates.length - 5} more` : ''}`,
    '',
  );
}

const finding = (operation: string, message: string, instancePath: string): Finding => ({
  check: 'delivery_payload_schema',
  severity: 'error',
  operation,
  instancePath,
  message,
});
