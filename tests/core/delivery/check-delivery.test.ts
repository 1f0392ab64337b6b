// checkDelivery against the shipped spec's webhooks: a correct delivery holds; each broken rule is a finding of
// the check that owns it.
import { createHmac } from 'node:crypto';
import { sign } from '@octokit/webhooks-methods';
import { beforeAll, describe, expect, it } from 'vitest';
import { specPath } from '../../../src/config/project.js';
import { seedProject } from '../../../src/config/seed-project.js';
import {
  checkDelivery,
  compileDeliveryContract,
  type DeliveryContract,
  type ReceivedDelivery,
} from '../../../src/core/delivery/index.js';
import { loadSpec } from '../../../src/core/load-spec.js';

const secret = 'contracts-test-secret-1234';
const guid = '0b989ba4-242f-11e5-81e1-c7b6966d2516';
const issues = { action: 'opened', issue: { body: "I'm having a problem with this." }, repository: { id: 456 } };

let contract: DeliveryContract;
beforeAll(async () => {
  contract = compileDeliveryContract(await loadSpec(specPath(seedProject.api('repository-webhooks'))));
});

interface Build {
  event?: string;
  payload?: unknown;
  body?: string | Uint8Array;
  form?: boolean;
  signWith?: string | null;
  signBody?: string;
  headers?: (headers: Record<string, string>) => void;
  method?: string;
}

async function delivery(build: Build = {}): Promise<ReceivedDelivery> {
  const json = JSON.stringify(build.payload ?? issues);
  const body = build.body ?? (build.form ? `payload=${encodeURIComponent(json)}` : json);
  const headers: Record<string, string> = {
    'x-service-delivery': guid,
    'x-service-event': build.event ?? 'issues',
    'x-service-hook-id': '12345678',
    'x-service-hook-installation-target-id': '456',
    'x-service-hook-installation-target-type': 'repository',
    'user-agent': 'Service-Hookshot/044aadd',
    accept: '*/*',
    'content-type': build.form ? 'application/x-www-form-urlencoded' : 'application/json',
  };
  const key = build.signWith === undefined ? secret : build.signWith;
  if (key !== null) {
    const signed = build.signBody ?? (typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));
    headers['x-hub-signature-256'] = await sign(key, signed);
    headers['x-hub-signature'] = `sha1=${createHmac('sha1', key).update(signed).digest('hex')}`;
  }
  build.headers?.(headers);
  return { method: build.method ?? 'POST', headers, body: typeof body === 'string' ? Buffer.from(body) : body };
}

const checksOf = (findings: { check: string }[]) => [...new Set(findings.map((finding) => finding.check))].sort();

