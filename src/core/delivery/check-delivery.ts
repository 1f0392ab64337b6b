// The core's entry point for deliveries: one received delivery in, findings out (delivery_signature,
// delivery_headers, delivery_payload_schema). Pure apart from hashing: no I/O, no exceptions for a bad delivery.
import type { CheckName, Finding } from '../finding.js';
import type { DeliveryContract } from './delivery-contract.js';
import { deliveryHeaders } from './delivery-headers.js';
import { bodyText, readPayload } from './delivery-payload.js';
import { deliveryPayloadSchema } from './delivery-payload-schema.js';
import { deliverySignature } from './delivery-signature.js';
import { deliveryHeader, type DeliveryExpectation, type ReceivedDelivery } from './received-delivery.js';

export interface DeliveryResult {
  /** The webhook's operationId in the spec, or `delivery <event>` for an event it does not document. */
  operation: string;
  /** X-Service-Event as sent, X-Service-Delivery as sent, X-Service-Hook-ID as sent. */
  event: string | undefined;
  guid: string | undefined;
  hookId: string | undefined;
  /** The payload as JSON, when it could be read. */
  payload: unknown;
  /** The checks that judged this delivery; each held unless a finding names it. */
  applied: CheckName[];
  findings: Finding[];
}

export async function checkDelivery(
  contract: DeliveryContract,
  delivery: ReceivedDelivery,
  expectation: DeliveryExpectation = {},
): Promise<DeliveryResult> {
  const event = deliveryHeader(delivery, 'X-Service-Event');
  const webhook = event === undefined ? undefined : contract.webhooks.get(event);
  const operation = webhook?.operationId ?? `delivery ${event ?? '(no X-Service-Event)'}`;
  const text = bodyText(delivery.body);
  const reading = readPayload(delivery, text);
  const applied: CheckName[] = ['delivery_headers', 'delivery_payload_schema'];
  const findings = [
    ...deliveryHeaders(contract, operation, webhook?.headers ?? contract.commonHeaders, delivery, expectation),
    ...deliveryPayloadSchema(contract, operation, webhook, reading),
  ];
  if (expectation.secret !== undefined) {
    applied.unshift('delivery_signature');
    findings.unshift(...(await deliverySignature(operation, delivery, expectation.secret, text)));
  }
  return {
    operation,
    event,
    guid: deliveryHeader(delivery, 'X-Service-Delivery'),
    hookId: deliveryHeader(delivery, 'X-Service-Hook-ID'),
    payload: reading.kind === 'json' ? reading.value : undefined,
    applied,
    findings,
  };
}
