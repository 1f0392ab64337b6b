// delivery_payload_schema: the payload validates against its event's schema in the spec's webhooks, under the
// content type it came with (webhooks seed: events 4). An event the spec does not document (the seed does not
// show the complete list) is only held to being a JSON object, as every delivery record's payload is.
import type { Finding } from '../finding.js';
import type { CompiledWebhook, DeliveryContract } from './delivery-contract.js';
import type { PayloadReading } from './delivery-payload.js';

export function deliveryPayloadSchema(
  contract: DeliveryContract,
  operation: string,
  webhook: CompiledWebhook | undefined,
  reading: PayloadReading,
): Finding[] {
  if (reading.kind === 'unreadable') return [finding(operation, reading.reason, '')];
  const value = reading.value;
  if (!webhook) {
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? []
      : [finding(operation, 'the payload is not a JSON object', '')];
  }
  const media =
    webhook.mediaTypes.find((candidate) => candidate.mediaType === reading.mediaType) ??
    (reading.mediaType?.endsWith('+json')
      ? webhook.mediaTypes.find((candidate) => candidate.mediaType === 'application/json')
      : undefined);
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

const finding = (operation: string, message: string, instancePath: string): Finding => ({
  check: 'delivery_payload_schema',
  severity: 'error',
  operation,
  instancePath,
  message,
});
