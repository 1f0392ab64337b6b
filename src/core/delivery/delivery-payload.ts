// Reads a delivery's payload: JSON, or a form whose payload field holds the JSON (webhooks seed: content_type).
import { mediaTypeOf } from '../exchange.js';
import { formMediaType, formPayloadField } from './delivery-contract.js';
import { deliveryHeader, type ReceivedDelivery } from './received-delivery.js';

export type PayloadReading =
  | { kind: 'json'; mediaType: string; value: unknown }
  | { kind: 'unreadable'; mediaType: string | undefined; reason: string };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as strict UTF-8 text, or undefined when its bytes are not UTF-8. */
export function bodyText(body: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(body);
  } catch {
    return undefined;
  }
}

export function readPayload(delivery: ReceivedDelivery, text: string | undefined): PayloadReading {
  const mediaType = mediaTypeOf(deliveryHeader(delivery, 'content-type'));
  if (text === undefined) return { kind: 'unreadable', mediaType, reason: 'the body is not valid UTF-8' };
  if (text.length === 0) return { kind: 'unreadable', mediaType, reason: 'the body is empty' };
  if (mediaType === undefined) return { kind: 'unreadable', mediaType, reason: 'the content type is missing' };
  let json = text;
  if (mediaType === formMediaType) {
    const fields = new URLSearchParams(text).getAll(formPayloadField);
    if (fields.length !== 1)
      return {
        kind: 'unreadable',
        mediaType,
        reason: `the form has ${fields.length === 0 ? 'no' : fields.length} ${formPayloadField} field${fields.length === 1 ? '' : 's'}, expected one holding the JSON`,
      };
    json = fields[0]!;
  } else if (mediaType !== 'application/json' && !mediaType.endsWith('+json')) {
    return {
      kind: 'unreadable',
      mediaType,
      reason: `the content type ${JSON.stringify(mediaType)} is neither JSON nor a form`,
    };
  }
  try {
    return { kind: 'json', mediaType, value: JSON.parse(json) };
  } catch (error) {
    return { kind: 'unreadable', mediaType, reason: `the payload is not valid JSON: ${(error as Error).message}` };
  }
}