describe('checkDelivery', () => {
  it.each([
    ["an issues delivery as JSON, signed with the hook's secret", {}],
    ['an issues delivery form-encoded with the JSON in a payload field', { form: true }],
    [
      'a ping delivery with any JSON object (its shape is not shown)',
      { event: 'ping', payload: { zen: 'z', hook_id: 1 } },
    ],
    ['a push delivery', { event: 'push', payload: { ref: 'refs/heads/main' } }],
    [
      'a delivery of an event the spec does not document, with a JSON object',
      { event: 'pull_request', payload: { action: 'closed' } },
    ],
  ] as [string, Build][])('holds for %s', async (_name, build) => {
    const result = await checkDelivery(contract, await delivery(build), {
      secret,
      event: build.event ?? 'issues',
      contentType: build.form ? 'form' : 'json',
    });
    expect(result.findings).toEqual([]);
    expect(result.applied).toEqual(['delivery_signature', 'delivery_headers', 'delivery_payload_schema']);
    expect(result.guid).toBe(guid);
  });

  it('says which delivery it judged and how it told it: operation, event, GUID, hook and the payload read', async () => {
    const result = await checkDelivery(contract, await delivery(), { secret });
    expect({ ...result, applied: undefined, findings: undefined }).toEqual({
      operation: 'issuesDeliveryReceived',
      event: 'issues',
      identified: 'by X-Service-Event',
      guid,
      hookId: '12345678',
      payload: issues,
      applied: undefined,
      findings: undefined,
    });
    const unnamed = await checkDelivery(contract, await delivery({ headers: (h) => delete h['x-service-event'] }));
    expect([unnamed.operation, unnamed.event]).toEqual(['delivery (no X-Service-Event)', undefined]);
    const unread = await checkDelivery(contract, await delivery({ body: '<html>' }));
    expect(unread.payload).toBeUndefined();
  });

  it('verifies a correct signature over an empty body (over its raw bytes)', async () => {
    const empty = await delivery({
      body: '',
      signWith: null,
      headers: (h) => {
        h['x-hub-signature-256'] = `sha256=${createHmac('sha256', secret).update('').digest('hex')}`;
        h['x-hub-signature'] = `sha1=${createHmac('sha1', secret).update('').digest('hex')}`;
      },
    });
    const result = await checkDelivery(contract, empty, { secret });
    expect(result.findings.map((finding) => finding.check)).not.toContain('delivery_signature');
  });

  it('holds for a delivery whose method is in lower case and whose event is the one expected', async () => {
    const result = await checkDelivery(contract, await delivery({ method: 'post' }), { secret, event: 'issues' });
    expect(result.findings).toEqual([]);
  });

  it('holds for a hook without a secret that sends no signature', async () => {
    const result = await checkDelivery(contract, await delivery({ signWith: null }), { secret: null });
    expect(result.findings).toEqual([]);
  });

  it.each([
    ['signed with another secret', { signWith: 'another-secret-5678' }, {}, ['delivery_signature']],
    ['without X-Hub-Signature (sha1)', { headers: (h) => delete h['x-hub-signature'] }, {}, ['delivery_signature']],
    ['with a sha256 signature over a different body', { signBody: '{"action":"closed"}' }, {}, ['delivery_signature']],
    ['signed although the hook has no secret', {}, { secret: null }, ['delivery_signature']],
    ['without X-Service-Delivery', { headers: (h) => delete h['x-service-delivery'] }, {}, ['delivery_headers']],
    [
      'with an X-Service-Delivery that is no uuid',
      { headers: (h) => (h['x-service-delivery'] = 'delivery-1') },
      {},
      ['delivery_headers'],
    ],
    [
      'with a signature header in the wrong form, signatures unjudged',
      { headers: (h) => (h['x-hub-signature'] = 'md5=abc') },
      { secret: undefined },
      ['delivery_headers'],
    ],
    ['as a PUT', { method: 'PUT' }, {}, ['delivery_headers']],
    [
      'with event push where a ping was expected',
      { event: 'push', payload: {} },
      { event: 'ping' },
      ['delivery_headers'],
    ],
    ['as JSON to a hook whose content_type is form', {}, { contentType: 'form' }, ['delivery_headers']],
    [
      'with an issues payload whose repository.id is a string',
      { payload: { ...issues, repository: { id: '456' } } },
      {},
      ['delivery_payload_schema'],
    ],
    [
      'with an issues payload missing issue',
      { payload: { action: 'opened', repository: { id: 1 } } },
      {},
      ['delivery_payload_schema'],
    ],
    ['with a body that is not JSON', { body: '<html>' }, {}, ['delivery_payload_schema']],
    ['with a form that has no payload field', { form: true, body: 'data=%7B%7D' }, {}, ['delivery_payload_schema']],
    [
      'with a form that has two payload fields',
      { form: true, body: 'payload=%7B%7D&payload=%7B%7D' },
      {},
      ['delivery_payload_schema'],
    ],
    [
      'as text/plain holding JSON',
      { headers: (h) => (h['content-type'] = 'text/plain') },
      { contentType: undefined },
      ['delivery_payload_schema'],
    ],
    [
      'with a body that is not UTF-8 (the signature over its bytes still verifies)',
      { body: new Uint8Array([0x7b, 0xff, 0x7d]), signBody: undefined },
      {},
      ['delivery_payload_schema'],
    ],
    [
      'with X-Service-Delivery sent twice',
      { headers: (h) => ((h as Record<string, unknown>)['x-service-delivery'] = [guid, guid]) },
      {},
      ['delivery_headers'],
    ],
    [
      'without a content type',
      { headers: (h) => delete h['content-type'] },
      { contentType: undefined },
      ['delivery_headers', 'delivery_payload_schema'],
    ],
    [
      'without a content type, to a json hook',
      { headers: (h) => delete h['content-type'] },
      { contentType: 'json' },
      ['delivery_headers', 'delivery_payload_schema'],
    ],
    ['form-encoded to a json hook', { form: true }, { contentType: 'json' }, ['delivery_headers']],
    [
      'with only the sha1 signature, to a hook without a secret',
      { headers: (h) => delete h['x-hub-signature-256'] },
      { secret: null },
      ['delivery_signature'],
    ],
    [
      'with a sha1 signature of another secret beside a good sha256',
      {
        headers: (h) =>
          (h['x-hub-signature'] = `sha1=${createHmac('sha1', 'other').update(JSON.stringify(issues)).digest('hex')}`),
      },
      {},
      ['delivery_signature'],
    ],
    [
      'with a sha256 signature one character short',
      { headers: (h) => (h['x-hub-signature-256'] = h['x-hub-signature-256']!.slice(0, -1)) },
      {},
      ['delivery_headers', 'delivery_signature'],
    ],
    ['without both signatures, to a hook with a secret', { signWith: null }, {}, ['delivery_signature']],
    [
      'with an empty body, signed with another secret (verified over the raw bytes)',
      {
        body: '',
        signWith: null,
        headers: (h) => {
          h['x-hub-signature-256'] = `sha256=${createHmac('sha256', 'other').update('').digest('hex')}`;
          h['x-hub-signature'] = `sha1=${createHmac('sha1', secret).update('').digest('hex')}`;
        },
      },
      {},
      ['delivery_payload_schema', 'delivery_signature'],
    ],
    [
      'of an event the spec does not document, with an array',
      { event: 'pull_request', payload: [1] },
      { event: 'pull_request' },
      ['delivery_payload_schema'],
    ],
    [
      'of an event the spec does not document, with a string',
      { event: 'pull_request', payload: 'x' },
      { event: 'pull_request' },
      ['delivery_payload_schema'],
    ],
    [
      'as a +json media type (read as JSON), missing issue',
      {
        payload: { action: 'opened', repository: { id: 1 } },
        headers: (h) => (h['content-type'] = 'application/vnd.service+json'),
      },
      { contentType: undefined },
      ['delivery_payload_schema'],
    ],
    [
      'with an issue that is arrays nested 20,000 deep: a type error, not a crash',
      { body: `{"action":"opened","issue":${'['.repeat(20_000)}${']'.repeat(20_000)},"repository":{"id":1}}` },
      {},
      ['delivery_payload_schema'],
    ],
  ] as [string, Build, { secret?: string | null; event?: string; contentType?: string }, string[]][])(
    'fails only %s',
    async (_name, build, expectation, checks) => {
      const received = await delivery(build);
      if (build.body instanceof Uint8Array) {
        received.headers['x-hub-signature-256'] =
          `sha256=${createHmac('sha256', secret).update(build.body).digest('hex')}`;
        received.headers['x-hub-signature'] = `sha1=${createHmac('sha1', secret).update(build.body).digest('hex')}`;
      }
      const result = await checkDelivery(contract, received, { secret, ...expectation });
      expect(checksOf(result.findings)).toEqual(checks);
      // Each finding whole (check, path, message, expected, actual): reviewed in __snapshots__/check-delivery.test.ts.snap.
      expect(result.findings).toMatchSnapshot();
    },
  );

  it('never puts a signature or the secret in a finding', async () => {
    const result = await checkDelivery(
      contract,
      await delivery({ signWith: 'another-secret-5678', headers: (h) => (h['x-hub-signature'] = 'sha1=zz') }),
      { secret },
    );
    const text = JSON.stringify(result.findings);
    expect(result.findings.length).toBeGreaterThan(0);
    expect(text).not.toMatch(/sha(1|256)=[0-9a-f]/);
    expect(text).not.toContain(secret);
  });
});
