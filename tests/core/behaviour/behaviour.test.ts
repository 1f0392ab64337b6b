import { describe, expect, it } from 'vitest';
import { addEvents, deletedHook404, eventsDefaultPush, eventsReplace, perPageCapped, perPageRespected, redeliveryFlag, removeEvents, requestRefused, secretMasked } from '../../../src/core/behaviour/index.js';
import type { Finding } from '../../../src/core/finding.js';

const op = 'op';
const cases: [string, { given: () => Finding[]; want: string | undefined }][] = [
  ['events_default_push holds for [push]', { given: () => eventsDefaultPush(op, { events: ['push'] }), want: undefined }],
  ['events_default_push fails for [] ', { given: () => eventsDefaultPush(op, { events: [] }), want: 'must have events [push], got []' }],
  ['events_default_push fails without events', { given: () => eventsDefaultPush(op, {}), want: 'got no events field' }],
  ['events_replace holds in any order', { given: () => eventsReplace(op, ['push', 'issues'], { events: ['issues', 'push'] }), want: undefined }],
  ['events_replace fails when the old events stay', { given: () => eventsReplace(op, ['issues'], { events: ['push', 'issues'] }), want: 'must replace' }],
  ['add_events holds', { given: () => addEvents(op, ['push'], ['issues'], { events: ['push', 'issues'] }), want: undefined }],
  ['add_events fails when it replaces', { given: () => addEvents(op, ['push'], ['issues'], { events: ['issues'] }), want: 'must give [push, issues], got [issues]' }],
  ['remove_events holds', { given: () => removeEvents(op, ['push', 'issues'], ['issues'], { events: ['push'] }), want: undefined }],
  ['remove_events fails when nothing is removed', { given: () => removeEvents(op, ['push', 'issues'], ['issues'], { events: ['push', 'issues'] }), want: 'must give [push]' }],
  ['secret_masked holds for asterisks', { given: () => secretMasked(op, 's3cr3t-value', '{"secret":"********"}', { secret: '********' }), want: undefined }],
  ['secret_masked fails for the secret in clear, naming where but not what', { given: () => secretMasked(op, 's3cr3t-value', '{"config":{"secret":"s3cr3t-value"}}', { config: { secret: 's3cr3t-value' } }), want: 'in clear at /config/secret' }],
  ['redelivery_flag holds for a new delivery with redelivery true', { given: () => redeliveryFlag(op, [{ id: 1 }], [{ id: 2, redelivery: true }, { id: 1 }]), want: undefined }],
  ['redelivery_flag fails when the new delivery says false', { given: () => redeliveryFlag(op, [{ id: 1 }], [{ id: 2, redelivery: false }, { id: 1 }]), want: 'have no redelivery: true' }],
  ['redelivery_flag fails when no delivery appears', { given: () => redeliveryFlag(op, [{ id: 1 }], [{ id: 1 }]), want: 'holds no new delivery' }],
  ['deleted_hook_404 holds for 404', { given: () => deletedHook404(op, 404), want: undefined }],
  ['deleted_hook_404 fails for 200', { given: () => deletedHook404(op, 200), want: 'must answer 404, got 200' }],
  ['per_page_respected holds for one item on per_page=1', { given: () => perPageRespected(op, 1, [{}]), want: undefined }],
  ['per_page_respected fails for two items on per_page=1', { given: () => perPageRespected(op, 1, [{}, {}]), want: 'per_page=1 but the page holds 2 items' }],
  ['per_page_capped holds for a 422', { given: () => perPageCapped(op, 422, undefined), want: undefined }],
  ['per_page_capped holds for 100 items', { given: () => perPageCapped(op, 200, new Array(100).fill({})), want: undefined }],
  ['per_page_capped fails for 101 items', { given: () => perPageCapped(op, 200, new Array(101).fill({})), want: 'holds 101 items' }],
  ['per_page_capped fails for a 500', { given: () => perPageCapped(op, 500, undefined), want: 'got status 500' }],
  ['auth_required holds for 401', { given: () => requestRefused('auth_required', op, 'without X-API-KEY', 401), want: undefined }],
  ['auth_required fails for 200', { given: () => requestRefused('auth_required', op, 'without X-API-KEY', 200), want: 'without X-API-KEY must not succeed, got 200' }],
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

  it('never puts the secret in a finding', () => {
    const findings = secretMasked(op, 's3cr3t-value', '{"secret":"s3cr3t-value"}', { secret: 's3cr3t-value' });
    expect(JSON.stringify(findings)).not.toContain('s3cr3t-value');
  });
});
