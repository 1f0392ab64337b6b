// The behavioural rules, one table: each row a call and the whole findings it must give (check, severity,
// operation, instancePath, message, expected, actual), so that a finding's contents are held and not only whether the
// rule fired; boundaries (a 400 refusal, a 299 control) and every failure path of each rule have a row.
//
// Mutants left alive on purpose, each equivalent (npm run test:mutation lists them as survivors):
// - delivery-request-headers.ts and delivery-record-matches.ts, `typeof detail === 'object'` → true: a record that is
//   a string or a number then reads its fields off the primitive, which has none, exactly as off `{}` (rows above: 42,
//   'text'); null is refused by the `!== null` beside it (rows: null).
// - the same files, `request.headers !== null` → true: null then reaches `!raw`, which refuses it just the same (row:
//   headers null); a string or an array is refused by the other guards (rows: a string, an array).
// - delivery-record-matches.ts, `sent !== undefined` → true in the "both match" test: with `sent` undefined,
//   `String(kept) === sent` is false anyway, so the header is reported as before.
import { describe, expect, it } from 'vitest';
import type { ArrivedDelivery } from '../../../../src/plugins/repository-webhooks/behaviour/arrived-delivery.js';
import {
  addEvents,
  configOnly,
  deletedHook404,
  deliveriesCursor,
  deliveryRecordMatches,
  deliveryRequestHeaders,
  eventsDefaultPush,
  eventsReplace,
  hookAddressable,
  pageParameter,
  perPageCapped,
  perPageRespected,
  pingDelivered,
  pingDelivery,
  redeliveryDelivered,
  redeliveryFlag,
  removeEvents,
  requestRefused,
  secretMasked,
  secretRemovedUnlessResent,
  sharedConfigRefused,
  testDelivered,
  testNotDelivered,
  testPushDelivery,
  testSkipsUnsubscribed,
} from '../../../../src/plugins/repository-webhooks/behaviour/index.js';
import type { Finding } from '../../../../src/core/finding.js';

import { guid, op, withHeaders } from './delivery-records.js';
/** The headers of a delivery as the receiver saw them (lower case), and the record of it that matches. */
const sent: Record<string, string | string[] | undefined> = {
  'x-service-delivery': guid,
  'x-service-event': 'ping',
  'x-service-hook-id': '5',
  'x-hub-signature-256': `sha256=${'a'.repeat(64)}`,
  'x-hub-signature': `sha1=${'b'.repeat(40)}`,
  'user-agent': 'Service-Hookshot/1',
  'content-type': 'application/json',
  'x-other': 'not one the seed names',
};
const arrived = (
  fields: Partial<ArrivedDelivery> = {},
  headers: Record<string, string | string[] | undefined> = {},
): ArrivedDelivery => ({
  event: 'ping',
  guid,
  headers: Object.fromEntries(Object.entries({ ...sent, ...headers }).filter(([, value]) => value !== undefined)),
  payload: { zen: 'z' },
  status: 200,
  ...fields,
});
const record = (changes: Record<string, unknown> = {}) => {
  const headers: Record<string, unknown> = {
    'X-Service-Delivery': guid,
    'X-Service-Event': 'ping',
    'X-Service-Hook-ID': '5',
    'X-Hub-Signature-256': `sha256=${'a'.repeat(64)}`,
    'X-Hub-Signature': `sha1=${'b'.repeat(40)}`,
    'User-Agent': 'Service-Hookshot/1',
    'Content-Type': 'application/json',
    ...changes,
  };
  for (const [name, value] of Object.entries(headers)) if (value === undefined) delete headers[name];
  return { id: 1, guid, event: 'ping', status_code: 200, request: { headers, payload: { zen: 'z' } } };
};

