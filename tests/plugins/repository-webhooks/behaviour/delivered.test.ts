// The arrival checks: ping_delivered, test_delivered, redelivery_delivered, delivery_record_matches, over what a
// receiver saw and what the API recorded.
import { describe, expect, it } from 'vitest';
import {
  deliveryRecordMatches,
  pingDelivered,
  redeliveryDelivered,
  testDelivered,
  testNotDelivered,
  type ArrivedDelivery,
} from '../../../../src/plugins/repository-webhooks/behaviour/index.js';
import type { Finding } from '../../../../src/core/finding.js';

const op = 'op';
const guid = '4f1c2a52-6a3c-4e43-9d6c-1c2b3a4d5e6f';
const sha256 = `sha256=${'a'.repeat(64)}`;
const arrived = (changes: Partial<ArrivedDelivery> = {}): ArrivedDelivery => ({
  event: 'ping',
  guid,
  status: 200,
  payload: { zen: 'z', hook_id: 5 },
  headers: {
    'x-service-delivery': guid,
    'x-service-event': 'ping',
    'x-service-hook-id': '5',
    'x-hub-signature-256': sha256,
    'user-agent': 'UA',
    'content-type': 'application/json',
  },
  ...changes,
});
const record = (changes: Record<string, unknown> = {}, headers: Record<string, unknown> = {}) => ({
  id: 1,
  guid,
  event: 'ping',
  status_code: 200,
  request: {
    headers: {
      'X-Service-Delivery': guid,
      'X-Service-Event': 'ping',
      'X-Service-Hook-ID': '5',
      'X-Hub-Signature-256': sha256,
      'User-Agent': 'UA',
      'content-type': 'application/json',
      ...headers,
    },
    payload: { zen: 'z', hook_id: 5 },
  },
  ...changes,
});

const cases: [string, { given: () => Finding[]; want: string | undefined }][] = [
  [
    'ping_delivered holds for a ping that arrived',
    { given: () => pingDelivered(op, 'hook B', arrived(), 100), want: undefined },
  ],
  [
    'ping_delivered fails when nothing arrived, with the hint',
    {
      given: () => pingDelivered(op, 'hook B', undefined, 100, 'can the target reach it?'),
      want: 'no delivery arrived at the receiver for hook B within 100 ms of its ping (204): can the target reach it?',
    },
  ],
  [
    'ping_delivered fails for another event',
    {
      given: () => pingDelivered(op, 'hook B', arrived({ event: 'push' }), 100),
      want: 'has X-Service-Event "push", not "ping"',
    },
  ],
  [
    'test_delivered holds for a push',
    { given: () => testDelivered(op, 'hook B', arrived({ event: 'push' }), 100), want: undefined },
  ],
  ['test_delivered fails for a ping', { given: () => testDelivered(op, 'hook B', arrived(), 100), want: 'not "push"' }],
  [
    'test_delivered fails when nothing arrived',
    { given: () => testDelivered(op, 'hook B', undefined, 100), want: 'no delivery arrived' },
  ],
  [
    'test_delivered holds when nothing reached an unsubscribed hook',
    { given: () => testNotDelivered(op, 'hook A', [], 100), want: undefined },
  ],
  [
    'test_delivered fails when a push reached an unsubscribed hook',
    {
      given: () => testNotDelivered(op, 'hook A', [arrived({ event: 'push' })], 100),
      want: '1 delivery (events "push") arrived for hook A, which is not subscribed to push',
    },
  ],
  [
    'redelivery_delivered holds for the same event and payload',
    { given: () => redeliveryDelivered(op, arrived(), arrived({ guid: 'other' }), 100), want: undefined },
  ],
  [
    'redelivery_delivered fails when nothing arrived',
    { given: () => redeliveryDelivered(op, arrived(), undefined, 100), want: 'no delivery arrived' },
  ],
  [
    'redelivery_delivered fails for another payload',
    {
      given: () => redeliveryDelivered(op, arrived(), arrived({ payload: { zen: 'other' } }), 100),
      want: 'another payload',
    },
  ],
  [
    'delivery_record_matches holds for a faithful record, header names in any case',
    { given: () => deliveryRecordMatches(op, record(), arrived()), want: undefined },
  ],
  [
    'delivery_record_matches fails for another guid',
    { given: () => deliveryRecordMatches(op, record({ guid: 'x' }), arrived()), want: 'the record\'s guid is "x"' },
  ],
  [
    'delivery_record_matches fails for another payload',
    {
      given: () => deliveryRecordMatches(op, record({ request: { ...record().request, payload: {} } }), arrived()),
      want: 'request.payload is not the payload that arrived',
    },
  ],
  [
    'delivery_record_matches fails for another status',
    {
      given: () => deliveryRecordMatches(op, record({ status_code: 500 }), arrived()),
      want: 'but the receiver answered 200',
    },
  ],
  [
    'delivery_record_matches fails for a header that did not arrive',
    {
      given: () => deliveryRecordMatches(op, record({}, { 'X-Hub-Signature': `sha1=${'b'.repeat(40)}` }), arrived()),
      want: 'hold X-Hub-Signature, which did not arrive',
    },
  ],
  [
    'delivery_record_matches fails for another signature, without showing it',
    {
      given: () =>
        deliveryRecordMatches(op, record({}, { 'X-Hub-Signature-256': `sha256=${'c'.repeat(64)}` }), arrived()),
      want: 'X-Hub-Signature-256 differs from the one that arrived',
    },
  ],
];

describe('arrival checks', () => {
  it.each(cases)('%s', (_name, { given, want }) => {
    const findings = given();
    if (want === undefined) expect(findings).toEqual([]);
    else {
      expect(findings.map((finding) => finding.message).join('\n')).toContain(want);
      expect(JSON.stringify(findings)).not.toMatch(/sha(1|256)=[0-9a-f]/);
    }
  });
});
