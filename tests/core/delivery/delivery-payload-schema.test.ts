// delivery_payload_schema on a spec of its own, each row a payload as read and the whole findings: which of a
// webhook's media types judges it (the exact one first, then application/json for a +json type), a media type with
// no schema, one the webhook does not document, an event the spec does not document, and a property named "body".
import { describe, expect, it } from 'vitest';
import { compileDeliveryContract } from '../../../src/core/delivery/delivery-contract.js';
import { deliveryPayloadSchema } from '../../../src/core/delivery/delivery-payload-schema.js';
import type { PayloadReading } from '../../../src/core/delivery/delivery-payload.js';
import type { Finding } from '../../../src/core/finding.js';
import { parseSpec } from '../../../src/core/load-spec.js';

const hook = (content: Record<string, unknown>) => ({
  post: { operationId: 'receive', requestBody: { content }, responses: { '200': { description: 'ok' } } },
});
const needs = (name: string) => ({ schema: { type: 'object', required: [name] } });
const spec = {
  openapi: '3.1.0',
  info: { title: 'hooks', version: '1' },
  paths: {},
  webhooks: {
    // The exact media type judges before the application/json fallback.
    both: hook({ 'application/json': needs('a'), 'application/vnd.x+json': needs('b') }),
    // A +json type the webhook does not list is read as its application/json, not as the first type listed.
    jsonSecond: hook({ 'text/plain': {}, 'application/json': needs('a') }),
    plain: hook({ 'text/plain': needs('a') }),
    free: hook({ 'application/json': {} }),
    named: hook({
      'application/json': { schema: { type: 'object', properties: { body: { type: 'integer' } } } },
    }),
  },
};
const contract = compileDeliveryContract(parseSpec('hooks.json', JSON.stringify(spec)));

const json = (mediaType: string, value: unknown): PayloadReading => ({ kind: 'json', mediaType, value });
const finding = (message: string, more: Partial<Finding> = {}): Finding => ({
  check: 'delivery_payload_schema',
  severity: 'error',
  operation: 'receive',
  instancePath: '',
  message,
  ...more,
});
const missing = (name: string) => finding(`payload must have required property "${name}"`, { schemaPath: '/required' });

const rows: [string, string | undefined, PayloadReading, Finding[]][] = [
  ['the exact media type', 'both', json('application/vnd.x+json', { b: 1 }), []],
  ['the exact media type, broken', 'both', json('application/vnd.x+json', { a: 1 }), [missing('b')]],
  ['application/json', 'both', json('application/json', { a: 1 }), []],
  ['a +json type read as application/json', 'jsonSecond', json('application/problem+json', {}), [missing('a')]],
  ['a +json type that holds', 'jsonSecond', json('application/problem+json', { a: 1 }), []],
  [
    'a media type the webhook does not document',
    'plain',
    json('application/json', { a: 1 }),
    [finding('the plain delivery\'s content type "application/json" is not one the spec documents (text/plain)')],
  ],
  [
    'a +json type to a webhook without application/json',
    'plain',
    json('application/x+json', { a: 1 }),
    [finding('the plain delivery\'s content type "application/x+json" is not one the spec documents (text/plain)')],
  ],
  ['a media type with no schema: anything', 'free', json('application/json', [1, 'x']), []],
  [
    'a property named body keeps its name',
    'named',
    json('application/json', { body: 'x' }),
    [finding('/body must be integer', { instancePath: '/body', schemaPath: '/properties/body/type' })],
  ],
  ['an event the spec does not document, an object', undefined, json('application/json', {}), []],
  [
    'an event the spec does not document, null',
    undefined,
    json('application/json', null),
    [finding('the payload is not a JSON object')],
  ],
  [
    'an event the spec does not document, an array',
    undefined,
    json('application/json', []),
    [finding('the payload is not a JSON object')],
  ],
  [
    'a payload that could not be read',
    'both',
    { kind: 'unreadable', mediaType: undefined, reason: 'the body is empty' },
    [finding('the body is empty')],
  ],
];

describe('deliveryPayloadSchema', () => {
  it.each(rows)('%s', (_name, event, reading, findings) => {
    const webhook = event === undefined ? undefined : contract.webhooks.get(event);
    if (event !== undefined) expect(webhook).toBeDefined();
    const identification = {
      how: 'event-header',
      header: 'X-Service-Event',
      value: event ?? 'other',
      webhook,
    } as const;
    expect(deliveryPayloadSchema(contract, 'receive', identification, reading)).toStrictEqual(findings);
  });
});
