// The webhooks spec's top-level webhooks (the deliveries the service sends) against the seed's Events section.
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileDeliveryContract, type DeliveryContract } from '../../src/core/delivery/index.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { fixture, specFile } from '../helpers/paths.js';

let contract: DeliveryContract;
let seedHeaders: string[];
beforeAll(async () => {
  contract = compileDeliveryContract(await loadSpec(specFile('repository-webhooks')));
  const seed = await readFile(fixture('seeds', 'repository-webhooks-api.md'), 'utf8');
  const shown = /Request headers shown \([^)]*\): ([^.]+)\./.exec(seed)?.[1] ?? '';
  seedHeaders = [...shown.matchAll(/(X-[\w-]+|Accept|User-Agent)/g)].map((match) => match[1]!);
});

describe('repository-webhooks spec: deliveries', () => {
  it('documents the deliveries the seed names, and no event it does not show', () => {
    expect([...contract.webhooks.keys()]).toEqual(['ping', 'push', 'issues']);
  });

  it.each(['ping', 'push', 'issues'])(
    'documents every request header the seed shows on the %s delivery, signatures optional',
    (event) => {
      const headers = contract.webhooks.get(event)!.headers;
      expect(seedHeaders.length).toBeGreaterThanOrEqual(9);
      for (const name of seedHeaders)
        expect(
          headers.map((header) => header.name),
          name,
        ).toContain(name);
      for (const header of headers)
        expect(header.required, header.name).toBe(!/^(X-Hub-Signature|Accept)/.test(header.name));
    },
  );

  it.each(['ping', 'push', 'issues'])('takes the %s payload as JSON or form-encoded in a payload field', (event) => {
    expect(contract.webhooks.get(event)!.mediaTypes.map((media) => [media.mediaType, media.form])).toEqual([
      ['application/json', false],
      ['application/x-www-form-urlencoded', true],
    ]);
  });

  it.each([
    ['X-Service-Delivery', 'delivery-1', false],
    ['X-Service-Delivery', '0b989ba4-242f-11e5-81e1-c7b6966d2516', true],
    ['X-Hub-Signature-256', `sha256=${'a'.repeat(64)}`, true],
    ['X-Hub-Signature-256', `sha256=${'A'.repeat(64)}`, false],
    ['X-Hub-Signature', `sha1=${'b'.repeat(40)}`, true],
    ['X-Hub-Signature', `sha256=${'b'.repeat(64)}`, false],
    ['X-Service-Event', 'issues', true],
    ['X-Service-Event', 'push', false],
  ] as const)("holds the issues delivery's %s to its form: %s is %s", (name, value, valid) => {
    const header = contract.webhooks.get('issues')!.headers.find((candidate) => candidate.name === name)!;
    expect(header.validate!(value)).toBe(valid);
  });

  it("holds the issues payload to the seed's sample: action, issue.body, repository.id; ping and push stay open", () => {
    const validate = (event: string, value: unknown) => contract.webhooks.get(event)!.mediaTypes[0]!.validate!(value);
    expect(validate('issues', { action: 'opened', issue: { body: 'b' }, repository: { id: 456 } })).toBe(true);
    expect(validate('issues', { action: 'opened', issue: {}, repository: { id: 456 } })).toBe(false);
    expect(validate('push', { anything: ['at', 'all'] })).toBe(true);
    expect(validate('ping', [])).toBe(false);
  });
});
