// The repository webhooks spec against its seed (tests/fixtures/seeds/repository-webhooks-api.md).
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileSpec, type CompiledSpec } from '../../src/core/compile-spec.js';
import { loadSpec, resolvePointer } from '../../src/core/load-spec.js';
import { fixture, specFile } from '../helpers/paths.js';

const operationIds = [
  'getWebhookConfig',
  'updateWebhookConfig',
  'listWebhookDeliveries',
  'getWebhookDelivery',
  'redeliverWebhookDelivery',
  'listWebhooks',
  'createWebhook',
  'getWebhook',
  'updateWebhook',
  'deleteWebhook',
  'pingWebhook',
  'testPushWebhook',
];

let compiled: CompiledSpec;
let doc: any;
beforeAll(async () => {
  compiled = compileSpec(await loadSpec(specFile('repository-webhooks')));
  doc = compiled.spec.document;
});

const deref = (value: any): any =>
  value && typeof value.$ref === 'string' ? deref(resolvePointer(doc, value.$ref)) : value;
const operation = (method: string, path: string) => doc.paths[path]?.[method.toLowerCase()];
const schemaOf = (name: string) => ['components', 'schemas', name];

interface SeedRow {
  index: number;
  method: string;
  path: string;
  success: string;
  others: string[];
}

async function seedRows(): Promise<SeedRow[]> {
  const seed = await readFile(fixture('seeds', 'repository-webhooks-api.md'), 'utf8');
  const rows = [
    ...seed.matchAll(/^\| (\d+) \| (GET|POST|PATCH|DELETE) \| (\S+) \| [^|]+ \| (\d{3})[^|]* \| ([^|]+) \|$/gm),
  ];
  return rows.map((m) => ({
    index: Number(m[1]),
    method: m[2]!,
    path: m[3]!,
    success: m[4]!,
    others: m[5]!.trim() === 'none listed' ? [] : m[5]!.split(',').map((s) => s.trim()),
  }));
}

describe('repository-webhooks spec: the seed endpoint table', () => {
  it('has the 12 endpoints of the seed table, in its order, with the given operationIds', async () => {
    const rows = await seedRows();
    expect(rows).toHaveLength(12);
    for (const row of rows) expect(operation(row.method, row.path)?.operationId).toBe(operationIds[row.index - 1]);
  });

  it('documents exactly the success and error statuses of each row', async () => {
    for (const row of await seedRows()) {
      const statuses = Object.keys(operation(row.method, row.path).responses).sort();
      expect(statuses, `${row.method} ${row.path}`).toEqual([row.success, ...row.others].sort());
    }
  });

  it('gives 202 and 204 responses no body, and every other success a JSON body with an example', async () => {
    for (const row of await seedRows()) {
      const response = deref(operation(row.method, row.path).responses[row.success]);
      if (row.success === '202' || row.success === '204') {
        expect(response.content, `${row.method} ${row.path}`).toBeUndefined();
        continue;
      }
      for (const mediaType of ['application/json', 'application/vnd.service.v3+json']) {
        const media = response.content[mediaType];
        expect(Object.keys(media.examples ?? {}).length, `${row.method} ${row.path} ${mediaType}`).toBeGreaterThan(0);
      }
    }
  });

  it('types hook_id and delivery_id as integers and caps per_page at 100', () => {
    expect(doc.components.parameters.HookId.schema).toEqual({ type: 'integer' });
    expect(doc.components.parameters.DeliveryId.schema).toEqual({ type: 'integer' });
    expect(doc.components.parameters.PerPage.schema).toEqual({ type: 'integer', maximum: 100 });
    for (const path of ['/repos/{owner}/{repo}/hooks', '/repos/{owner}/{repo}/hooks/{hook_id}/deliveries']) {
      expect(operation('GET', path).parameters).toContainEqual({ $ref: '#/components/parameters/PerPage' });
    }
  });

  it('documents the accept header with the versioned media type, not as required', () => {
    expect(doc.components.parameters.Accept).toMatchObject({
      name: 'accept',
      in: 'header',
      required: false,
      schema: { examples: ['application/vnd.service.v3+json'] },
    });
  });
});