const cases: [string, () => Finding[], Finding[]][] = [
  ['auth_required: a 400 refusal counts', () => requestRefused('auth_required', op, 'without X-API-KEY', 200, 400), []],
  ['auth_required: a 499 refusal counts', () => requestRefused('auth_required', op, 'without X-API-KEY', 299, 499), []],
  [
    'auth_required: a 2xx answer',
    () => requestRefused('auth_required', op, 'without X-API-KEY', 200, 200),
    [
      {
        check: 'auth_required',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'a request without X-API-KEY must not succeed, got 200',
        expected: '4xx',
        actual: 200,
      },
    ],
  ],
  [
    'auth_required: a 299 answer',
    () => requestRefused('auth_required', op, 'without X-API-KEY', 204, 299),
    [
      {
        check: 'auth_required',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'a request without X-API-KEY must not succeed, got 299',
        expected: '4xx',
        actual: 299,
      },
    ],
  ],
  [
    'api_version_enforced: a 500 is no refusal',
    () => requestRefused('api_version_enforced', op, 'with X-API-VERSION 2.3', 200, 500),
    [
      {
        check: 'api_version_enforced',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message:
          'a request with X-API-VERSION 2.3 must be refused with a 4xx, got 500 (a server error is not a refusal)',
        expected: '4xx',
        actual: 500,
      },
    ],
  ],
  [
    'api_version_enforced: a 399 is no refusal',
    () => requestRefused('api_version_enforced', op, 'with X-API-VERSION 2.3', 200, 399),
    [
      {
        check: 'api_version_enforced',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'a request with X-API-VERSION 2.3 must be refused with a 4xx, got 399',
        expected: '4xx',
        actual: 399,
      },
    ],
  ],
  [
    'auth_required: a 302 is no refusal',
    () => requestRefused('auth_required', op, 'without X-API-KEY', 200, 302),
    [
      {
        check: 'auth_required',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'a request without X-API-KEY must be refused with a 4xx, got 302',
        expected: '4xx',
        actual: 302,
      },
    ],
  ],
  [
    'auth_required: the control answered 199',
    () => requestRefused('auth_required', op, 'without X-API-KEY', 199, 401),
    [
      {
        check: 'auth_required',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message:
          'could not be exercised: the control request (with X-API-KEY and X-API-VERSION 2.4) answered 199, so a refusal of the request without X-API-KEY would prove nothing',
        expected: 'a 2xx control',
        actual: 199,
      },
    ],
  ],
  [
    'auth_required: the control answered 300',
    () => requestRefused('auth_required', op, 'without X-API-KEY', 300, 401),
    [
      {
        check: 'auth_required',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message:
          'could not be exercised: the control request (with X-API-KEY and X-API-VERSION 2.4) answered 300, so a refusal of the request without X-API-KEY would prove nothing',
        expected: 'a 2xx control',
        actual: 300,
      },
    ],
  ],
  [
    'delivery_request_headers: every header wrong at once',
    () =>
      deliveryRequestHeaders(op, 5, true, {
        guid,
        event: 'ping',
        request: {
          headers: {
            'x-service-delivery': 'other',
            'X-Service-Event': 'push',
            'X-Service-Hook-ID': 6,
            'X-Hub-Signature-256': 'xsha256=' + 'a'.repeat(64),
            'X-Hub-Signature': 'sha1=' + 'b'.repeat(40) + 'c',
          },
        },
      }),
    [
      {
        check: 'delivery_request_headers',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/X-Service-Delivery',
        message: 'X-Service-Delivery is "other", expected "4f1c2a52-6a3c-4e43-9d6c-1c2b3a4d5e6f"',
        expected: '4f1c2a52-6a3c-4e43-9d6c-1c2b3a4d5e6f',
        actual: 'other',
      },
      {
        check: 'delivery_request_headers',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/X-Service-Event',
        message: 'X-Service-Event is "push", expected "ping"',
        expected: 'ping',
        actual: 'push',
      },
      {
        check: 'delivery_request_headers',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/X-Service-Hook-ID',
        message: 'X-Service-Hook-ID is 6, expected 5',
        expected: 5,
        actual: 6,
      },
      {
        check: 'delivery_request_headers',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/X-Hub-Signature-256',
        message: 'X-Hub-Signature-256 does not have the form ^sha256=[0-9a-f]{64}$',
        expected: '^sha256=[0-9a-f]{64}$',
        actual: 'a malformed signature',
      },
      {
        check: 'delivery_request_headers',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/X-Hub-Signature',
        message: 'X-Hub-Signature does not have the form ^sha1=[0-9a-f]{40}$',
        expected: '^sha1=[0-9a-f]{40}$',
        actual: 'a malformed signature',
      },
    ],
  ],
  [
    'delivery_request_headers: headers missing, with a secret',
    () => deliveryRequestHeaders(op, 5, true, { guid, event: 'ping', request: { headers: {} } }),
    [
      {
        check: 'delivery_request_headers',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/X-Service-Delivery',
        message: 'X-Service-Delivery is missing from the recorded request headers',
        expected: '4f1c2a52-6a3c-4e43-9d6c-1c2b3a4d5e6f',
        actual: null,
      },
      {
        check: 'delivery_request_headers',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/X-Service-Event',
        message: 'X-Service-Event is missing from the recorded request headers',
        expected: 'ping',
        actual: null,
      },
      {
        check: 'delivery_request_headers',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/X-Service-Hook-ID',
        message: 'X-Service-Hook-ID is missing from the recorded request headers',
        expected: 5,
        actual: null,
      },
      {
        check: 'delivery_request_headers',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/X-Hub-Signature-256',
        message: 'X-Hub-Signature-256 is missing, but the hook has a secret',
        expected: '^sha256=[0-9a-f]{64}$',
        actual: null,
      },
      {
        check: 'delivery_request_headers',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/X-Hub-Signature',
        message: 'X-Hub-Signature is missing, but the hook has a secret',
        expected: '^sha1=[0-9a-f]{40}$',
        actual: null,
      },
    ],
  ],
  [
    'delivery_request_headers: headers missing, without a secret',
    () => deliveryRequestHeaders(op, 5, false, { guid, event: 'ping', request: { headers: {} } }),
    [
      {
        check: 'delivery_request_headers',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/X-Service-Delivery',
        message: 'X-Service-Delivery is missing from the recorded request headers',
        expected: '4f1c2a52-6a3c-4e43-9d6c-1c2b3a4d5e6f',
        actual: null,
      },
      {
        check: 'delivery_request_headers',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/X-Service-Event',
        message: 'X-Service-Event is missing from the recorded request headers',
        expected: 'ping',
        actual: null,
      },
      {
        check: 'delivery_request_headers',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/X-Service-Hook-ID',
        message: 'X-Service-Hook-ID is missing from the recorded request headers',
        expected: 5,
        actual: null,
      },
    ],
  ],
  [
    'delivery_request_headers: signatures of the right form in upper case names',
    () =>
      deliveryRequestHeaders(op, 5, true, {
        guid,
        event: 'ping',
        request: {
          headers: {
            'X-SERVICE-DELIVERY': guid,
            'X-SERVICE-EVENT': 'ping',
            'X-SERVICE-HOOK-ID': '5',
            'X-HUB-SIGNATURE-256': 'sha256=' + 'a'.repeat(64),
            'X-HUB-SIGNATURE': 'sha1=' + 'b'.repeat(40),
          },
        },
      }),
    [],
  ],
  [
    'delivery_request_headers: signatures with a prefix before sha',
    () =>
      deliveryRequestHeaders(
        op,
        5,
        true,
        withHeaders({
          'X-Hub-Signature-256': ' sha256=' + 'a'.repeat(64),
          'X-Hub-Signature': 'xsha1=' + 'b'.repeat(40),
        }),
      ),
    [
      {
        check: 'delivery_request_headers',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/X-Hub-Signature-256',
        message: 'X-Hub-Signature-256 does not have the form ^sha256=[0-9a-f]{64}$',
        expected: '^sha256=[0-9a-f]{64}$',
        actual: 'a malformed signature',
      },
      {
        check: 'delivery_request_headers',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/X-Hub-Signature',
        message: 'X-Hub-Signature does not have the form ^sha1=[0-9a-f]{40}$',
        expected: '^sha1=[0-9a-f]{40}$',
        actual: 'a malformed signature',
      },
    ],
  ],
  [
    'delivery_request_headers: signatures with a tail',
    () =>
      deliveryRequestHeaders(
        op,
        5,
        true,
        withHeaders({
          'X-Hub-Signature-256': 'sha256=' + 'a'.repeat(64) + '0',
          'X-Hub-Signature': 'sha1=' + 'b'.repeat(40) + ' ',
        }),
      ),
    [
      {
        check: 'delivery_request_headers',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/X-Hub-Signature-256',
        message: 'X-Hub-Signature-256 does not have the form ^sha256=[0-9a-f]{64}$',
        expected: '^sha256=[0-9a-f]{64}$',
        actual: 'a malformed signature',
      },
      {
        check: 'delivery_request_headers',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/X-Hub-Signature',
        message: 'X-Hub-Signature does not have the form ^sha1=[0-9a-f]{40}$',
        expected: '^sha1=[0-9a-f]{40}$',
        actual: 'a malformed signature',
      },
    ],
  ],
  [
    'delivery_request_headers: upper-case hex',
    () => deliveryRequestHeaders(op, 5, true, withHeaders({ 'X-Hub-Signature-256': 'sha256=' + 'A'.repeat(64) })),
    [
      {
        check: 'delivery_request_headers',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/X-Hub-Signature-256',
        message: 'X-Hub-Signature-256 does not have the form ^sha256=[0-9a-f]{64}$',
        expected: '^sha256=[0-9a-f]{64}$',
        actual: 'a malformed signature',
      },
    ],
  ],
  [
    'delivery_request_headers: a record that is no object',
    () => deliveryRequestHeaders(op, 5, true, 'text'),
    [
      {
        check: 'delivery_request_headers',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers',
        message: 'the delivery record has no request.headers object',
        expected: 'an object of headers',
        actual: null,
      },
    ],
  ],
  [
    'delivery_request_headers: null',
    () => deliveryRequestHeaders(op, 5, true, null),
    [
      {
        check: 'delivery_request_headers',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers',
        message: 'the delivery record has no request.headers object',
        expected: 'an object of headers',
        actual: null,
      },
    ],
  ],
  [
    'delivery_request_headers: request headers as an array',
    () => deliveryRequestHeaders(op, 5, true, { guid, request: { headers: [] } }),
    [
      {
        check: 'delivery_request_headers',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers',
        message: 'the delivery record has no request.headers object',
        expected: 'an object of headers',
        actual: null,
      },
    ],
  ],
  [
    'delivery_request_headers: request headers a string (of header lines)',
    () => deliveryRequestHeaders(op, 5, true, { guid, request: { headers: 'X-Service-Event: ping' } }),
    [
      {
        check: 'delivery_request_headers',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers',
        message: 'the delivery record has no request.headers object',
        expected: 'an object of headers',
        actual: null,
      },
    ],
  ],
  [
    'delivery_request_headers: request headers null',
    () => deliveryRequestHeaders(op, 5, true, { guid, request: { headers: null } }),
    [
      {
        check: 'delivery_request_headers',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers',
        message: 'the delivery record has no request.headers object',
        expected: 'an object of headers',
        actual: null,
      },
    ],
  ],
  [
    'delivery_request_headers: request null',
    () => deliveryRequestHeaders(op, 5, true, { guid, request: null }),
    [
      {
        check: 'delivery_request_headers',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers',
        message: 'the delivery record has no request.headers object',
        expected: 'an object of headers',
        actual: null,
      },
    ],
  ],
  ['delivery_record_matches: a record that matches', () => deliveryRecordMatches(op, record(), arrived()), []],
  [
    'delivery_record_matches: guid, event and status differ',
    () => deliveryRecordMatches(op, { ...record(), guid: 'g2', event: 'push', status_code: 500 }, arrived()),
    [
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/guid',
        message: 'the record\'s guid is "g2", but X-Service-Delivery arrived as "4f1c2a52-6a3c-4e43-9d6c-1c2b3a4d5e6f"',
        expected: '4f1c2a52-6a3c-4e43-9d6c-1c2b3a4d5e6f',
        actual: 'g2',
      },
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/event',
        message: 'the record\'s event is "push", but X-Service-Event arrived as "ping"',
        expected: 'ping',
        actual: 'push',
      },
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/status_code',
        message: "the record's status_code is 500, but the receiver answered 200",
        expected: 200,
        actual: 500,
      },
    ],
  ],
  [
    'delivery_record_matches: a record without guid, event or status',
    () => deliveryRecordMatches(op, { request: record().request }, arrived()),
    [
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/guid',
        message: 'the record\'s guid is null, but X-Service-Delivery arrived as "4f1c2a52-6a3c-4e43-9d6c-1c2b3a4d5e6f"',
        expected: '4f1c2a52-6a3c-4e43-9d6c-1c2b3a4d5e6f',
        actual: null,
      },
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/event',
        message: 'the record\'s event is null, but X-Service-Event arrived as "ping"',
        expected: 'ping',
        actual: null,
      },
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/status_code',
        message: "the record's status_code is null, but the receiver answered 200",
        expected: 200,
        actual: null,
      },
    ],
  ],
  [
    'delivery_record_matches: nothing arrived of the guid or event',
    () => deliveryRecordMatches(op, record(), arrived({ guid: undefined, event: undefined })),
    [
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/guid',
        message: 'the record\'s guid is "4f1c2a52-6a3c-4e43-9d6c-1c2b3a4d5e6f", but X-Service-Delivery arrived as null',
        expected: null,
        actual: '4f1c2a52-6a3c-4e43-9d6c-1c2b3a4d5e6f',
      },
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/event',
        message: 'the record\'s event is "ping", but X-Service-Event arrived as null',
        expected: null,
        actual: 'ping',
      },
    ],
  ],
  [
    'delivery_record_matches: headers the record lacks, holds extra, or changed',
    () =>
      deliveryRecordMatches(
        op,
        record({
          'X-Service-Hook-ID': undefined,
          'User-Agent': 'other/1',
          'X-Service-Hook-Installation-Target-ID': '9',
          'X-Hub-Signature-256': 'sha256=' + 'f'.repeat(64),
        }),
        arrived(),
      ),
    [
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/X-Service-Hook-ID',
        message: "the record's request.headers lack X-Service-Hook-ID, which arrived",
        expected: '5',
        actual: null,
      },
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/X-Service-Hook-Installation-Target-ID',
        message: "the record's request.headers hold X-Service-Hook-Installation-Target-ID, which did not arrive",
        expected: null,
        actual: '9',
      },
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/X-Hub-Signature-256',
        message: "the record's X-Hub-Signature-256 differs from the one that arrived",
        expected: 'a signature',
        actual: 'a signature',
      },
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/User-Agent',
        message: 'the record\'s User-Agent is "other/1", but "Service-Hookshot/1" arrived',
        expected: 'Service-Hookshot/1',
        actual: 'other/1',
      },
    ],
  ],
  [
    'delivery_record_matches: a signature the record lacks, and one it holds that did not arrive',
    () =>
      deliveryRecordMatches(
        op,
        record({ 'X-Hub-Signature-256': undefined }),
        arrived({}, { 'x-hub-signature': undefined }),
      ),
    [
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/X-Hub-Signature-256',
        message: "the record's request.headers lack X-Hub-Signature-256, which arrived",
        expected: 'a signature',
        actual: null,
      },
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/X-Hub-Signature',
        message: "the record's request.headers hold X-Hub-Signature, which did not arrive",
        expected: null,
        actual: 'a signature',
      },
    ],
  ],
  [
    'delivery_record_matches: a header that arrived twice, recorded joined',
    () => deliveryRecordMatches(op, record({ 'User-Agent': 'a, b' }), arrived({}, { 'user-agent': ['a', 'b'] })),
    [],
  ],
  [
    'delivery_record_matches: a header recorded as a number',
    () => deliveryRecordMatches(op, record({ 'X-Service-Hook-ID': 5 }), arrived()),
    [],
  ],
  [
    'delivery_record_matches: no request headers in the record',
    () => deliveryRecordMatches(op, { ...record(), request: { payload: { zen: 'z' } } }, arrived()),
    [
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers',
        message: 'the record has no request.headers object',
      },
    ],
  ],
  [
    'delivery_record_matches: request headers as an array',
    () => deliveryRecordMatches(op, { ...record(), request: { headers: [], payload: { zen: 'z' } } }, arrived()),
    [
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers',
        message: 'the record has no request.headers object',
      },
    ],
  ],
  [
    'delivery_record_matches: another payload',
    () =>
      deliveryRecordMatches(
        op,
        { ...record(), request: { ...record().request, payload: { zen: 'other' } } },
        arrived(),
      ),
    [
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/payload',
        message: "the record's request.payload is not the payload that arrived",
      },
    ],
  ],
  [
    'delivery_record_matches: a payload that could not be read',
    () => deliveryRecordMatches(op, record(), arrived({ payload: undefined })),
    [
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/payload',
        message: 'the payload that arrived could not be read, so the record cannot be compared with it',
      },
    ],
  ],
  [
    'delivery_record_matches: a record that is no object',
    () => deliveryRecordMatches(op, 42, arrived()),
    [
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/guid',
        message: 'the record\'s guid is null, but X-Service-Delivery arrived as "4f1c2a52-6a3c-4e43-9d6c-1c2b3a4d5e6f"',
        expected: '4f1c2a52-6a3c-4e43-9d6c-1c2b3a4d5e6f',
        actual: null,
      },
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/event',
        message: 'the record\'s event is null, but X-Service-Event arrived as "ping"',
        expected: 'ping',
        actual: null,
      },
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers',
        message: 'the record has no request.headers object',
      },
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/payload',
        message: "the record's request.payload is not the payload that arrived",
      },
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/status_code',
        message: "the record's status_code is null, but the receiver answered 200",
        expected: 200,
        actual: null,
      },
    ],
  ],
  [
    'delivery_record_matches: request.headers a string, then null',
    () => [
      ...deliveryRecordMatches(
        op,
        { ...record(), request: { ...record().request, headers: 'x-service-event: ping' } },
        arrived(),
      ),
      ...deliveryRecordMatches(op, { ...record(), request: { ...record().request, headers: null } }, arrived()),
    ],
    [
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers',
        message: 'the record has no request.headers object',
      },
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers',
        message: 'the record has no request.headers object',
      },
    ],
  ],
  [
    'delivery_record_matches: a header that arrived as the text "undefined", not recorded',
    () => deliveryRecordMatches(op, record({ 'User-Agent': undefined }), arrived({}, { 'user-agent': 'undefined' })),
    [
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers/User-Agent',
        message: "the record's request.headers lack User-Agent, which arrived",
        expected: 'undefined',
        actual: null,
      },
    ],
  ],
  [
    'delivery_record_matches: request null',
    () => deliveryRecordMatches(op, { ...record(), request: null }, arrived()),
    [
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/headers',
        message: 'the record has no request.headers object',
      },
      {
        check: 'delivery_record_matches',
        severity: 'error',
        operation: 'op',
        instancePath: '/request/payload',
        message: "the record's request.payload is not the payload that arrived",
      },
    ],
  ],
  [
    'ping_delivered: nothing arrived, with a hint',
    () => pingDelivered(op, 'hook B (5)', undefined, 300, 'is the receiver reachable?'),
    [
      {
        check: 'ping_delivered',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message:
          'no delivery arrived at the receiver for hook B (5) within 300 ms of its ping (204): is the receiver reachable?',
        expected: {
          event: 'ping',
        },
        actual: null,
      },
    ],
  ],
  [
    'ping_delivered: nothing arrived, without a hint',
    () => pingDelivered(op, 'hook B (5)', undefined, 300),
    [
      {
        check: 'ping_delivered',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'no delivery arrived at the receiver for hook B (5) within 300 ms of its ping (204)',
        expected: {
          event: 'ping',
        },
        actual: null,
      },
    ],
  ],
  [
    'ping_delivered: a push arrived',
    () => pingDelivered(op, 'hook B (5)', arrived({ event: 'push' }), 300),
    [
      {
        check: 'ping_delivered',
        severity: 'error',
        operation: 'op',
        instancePath: '/headers/X-Service-Event',
        message: 'the delivery that arrived for hook B (5) after its ping has X-Service-Event "push", not "ping"',
        expected: 'ping',
        actual: 'push',
      },
    ],
  ],
  [
    'ping_delivered: no event header',
    () => pingDelivered(op, 'hook B (5)', arrived({ event: undefined }), 300),
    [
      {
        check: 'ping_delivered',
        severity: 'error',
        operation: 'op',
        instancePath: '/headers/X-Service-Event',
        message: 'the delivery that arrived for hook B (5) after its ping has X-Service-Event null, not "ping"',
        expected: 'ping',
        actual: null,
      },
    ],
  ],
  ['ping_delivered: a ping', () => pingDelivered(op, 'hook B (5)', arrived(), 300), []],
  [
    'test_delivered: nothing arrived',
    () => testDelivered(op, 'hook B (5)', undefined, 300),
    [
      {
        check: 'test_delivered',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message:
          'no delivery arrived at the receiver for hook B (5) (subscribed to push) within 300 ms of its test (204)',
        expected: {
          event: 'push',
        },
        actual: null,
      },
    ],
  ],
  [
    'test_delivered: a ping arrived',
    () => testDelivered(op, 'hook B (5)', arrived(), 300),
    [
      {
        check: 'test_delivered',
        severity: 'error',
        operation: 'op',
        instancePath: '/headers/X-Service-Event',
        message: 'the delivery that arrived for hook B (5) after its test has X-Service-Event "ping", not "push"',
        expected: 'push',
        actual: 'ping',
      },
    ],
  ],
  [
    'test_delivered: no event header',
    () => testDelivered(op, 'hook B (5)', arrived({ event: undefined }), 300),
    [
      {
        check: 'test_delivered',
        severity: 'error',
        operation: 'op',
        instancePath: '/headers/X-Service-Event',
        message: 'the delivery that arrived for hook B (5) after its test has X-Service-Event null, not "push"',
        expected: 'push',
        actual: null,
      },
    ],
  ],
  ['test_delivered: a push', () => testDelivered(op, 'hook B (5)', arrived({ event: 'push' }), 300), []],
  ['test_delivered (not subscribed): nothing arrived', () => testNotDelivered(op, 'hook A (4)', [], 300), []],
  [
    'test_delivered (not subscribed): one arrived',
    () => testNotDelivered(op, 'hook A (4)', [arrived({ event: 'push' })], 300),
    [
      {
        check: 'test_delivered',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message:
          '1 delivery (events "push") arrived for hook A (4), which is not subscribed to push, within 300 ms of its test',
        expected: 'no delivery',
        actual: ['push'],
      },
    ],
  ],
  [
    'test_delivered (not subscribed): two arrived',
    () => testNotDelivered(op, 'hook A (4)', [arrived({ event: 'push' }), arrived({ event: undefined })], 300),
    [
      {
        check: 'test_delivered',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message:
          '2 deliveries (events "push", null) arrived for hook A (4), which is not subscribed to push, within 300 ms of its test',
        expected: 'no delivery',
        actual: ['push', null],
      },
    ],
  ],
  [
    'redelivery_delivered: nothing arrived',
    () => redeliveryDelivered(op, arrived(), undefined, 300),
    [
      {
        check: 'redelivery_delivered',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'no delivery arrived at the receiver within 300 ms of the redelivery (202)',
        expected: {
          event: 'ping',
        },
        actual: null,
      },
    ],
  ],
  [
    'redelivery_delivered: nothing arrived after an original without event',
    () => redeliveryDelivered(op, arrived({ event: undefined }), undefined, 300),
    [
      {
        check: 'redelivery_delivered',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'no delivery arrived at the receiver within 300 ms of the redelivery (202)',
        expected: {
          event: null,
        },
        actual: null,
      },
    ],
  ],
  [
    'redelivery_delivered: another event and payload',
    () => redeliveryDelivered(op, arrived(), arrived({ event: 'push', payload: { zen: 'other' } }), 300),
    [
      {
        check: 'redelivery_delivered',
        severity: 'error',
        operation: 'op',
        instancePath: '/headers/X-Service-Event',
        message: 'the redelivery arrived with X-Service-Event "push", the original with "ping"',
        expected: 'ping',
        actual: 'push',
      },
      {
        check: 'redelivery_delivered',
        severity: 'error',
        operation: 'op',
        instancePath: '/payload',
        message: 'the redelivery arrived with another payload than the delivery it repeats',
      },
    ],
  ],
  [
    'redelivery_delivered: no event either time',
    () => redeliveryDelivered(op, arrived({ event: undefined }), arrived({ event: undefined }), 300),
    [],
  ],
  ['redelivery_delivered: the same again', () => redeliveryDelivered(op, arrived(), arrived({ guid: 'g9' }), 300), []],
  [
    'per_page_respected: the list failed',
    () => perPageRespected(op, 1, 500, undefined, 3),
    [
      {
        check: 'per_page_respected',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'the list with per_page=1 answered 500',
        expected: '2xx',
        actual: 500,
      },
    ],
  ],
  [
    'per_page_respected: the list answered 199',
    () => perPageRespected(op, 1, 199, [], 3),
    [
      {
        check: 'per_page_respected',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'the list with per_page=1 answered 199',
        expected: '2xx',
        actual: 199,
      },
    ],
  ],
  [
    'per_page_respected: not an array',
    () => perPageRespected(op, 1, 200, {}, 3),
    [
      {
        check: 'per_page_respected',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'the list with per_page=1 is not an array',
        expected: 'an array',
      },
    ],
  ],
  [
    'per_page_respected: a short page',
    () => perPageRespected(op, 2, 200, [1], 3),
    [
      {
        check: 'per_page_respected',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'per_page=2 with 3 items to list must give a page of 2, got 1',
        expected: 2,
        actual: 1,
      },
    ],
  ],
  [
    'per_page_respected: a long page',
    () => perPageRespected(op, 1, 200, [1, 2], 3),
    [
      {
        check: 'per_page_respected',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'per_page=1 with 3 items to list must give a page of 1, got 2',
        expected: 1,
        actual: 2,
      },
    ],
  ],
  ['per_page_respected: fewer available than per_page', () => perPageRespected(op, 5, 200, [1, 2], 2), []],
  ['per_page_respected: exact', () => perPageRespected(op, 2, 200, [1, 2], 3), []],
  [
    'per_page_capped: the control failed',
    () => perPageCapped(op, 404, 400, undefined),
    [
      {
        check: 'per_page_capped',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message:
          'could not be exercised: the control list with per_page=1 answered 404, so a refusal of per_page=101 would prove nothing',
        expected: 'a 2xx control',
        actual: 404,
      },
    ],
  ],
  ['per_page_capped: 400', () => perPageCapped(op, 200, 400, undefined), []],
  ['per_page_capped: 422', () => perPageCapped(op, 200, 422, undefined), []],
  ['per_page_capped: 100 items', () => perPageCapped(op, 200, 200, Array(100).fill(1)), []],
  [
    'per_page_capped: 101 items',
    () => perPageCapped(op, 200, 200, Array(101).fill(1)),
    [
      {
        check: 'per_page_capped',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'per_page=101 must be rejected (400/422) or capped at 100, but the page holds 101 items',
        expected: '400 or 422, or at most 100 items',
        actual: 200,
      },
    ],
  ],
  [
    'per_page_capped: no array',
    () => perPageCapped(op, 200, 200, {}),
    [
      {
        check: 'per_page_capped',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'per_page=101 must be rejected (400/422) or capped at 100, but the page holds no array',
        expected: '400 or 422, or at most 100 items',
        actual: 200,
      },
    ],
  ],
  [
    'per_page_capped: a 404',
    () => perPageCapped(op, 200, 404, undefined),
    [
      {
        check: 'per_page_capped',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message:
          'per_page=101 must be rejected with 400 or 422, or capped at 100; got 404, which says nothing about per_page',
        expected: '400 or 422, or at most 100 items',
        actual: 404,
      },
    ],
  ],
  [
    'per_page_capped: a 401',
    () => perPageCapped(op, 299, 401, undefined),
    [
      {
        check: 'per_page_capped',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message:
          'per_page=101 must be rejected with 400 or 422, or capped at 100; got 401, which says nothing about per_page',
        expected: '400 or 422, or at most 100 items',
        actual: 401,
      },
    ],
  ],
  [
    'page_parameter: failed',
    () => pageParameter(op, [{ id: 1 }], 503, undefined),
    [
      {
        check: 'page_parameter',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'page=2 with per_page=1 answered 503',
        expected: '2xx',
        actual: 503,
      },
    ],
  ],
  [
    'page_parameter: two on page 2',
    () => pageParameter(op, [{ id: 1 }], 200, [{ id: 2 }, { id: 3 }]),
    [
      {
        check: 'page_parameter',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'page=2 with per_page=1 must hold one hook when there are at least two, got 2',
        expected: 1,
        actual: 2,
      },
    ],
  ],
  [
    'page_parameter: none on page 2',
    () => pageParameter(op, [{ id: 1 }], 200, []),
    [
      {
        check: 'page_parameter',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'page=2 with per_page=1 must hold one hook when there are at least two, got 0',
        expected: 1,
        actual: 0,
      },
    ],
  ],
  [
    'page_parameter: the same hook',
    () => pageParameter(op, [{ id: 1 }], 200, [{ id: 1 }]),
    [
      {
        check: 'page_parameter',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'page=2 holds the same hook as page 1 (id 1): page is ignored',
        actual: 1,
      },
    ],
  ],
  ['page_parameter: another hook', () => pageParameter(op, [{ id: 1 }], 200, [{ id: 2 }]), []],
  [
    'deliveries_cursor: failed',
    () => deliveriesCursor(op, 'c2', 2, 400, undefined),
    [
      {
        check: 'deliveries_cursor',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'the page at cursor c2 answered 400',
        expected: '2xx',
        actual: 400,
      },
    ],
  ],
  [
    'deliveries_cursor: an empty page',
    () => deliveriesCursor(op, 'c2', 2, 200, []),
    [
      {
        check: 'deliveries_cursor',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'the page at cursor c2 must start at delivery 2, got an empty page',
        expected: 2,
        actual: null,
      },
    ],
  ],
  [
    'deliveries_cursor: another first',
    () => deliveriesCursor(op, 'c2', 2, 200, [{ id: 3 }]),
    [
      {
        check: 'deliveries_cursor',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'the page at cursor c2 must start at delivery 2, got delivery 3',
        expected: 2,
        actual: 3,
      },
    ],
  ],
  ['deliveries_cursor: the one named', () => deliveriesCursor(op, 'c2', 2, 200, [{ id: 2 }, { id: 3 }]), []],
  [
    'secret_masked: nested in clear',
    () => secretMasked(op, 's3cr3t', '{"config":{"secret":"s3cr3t"}}', { config: { secret: 's3cr3t' } }),
    [
      {
        check: 'secret_masked',
        severity: 'error',
        operation: 'op',
        instancePath: '/config/secret',
        message: 'the response carries the webhook secret in clear at /config/secret: it must be masked with asterisks',
      },
    ],
  ],
  [
    'secret_masked: inside a longer string in an array',
    () => secretMasked(op, 's3cr3t', '{"list":["a","xx-s3cr3t-yy"]}', { list: ['a', 'xx-s3cr3t-yy'] }),
    [
      {
        check: 'secret_masked',
        severity: 'error',
        operation: 'op',
        instancePath: '/list/1',
        message: 'the response carries the webhook secret in clear at /list/1: it must be masked with asterisks',
      },
    ],
  ],
  [
    'secret_masked: in the text but not in a value (a key)',
    () => secretMasked(op, 's3cr3t', '{"s3cr3t":1}', { s3cr3t: 1 }),
    [
      {
        check: 'secret_masked',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'the response carries the webhook secret in clear: it must be masked with asterisks',
      },
    ],
  ],
  ['secret_masked: masked', () => secretMasked(op, 's3cr3t', '{"secret":"********"}', { secret: '********' }), []],
  ['secret_masked: an empty secret', () => secretMasked(op, '', '{"secret":""}', { secret: '' }), []],
  [
    'config_only: webhook fields',
    () => configOnly(op, { url: 'u', id: 1, events: [], last_response: {} }),
    [
      {
        check: 'config_only',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message:
          'the config endpoint returned webhook fields: id, events, last_response (it must return only the config)',
        expected: 'config properties only',
        actual: ['id', 'events', 'last_response'],
      },
    ],
  ],
  ['config_only: config only', () => configOnly(op, { url: 'u', content_type: 'json' }), []],
  ['config_only: an array', () => configOnly(op, [{ id: 1 }]), []],
  ['config_only: null', () => configOnly(op, null), []],
  [
    'hook_addressable: read failed',
    () => hookAddressable(op, 7, 404, undefined),
    [
      {
        check: 'hook_addressable',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'reading the hook just created (id 7) answered 404, not 200',
        expected: 200,
        actual: 404,
      },
    ],
  ],
  [
    'hook_addressable: read 201',
    () => hookAddressable(op, 7, 201, { id: 7 }),
    [
      {
        check: 'hook_addressable',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'reading the hook just created (id 7) answered 201, not 200',
        expected: 200,
        actual: 201,
      },
    ],
  ],
  [
    'hook_addressable: another id',
    () => hookAddressable(op, 7, 200, { id: 8 }),
    [
      {
        check: 'hook_addressable',
        severity: 'error',
        operation: 'op',
        instancePath: '/id',
        message: 'reading hook 7 returned a webhook with id 8',
        expected: 7,
        actual: 8,
      },
    ],
  ],
  [
    'hook_addressable: no id',
    () => hookAddressable(op, 7, 200, { name: 'web' }),
    [
      {
        check: 'hook_addressable',
        severity: 'error',
        operation: 'op',
        instancePath: '/id',
        message: 'reading hook 7 returned a webhook with id none',
        expected: 7,
        actual: null,
      },
    ],
  ],
  [
    'hook_addressable: a string id',
    () => hookAddressable(op, 7, 200, { id: '7' }),
    [
      {
        check: 'hook_addressable',
        severity: 'error',
        operation: 'op',
        instancePath: '/id',
        message: 'reading hook 7 returned a webhook with id none',
        expected: 7,
        actual: null,
      },
    ],
  ],
  ['hook_addressable: the same id', () => hookAddressable(op, 7, 200, { id: 7 }), []],
  [
    'secret_removed_unless_resent: read failed',
    () => secretRemovedUnlessResent(op, true, 500, undefined),
    [
      {
        check: 'secret_removed_unless_resent',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'reading the config after the update answered 500, not 200',
        expected: 200,
        actual: 500,
      },
    ],
  ],
  [
    'secret_removed_unless_resent: sent, none after',
    () => secretRemovedUnlessResent(op, true, 200, { url: 'u' }),
    [
      {
        check: 'secret_removed_unless_resent',
        severity: 'error',
        operation: 'op',
        instancePath: '/secret',
        message: 'an update whose config carried the secret must keep it, but the config read afterwards shows none',
        expected: 'a (masked) secret',
        actual: null,
      },
    ],
  ],
  [
    'secret_removed_unless_resent: sent, an empty one after',
    () => secretRemovedUnlessResent(op, true, 200, { secret: '' }),
    [
      {
        check: 'secret_removed_unless_resent',
        severity: 'error',
        operation: 'op',
        instancePath: '/secret',
        message: 'an update whose config carried the secret must keep it, but the config read afterwards shows none',
        expected: 'a (masked) secret',
        actual: '',
      },
    ],
  ],
  [
    'secret_removed_unless_resent: sent, a number after',
    () => secretRemovedUnlessResent(op, true, 200, { secret: 5 }),
    [
      {
        check: 'secret_removed_unless_resent',
        severity: 'error',
        operation: 'op',
        instancePath: '/secret',
        message: 'an update whose config carried the secret must keep it, but the config read afterwards shows none',
        expected: 'a (masked) secret',
        actual: 5,
      },
    ],
  ],
  [
    'secret_removed_unless_resent: left out, one after',
    () => secretRemovedUnlessResent(op, false, 200, { secret: '********' }),
    [
      {
        check: 'secret_removed_unless_resent',
        severity: 'error',
        operation: 'op',
        instancePath: '/secret',
        message:
          'an update whose config left the secret out must remove it, but the config read afterwards still shows one',
        expected: 'no secret',
        actual: 'a secret',
      },
    ],
  ],
  [
    'secret_removed_unless_resent: left out, none after',
    () => secretRemovedUnlessResent(op, false, 200, { url: 'u' }),
    [],
  ],
  [
    'secret_removed_unless_resent: sent, kept',
    () => secretRemovedUnlessResent(op, true, 200, { secret: '********' }),
    [],
  ],
  [
    'secret_removed_unless_resent: config null',
    () => secretRemovedUnlessResent(op, true, 200, null),
    [
      {
        check: 'secret_removed_unless_resent',
        severity: 'error',
        operation: 'op',
        instancePath: '/secret',
        message: 'an update whose config carried the secret must keep it, but the config read afterwards shows none',
        expected: 'a (masked) secret',
        actual: null,
      },
    ],
  ],
  [
    'test_skips_unsubscribed: a 200',
    () => testSkipsUnsubscribed(op, 200, [], []),
    [
      {
        check: 'test_skips_unsubscribed',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'a test on a hook not subscribed to push must still answer 204, got 200',
        expected: 204,
        actual: 200,
      },
    ],
  ],
  [
    'test_skips_unsubscribed: two deliveries',
    () => testSkipsUnsubscribed(op, 204, [{ id: 1 }], [{ id: 1 }, { id: 2, event: 'push' }, { event: 'ping' }]),
    [
      {
        check: 'test_skips_unsubscribed',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'a test on a hook not subscribed to push produced 2 deliveries (events "push", "ping")',
        expected: 'no delivery',
        actual: 2,
      },
    ],
  ],
  [
    'test_skips_unsubscribed: one delivery without event',
    () => testSkipsUnsubscribed(op, 204, [], [{ id: 2 }]),
    [
      {
        check: 'test_skips_unsubscribed',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'a test on a hook not subscribed to push produced 1 delivery (events null)',
        expected: 'no delivery',
        actual: 1,
      },
    ],
  ],
  ['test_skips_unsubscribed: none', () => testSkipsUnsubscribed(op, 204, [{ id: 1 }], [{ id: 1, event: 'push' }]), []],
  [
    'ping_delivery: none appeared',
    () => pingDelivery(op, [{ id: 1 }], [{ id: 1 }], 300),
    [
      {
        check: 'ping_delivery',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'no delivery appeared within 300 ms of the ping (204)',
        expected: {
          event: 'ping',
        },
        actual: [],
      },
    ],
  ],
  [
    'ping_delivery: others appeared',
    () => pingDelivery(op, [], [{ id: 2, event: 'push' }, { id: 3 }], 300),
    [
      {
        check: 'ping_delivery',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'the deliveries that appeared after the ping have events "push", null, none "ping"',
        expected: {
          event: 'ping',
        },
        actual: ['push', null],
      },
    ],
  ],
  [
    'ping_delivery: a ping appeared',
    () =>
      pingDelivery(
        op,
        [],
        [
          { id: 2, event: 'push' },
          { id: 3, event: 'ping' },
        ],
        300,
      ),
    [],
  ],
  [
    'redelivery_flag: none appeared',
    () => redeliveryFlag(op, [{ id: 1 }], [{ id: 1 }]),
    [
      {
        check: 'redelivery_flag',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'after a redelivery (202) the deliveries list holds no new delivery',
        expected: {
          redelivery: true,
        },
        actual: [],
      },
    ],
  ],
  [
    'redelivery_flag: no flag',
    () => redeliveryFlag(op, [], [{ id: 2, redelivery: false }, { id: 3 }]),
    [
      {
        check: 'redelivery_flag',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'after a redelivery the new deliveries (2) have no redelivery: true',
        expected: {
          redelivery: true,
        },
        actual: [false, null],
      },
    ],
  ],
  ['redelivery_flag: flagged', () => redeliveryFlag(op, [], [{ id: 2, redelivery: true }]), []],
  [
    'test_push_delivery: none appeared',
    () => testPushDelivery(op, [], [], 300),
    [
      {
        check: 'test_push_delivery',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'no delivery appeared within 300 ms of a test (204) on a hook subscribed to push',
        expected: {
          event: 'push',
        },
        actual: [],
      },
    ],
  ],
  [
    'test_push_delivery: a ping appeared',
    () => testPushDelivery(op, [], [{ id: 2, event: 'ping' }, { id: 3 }], 300),
    [
      {
        check: 'test_push_delivery',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'the deliveries that appeared after a test on a push hook have events "ping", null, none "push"',
        expected: {
          event: 'push',
        },
        actual: ['ping', null],
      },
    ],
  ],
  ['test_push_delivery: a push', () => testPushDelivery(op, [], [{ id: 2, event: 'push' }], 300), []],
  [
    'events_default_push: two events',
    () => eventsDefaultPush(op, { events: ['push', 'issues'] }),
    [
      {
        check: 'events_default_push',
        severity: 'error',
        operation: 'op',
        instancePath: '/events',
        message: 'a webhook created without events must have events [push], got [push, issues]',
        expected: ['push'],
        actual: ['push', 'issues'],
      },
    ],
  ],
  [
    'events_default_push: another event',
    () => eventsDefaultPush(op, { events: ['issues'] }),
    [
      {
        check: 'events_default_push',
        severity: 'error',
        operation: 'op',
        instancePath: '/events',
        message: 'a webhook created without events must have events [push], got [issues]',
        expected: ['push'],
        actual: ['issues'],
      },
    ],
  ],
  [
    'events_default_push: events not an array',
    () => eventsDefaultPush(op, { events: 'push' }),
    [
      {
        check: 'events_default_push',
        severity: 'error',
        operation: 'op',
        instancePath: '/events',
        message: 'a webhook created without events must have events [push], got no events field',
        expected: ['push'],
        actual: null,
      },
    ],
  ],
  [
    'events_default_push: null',
    () => eventsDefaultPush(op, null),
    [
      {
        check: 'events_default_push',
        severity: 'error',
        operation: 'op',
        instancePath: '/events',
        message: 'a webhook created without events must have events [push], got no events field',
        expected: ['push'],
        actual: null,
      },
    ],
  ],
  ['add_events: appended', () => addEvents(op, ['push'], ['issues'], { events: ['push', 'issues'] }), []],
  [
    'add_events: replaced',
    () => addEvents(op, ['push'], ['issues'], { events: ['issues'] }),
    [
      {
        check: 'add_events',
        severity: 'error',
        operation: 'op',
        instancePath: '/events',
        message: 'add_events [issues] on [push] must give [push, issues], got [issues]',
        expected: ['push', 'issues'],
        actual: ['issues'],
      },
    ],
  ],
  [
    'add_events: one more',
    () => addEvents(op, ['push'], ['issues'], { events: ['push', 'issues', 'fork'] }),
    [
      {
        check: 'add_events',
        severity: 'error',
        operation: 'op',
        instancePath: '/events',
        message: 'add_events [issues] on [push] must give [push, issues], got [push, issues, fork]',
        expected: ['push', 'issues'],
        actual: ['push', 'issues', 'fork'],
      },
    ],
  ],
  ['add_events: an event already there', () => addEvents(op, ['push'], ['push'], { events: ['push'] }), []],
  [
    'add_events: no events',
    () => addEvents(op, ['push'], ['issues'], {}),
    [
      {
        check: 'add_events',
        severity: 'error',
        operation: 'op',
        instancePath: '/events',
        message: 'add_events [issues] on [push] must give [push, issues], got []',
        expected: ['push', 'issues'],
        actual: [],
      },
    ],
  ],
  ['remove_events: removed', () => removeEvents(op, ['push', 'issues'], ['issues'], { events: ['push'] }), []],
  [
    'remove_events: kept',
    () => removeEvents(op, ['push', 'issues'], ['issues'], { events: ['push', 'issues'] }),
    [
      {
        check: 'remove_events',
        severity: 'error',
        operation: 'op',
        instancePath: '/events',
        message: 'remove_events [issues] on [push, issues] must give [push], got [push, issues]',
        expected: ['push'],
        actual: ['push', 'issues'],
      },
    ],
  ],
  [
    'remove_events: all gone',
    () => removeEvents(op, ['push', 'issues'], ['issues'], { events: [] }),
    [
      {
        check: 'remove_events',
        severity: 'error',
        operation: 'op',
        instancePath: '/events',
        message: 'remove_events [issues] on [push, issues] must give [push], got []',
        expected: ['push'],
        actual: [],
      },
    ],
  ],
  [
    'events_replace: appended',
    () => eventsReplace(op, ['issues'], { events: ['push', 'issues'] }),
    [
      {
        check: 'events_replace',
        severity: 'error',
        operation: 'op',
        instancePath: '/events',
        message: "events [issues] must replace the hook's events, got [push, issues]",
        expected: ['issues'],
        actual: ['push', 'issues'],
      },
    ],
  ],
  ['events_replace: replaced', () => eventsReplace(op, ['issues'], { events: ['issues'] }), []],
  [
    'events_replace: no events',
    () => eventsReplace(op, ['issues'], {}),
    [
      {
        check: 'events_replace',
        severity: 'error',
        operation: 'op',
        instancePath: '/events',
        message: "events [issues] must replace the hook's events, got []",
        expected: ['issues'],
        actual: [],
      },
    ],
  ],
  ['deleted_hook_404: 404', () => deletedHook404(op, 404), []],
  [
    'deleted_hook_404: 200',
    () => deletedHook404(op, 200),
    [
      {
        check: 'deleted_hook_404',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'reading a deleted webhook must answer 404, got 200',
        expected: 404,
        actual: 200,
      },
    ],
  ],
  [
    'deleted_hook_404: 410',
    () => deletedHook404(op, 410),
    [
      {
        check: 'deleted_hook_404',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'reading a deleted webhook must answer 404, got 410',
        expected: 404,
        actual: 410,
      },
    ],
  ],
  [
    'shared_config_refused: 201',
    () => sharedConfigRefused(op, 201),
    [
      {
        check: 'shared_config_refused',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'a second hook with the same config and overlapping events was created (201): it must be refused',
        expected: '422 or 400',
        actual: 201,
      },
    ],
  ],
  ['shared_config_refused: 422', () => sharedConfigRefused(op, 422), []],
  ['shared_config_refused: 400', () => sharedConfigRefused(op, 400), []],
  [
    'shared_config_refused: 500',
    () => sharedConfigRefused(op, 500),
    [
      {
        check: 'shared_config_refused',
        severity: 'error',
        operation: 'op',
        instancePath: '',
        message: 'a second hook with the same config and overlapping events must be refused with 422 (or 400), got 500',
        expected: '422 or 400',
        actual: 500,
      },
    ],
  ],
];

describe('delivery_record_matches on a record that is null', () => {
  it('says what it says of a record that is no object, and does not throw', () => {
    expect(deliveryRecordMatches(op, null, arrived())).toStrictEqual(deliveryRecordMatches(op, 42, arrived()));
  });
});

describe('the behavioural rules, finding by finding', () => {
  it.each(cases)('%s', (_name, call, findings) => {
    // Strictly: a field present as undefined (`expected: undefined`) is a wrong record too.
    expect(call()).toStrictEqual(findings);
  });
});
