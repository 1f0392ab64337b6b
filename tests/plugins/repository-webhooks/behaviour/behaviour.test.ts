import { describe, expect, it } from 'vitest';
import {
  addEvents,
  configOnly,
  deletedHook404,
  deliveriesCursor,
  deliveryRequestHeaders,
  eventsDefaultPush,
  eventsReplace,
  hookAddressable,
  nextCursor,
  pageParameter,
  perPageCapped,
  perPageRespected,
  pingDelivery,
  redeliveryFlag,
  removeEvents,
  requestRefused,
  secretMasked,
  secretRemovedUnlessResent,
  sharedConfigRefused,
  testPushDelivery,
  testSkipsUnsubscribed,
} from '../../../../src/plugins/repository-webhooks/behaviour/index.js';
import type { Finding } from '../../../../src/core/finding.js';

import { goodDelivery, op, withHeaders } from './delivery-records.js';
const cases: [string, { given: () => Finding[]; want: string | undefined }][] = [
  [
    'events_default_push holds for [push]',
    { given: () => eventsDefaultPush(op, { events: ['push'] }), want: undefined },
  ],
  [
    'events_default_push fails for [] ',
    { given: () => eventsDefaultPush(op, { events: [] }), want: 'must have events [push], got []' },
  ],
  ['events_default_push fails without events', { given: () => eventsDefaultPush(op, {}), want: 'got no events field' }],
  [
    'events_replace holds in any order',
    { given: () => eventsReplace(op, ['push', 'issues'], { events: ['issues', 'push'] }), want: undefined },
  ],
  [
    'events_replace fails when the old events stay',
    { given: () => eventsReplace(op, ['issues'], { events: ['push', 'issues'] }), want: 'must replace' },
  ],
  [
    'add_events holds',
    { given: () => addEvents(op, ['push'], ['issues'], { events: ['push', 'issues'] }), want: undefined },
  ],
  [
    'add_events fails when it replaces',
    {
      given: () => addEvents(op, ['push'], ['issues'], { events: ['issues'] }),
      want: 'must give [push, issues], got [issues]',
    },
  ],
  [
    'remove_events holds',
    { given: () => removeEvents(op, ['push', 'issues'], ['issues'], { events: ['push'] }), want: undefined },
  ],
  [
    'remove_events fails when nothing is removed',
    {
      given: () => removeEvents(op, ['push', 'issues'], ['issues'], { events: ['push', 'issues'] }),
      want: 'must give [push]',
    },
  ],
  [
    'secret_masked holds for asterisks',
    { given: () => secretMasked(op, 's3cr3t-value', '{"secret":"********"}', { secret: '********' }), want: undefined },
  ],
  [
    'secret_masked fails for the secret in clear, naming where but not what',
    {
      given: () =>
        secretMasked(op, 's3cr3t-value', '{"config":{"secret":"s3cr3t-value"}}', {
          config: { secret: 's3cr3t-value' },
        }),
      want: 'in clear at /config/secret',
    },
  ],
  [
    'redelivery_flag holds for a new delivery with redelivery true',
    { given: () => redeliveryFlag(op, [{ id: 1 }], [{ id: 2, redelivery: true }, { id: 1 }]), want: undefined },
  ],
  [
    'redelivery_flag fails when the new delivery says false',
    {
      given: () => redeliveryFlag(op, [{ id: 1 }], [{ id: 2, redelivery: false }, { id: 1 }]),
      want: 'have no redelivery: true',
    },
  ],
  [
    'redelivery_flag fails when no delivery appears',
    { given: () => redeliveryFlag(op, [{ id: 1 }], [{ id: 1 }]), want: 'holds no new delivery' },
  ],
  ['deleted_hook_404 holds for 404', { given: () => deletedHook404(op, 404), want: undefined }],
  ['deleted_hook_404 fails for 200', { given: () => deletedHook404(op, 200), want: 'must answer 404, got 200' }],
  [
    'per_page_respected holds for one item on per_page=1',
    { given: () => perPageRespected(op, 1, 200, [{}], 2), want: undefined },
  ],
  [
    'per_page_respected fails for two items on per_page=1',
    { given: () => perPageRespected(op, 1, 200, [{}, {}], 5), want: 'must give a page of 1, got 2' },
  ],
  [
    'per_page_respected fails for an empty page when items exist',
    { given: () => perPageRespected(op, 1, 200, [], 2), want: 'must give a page of 1, got 0' },
  ],
  [
    'per_page_respected fails for a list that answers 406',
    { given: () => perPageRespected(op, 1, 406, undefined, 2), want: 'answered 406' },
  ],
  [
    'per_page_capped holds for a 422 beside a 200 control',
    { given: () => perPageCapped(op, 200, 422, undefined), want: undefined },
  ],
  [
    'per_page_capped holds for a 400 beside a 200 control',
    { given: () => perPageCapped(op, 200, 400, undefined), want: undefined },
  ],
  [
    'per_page_capped holds for 100 items',
    { given: () => perPageCapped(op, 200, 200, new Array(100).fill({})), want: undefined },
  ],
  [
    'per_page_capped fails for 101 items',
    { given: () => perPageCapped(op, 200, 200, new Array(101).fill({})), want: 'holds 101 items' },
  ],
  [
    'per_page_capped fails for a 500',
    { given: () => perPageCapped(op, 200, 500, undefined), want: 'got 500, which says nothing about per_page' },
  ],
  [
    'per_page_capped does not count a 406 as a rejection',
    { given: () => perPageCapped(op, 200, 406, undefined), want: 'got 406' },
  ],
  [
    'per_page_capped does not count a 404 as a rejection',
    { given: () => perPageCapped(op, 200, 404, undefined), want: 'got 404' },
  ],
  [
    'per_page_capped fails when the control failed',
    {
      given: () => perPageCapped(op, 406, 422, undefined),
      want: 'could not be exercised: the control list with per_page=1 answered 406',
    },
  ],
  [
    'auth_required holds for 401 beside a 200 control',
    { given: () => requestRefused('auth_required', op, 'without X-API-KEY', 200, 401), want: undefined },
  ],
  [
    'auth_required fails for 200',
    {
      given: () => requestRefused('auth_required', op, 'without X-API-KEY', 200, 200),
      want: 'without X-API-KEY must not succeed, got 200',
    },
  ],
  [
    'auth_required fails for a 500',
    {
      given: () => requestRefused('auth_required', op, 'without X-API-KEY', 200, 500),
      want: 'a server error is not a refusal',
    },
  ],
  [
    'auth_required fails when the control was refused too',
    {
      given: () => requestRefused('auth_required', op, 'without X-API-KEY', 401, 401),
      want: 'control request (with X-API-KEY and X-API-VERSION 2.4) answered 401',
    },
  ],
  [
    'page_parameter holds for another hook on page 2',
    { given: () => pageParameter(op, [{ id: 1 }], 200, [{ id: 2 }]), want: undefined },
  ],
  [
    'page_parameter fails when page 2 repeats page 1',
    { given: () => pageParameter(op, [{ id: 1 }], 200, [{ id: 1 }]), want: 'page is ignored' },
  ],
  ['page_parameter fails for an empty page 2', { given: () => pageParameter(op, [{ id: 1 }], 200, []), want: 'got 0' }],
  [
    'deliveries_cursor holds when the page starts at the cursor',
    { given: () => deliveriesCursor(op, '7', 7, 200, [{ id: 7 }]), want: undefined },
  ],
  [
    'deliveries_cursor fails when the cursor is ignored',
    { given: () => deliveriesCursor(op, '7', 7, 200, [{ id: 9 }]), want: 'must start at delivery 7, got delivery 9' },
  ],
  ['hook_addressable holds for the same id', { given: () => hookAddressable(op, 5, 200, { id: 5 }), want: undefined }],
  [
    'hook_addressable fails for a 404',
    { given: () => hookAddressable(op, 5, 404, undefined), want: 'answered 404, not 200' },
  ],
  ['hook_addressable fails for another id', { given: () => hookAddressable(op, 5, 200, { id: 6 }), want: 'with id 6' }],
  [
    'config_only holds for config fields',
    { given: () => configOnly(op, { url: 'http://x', content_type: 'json', secret: '********' }), want: undefined },
  ],
  [
    'config_only fails for a whole webhook',
    {
      given: () => configOnly(op, { id: 1, events: ['push'], config: {} }),
      want: 'webhook fields: id, events, config',
    },
  ],
  [
    'secret_removed_unless_resent holds when a resent secret stays',
    { given: () => secretRemovedUnlessResent(op, true, 200, { secret: '********' }), want: undefined },
  ],
  [
    'secret_removed_unless_resent holds when an omitted secret goes',
    { given: () => secretRemovedUnlessResent(op, false, 200, { url: 'x' }), want: undefined },
  ],
  [
    'secret_removed_unless_resent fails when an omitted secret stays',
    { given: () => secretRemovedUnlessResent(op, false, 200, { secret: '********' }), want: 'must remove it' },
  ],
  [
    'secret_removed_unless_resent fails when a resent secret goes',
    { given: () => secretRemovedUnlessResent(op, true, 200, {}), want: 'must keep it' },
  ],
  [
    'ping_delivery holds for a new ping',
    { given: () => pingDelivery(op, [], [{ id: 1, event: 'ping' }], 10), want: undefined },
  ],
  [
    'ping_delivery fails for a new delivery of another event',
    { given: () => pingDelivery(op, [], [{ id: 1, event: 'push' }], 10), want: 'none "ping"' },
  ],
  [
    'ping_delivery fails when nothing appears',
    {
      given: () => pingDelivery(op, [{ id: 1, event: 'ping' }], [{ id: 1, event: 'ping' }], 10),
      want: 'no delivery appeared within 10 ms',
    },
  ],
  [
    'test_push_delivery holds for a new push',
    {
      given: () =>
        testPushDelivery(
          op,
          [{ id: 1, event: 'ping' }],
          [
            { id: 2, event: 'push' },
            { id: 1, event: 'ping' },
          ],
          10,
        ),
      want: undefined,
    },
  ],
  [
    'test_push_delivery fails for no new push',
    { given: () => testPushDelivery(op, [{ id: 1 }], [{ id: 1 }], 10), want: 'no delivery appeared' },
  ],
  [
    'test_skips_unsubscribed holds for 204 and nothing new',
    { given: () => testSkipsUnsubscribed(op, 204, [], []), want: undefined },
  ],
  [
    'test_skips_unsubscribed fails for a delivery',
    { given: () => testSkipsUnsubscribed(op, 204, [], [{ id: 3, event: 'push' }]), want: 'produced 1 delivery' },
  ],
  [
    'test_skips_unsubscribed fails for a 404',
    { given: () => testSkipsUnsubscribed(op, 404, [], []), want: 'must still answer 204, got 404' },
  ],
  ['shared_config_refused holds for 422', { given: () => sharedConfigRefused(op, 422), want: undefined }],
  ['shared_config_refused fails for 201', { given: () => sharedConfigRefused(op, 201), want: 'was created (201)' }],
  ['shared_config_refused fails for 403', { given: () => sharedConfigRefused(op, 403), want: 'got 403' }],
  [
    'delivery_request_headers holds for a matching record',
    { given: () => deliveryRequestHeaders(op, 5, true, goodDelivery), want: undefined },
  ],
  [
    'delivery_request_headers fails for a guid mismatch',
    {
      given: () => deliveryRequestHeaders(op, 5, true, { ...goodDelivery, guid: 'other' }),
      want: 'X-Service-Delivery is',
    },
  ],
  [
    'delivery_request_headers fails for a missing sha1 signature',
    {
      given: () => deliveryRequestHeaders(op, 5, true, withHeaders({ 'X-Hub-Signature': undefined })),
      want: 'X-Hub-Signature is missing',
    },
  ],
  [
    'delivery_request_headers fails for a sha256 signature of the wrong form',
    {
      given: () => deliveryRequestHeaders(op, 5, true, withHeaders({ 'X-Hub-Signature-256': 'sha256=abc' })),
      want: 'X-Hub-Signature-256 does not have the form',
    },
  ],
  [
    'delivery_request_headers fails for another hook id',
    { given: () => deliveryRequestHeaders(op, 6, true, goodDelivery), want: 'X-Service-Hook-ID is "5", expected 6' },
  ],
  [
    'delivery_request_headers fails for a record without request headers',
    { given: () => deliveryRequestHeaders(op, 5, true, { guid: 'g' }), want: 'no request.headers object' },
  ],
  [
    'delivery_request_headers asks no signature of a hook without a secret',
    {
      given: () =>
        deliveryRequestHeaders(
          op,
          5,
          false,
          withHeaders({ 'X-Hub-Signature': undefined, 'X-Hub-Signature-256': undefined }),
        ),
      want: undefined,
    },
  ],
];

describe('behavioural checks', () => {
  it.each(cases)('%s', (_name, { given, want }) => {
    const findings = given();
    if (want === undefined) expect(findings).toEqual([]);
    else {
      expect(findings).toHaveLength(1);
      expect(findings[0]?.message).toContain(want);
    }
  });

  it.each([
    ['<http://h/x?per_page=1&cursor=42>; rel="next", <http://h/x?cursor=1>; rel="first"', '42'],
    ['<http://h/x?cursor=1>; rel="prev"', undefined],
    ['not a link header', undefined],
    ['', undefined],
  ])('reads the cursor of rel="next" from %j', (link, want) => {
    expect(nextCursor(link)).toBe(want);
  });

  it('never puts the secret in a finding', () => {
    const findings = secretMasked(op, 's3cr3t-value', '{"secret":"s3cr3t-value"}', { secret: 's3cr3t-value' });
    expect(JSON.stringify(findings)).not.toContain('s3cr3t-value');
  });
});