describe('repository-webhooks spec: schemas', () => {
  const cases: [string, { schema: string; given: unknown; want: 'valid' | 'invalid' }][] = [
    [
      'a webhook with last_response code and message null',
      {
        schema: 'Webhook',
        given: { id: 1, last_response: { code: null, status: 'unused', message: null } },
        want: 'valid',
      },
    ],
    [
      'a webhook with an integer last_response code',
      { schema: 'Webhook', given: { last_response: { code: 200, status: 'active', message: 'OK' } }, want: 'valid' },
    ],
    ['a webhook with a string id', { schema: 'Webhook', given: { id: '1' }, want: 'invalid' }],
    [
      'a webhook with a field the seed does not list',
      { schema: 'Webhook', given: { id: 1, newField: true }, want: 'valid' },
    ],
    [
      'a webhook with a non-timestamp created_at',
      { schema: 'Webhook', given: { created_at: 'yesterday' }, want: 'invalid' },
    ],
    ['insecure_ssl as a string', { schema: 'WebhookConfig', given: { insecure_ssl: '0' }, want: 'valid' }],
    ['insecure_ssl as a number', { schema: 'WebhookConfig', given: { insecure_ssl: 0 }, want: 'valid' }],
    [
      'a config response with a masked secret',
      { schema: 'WebhookConfigResponse', given: { secret: '********' }, want: 'valid' },
    ],
    [
      'a config response with the secret in clear',
      { schema: 'WebhookConfigResponse', given: { secret: 'hunter2' }, want: 'invalid' },
    ],
    [
      'a create body with only name (the seed example)',
      { schema: 'CreateWebhookRequest', given: { name: 'web' }, want: 'valid' },
    ],
    [
      'a create body with token and digest in config',
      {
        schema: 'CreateWebhookRequest',
        given: { config: { url: 'https://x', token: 't', digest: 'd' } },
        want: 'valid',
      },
    ],
    [
      'a create body with update-only address in config',
      { schema: 'CreateWebhookRequest', given: { config: { url: 'https://x', address: 'a' } }, want: 'invalid' },
    ],
    [
      'a create body with an unknown field',
      { schema: 'CreateWebhookRequest', given: { name: 'web', colour: 'red' }, want: 'invalid' },
    ],
    [
      'an update body with config but no url',
      { schema: 'UpdateWebhookRequest', given: { config: { content_type: 'json' } }, want: 'invalid' },
    ],
    [
      'an update body with room and address in config',
      {
        schema: 'UpdateWebhookRequest',
        given: { config: { url: 'https://x', room: 'r', address: 'a' } },
        want: 'valid',
      },
    ],
    [
      'an update body with create-only token in config',
      { schema: 'UpdateWebhookRequest', given: { config: { url: 'https://x', token: 't' } }, want: 'invalid' },
    ],
    [
      'an update body with add_events and remove_events',
      {
        schema: 'UpdateWebhookRequest',
        given: { add_events: ['push'], remove_events: ['pull_request'] },
        want: 'valid',
      },
    ],
    ['a delivery item with a non-UUID guid', { schema: 'DeliveryItem', given: { guid: 'abc' }, want: 'invalid' }],
    [
      'a delivery detail with string-to-string request headers',
      {
        schema: 'DeliveryDetail',
        given: { id: 1, request: { headers: { 'X-Service-Event': 'issues' }, payload: {} } },
        want: 'valid',
      },
    ],
    [
      'a delivery detail with a numeric request header value',
      { schema: 'DeliveryDetail', given: { request: { headers: { 'X-Service-Hook-ID': 42 } } }, want: 'invalid' },
    ],
    [
      'a delivery detail whose response payload is an object',
      { schema: 'DeliveryDetail', given: { response: { payload: {} } }, want: 'invalid' },
    ],
  ];

  it.each(cases)('judges %s', (_name, { schema, given, want }) => {
    expect(compiled.validateAt(schemaOf(schema), given).length === 0 ? 'valid' : 'invalid').toBe(want);
  });

  it('defaults events to push on create', () => {
    expect(doc.components.schemas.CreateWebhookRequest.properties.events.default).toEqual(['push']);
  });
});
