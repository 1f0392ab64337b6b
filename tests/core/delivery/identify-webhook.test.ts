// Which webhook a delivery is, in an API whose config names no event header: the one webhook whose schema accepts
// the payload; none or several are said as such, and no webhook is claimed for them.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkDelivery, compileDeliveryContract, type DeliveryContract } from '../../../src/core/delivery/index.js';
import { loadSpec } from '../../../src/core/load-spec.js';
import { webhooksProject } from '../../helpers/webhooks-project.js';

let byPayload: DeliveryContract;
let byHeader: DeliveryContract;
beforeAll(async () => {
  const spec = await loadSpec(path.join(await webhooksProject(), 'shop.yaml'));
  byPayload = compileDeliveryContract(spec, { signatures: [] });
  byHeader = compileDeliveryContract(spec, { eventHeader: 'X-Shop-Topic', signatures: [] });
});

const deliver = (contract: DeliveryContract, payload: unknown, headers: Record<string, string> = {}) =>
  checkDelivery(contract, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: Buffer.from(JSON.stringify(payload)),
  });

describe('identifying a webhook', () => {
  it.each([
    [
      'a payload only orderCreated accepts',
      { type: 'order.created', order: { id: 'o', total: 1 } },
      ['orderCreated', 'orderCreated', 'by its payload, which only this webhook accepts'],
    ],
    [
      'a payload only orderRefunded accepts',
      { type: 'order.refunded', refund: { amount: 5 } },
      ['orderRefunded', 'orderRefunded', 'by its payload, which only this webhook accepts'],
    ],
  ])('tells %s by its schema', async (_name, payload, want) => {
    const result = await deliver(byPayload, payload);
    expect([result.operation, result.event, result.identified]).toEqual(want);
    expect(result.findings).toEqual([]);
  });

  it('fails a payload no webhook accepts, naming each webhook and its first error', async () => {
    const result = await deliver(byPayload, { type: 'order.created', order: { id: 'o', total: -1 } });
    expect(result.findings).toEqual([
      {
        check: 'delivery_payload_schema',
        severity: 'error',
        operation: 'delivery (no documented webhook)',
        instancePath: '',
        message: expect.stringMatching(
          /^the payload matches no webhook documenting application\/json: orderCreated \(\/order\/total .+\); orderRefunded \(.+\)$/,
        ),
      },
    ]);
    expect(result.event).toBeUndefined();
  });

  it('claims no webhook for a payload two schemas accept, and fails nothing for it', async () => {
    const dir = await webhooksProject();
    await writeFile(
      path.join(dir, 'loose.yaml'),
      ['openapi: 3.1.0', 'info: { title: Loose, version: 1.0.0 }', 'webhooks:']
        .concat(
          ['first', 'second'].flatMap((name) => [
            `  ${name}:`,
            '    post:',
            `      operationId: ${name}Received`,
            '      requestBody: { content: { application/json: { schema: { type: object } } } }',
            '      responses: { "200": { description: ok } }',
          ]),
        )
        .join('\n'),
    );
    const loose = compileDeliveryContract(await loadSpec(path.join(dir, 'loose.yaml')), { signatures: [] });
    const result = await deliver(loose, { any: 'thing' });
    expect([result.operation, result.event, result.identified]).toEqual([
      'delivery (one of first, second)',
      undefined,
      'ambiguous: the payload fits first, second; none is claimed',
    ]);
    expect(result.findings).toEqual([]);
  });

  it('names the webhook by the configured event header, and fails its payload under that webhook', async () => {
    const result = await deliver(
      byHeader,
      { type: 'order.created', order: { id: 'o', total: -1 } },
      { 'x-shop-topic': 'orderCreated' },
    );
    expect([result.operation, result.identified]).toEqual(['orderCreated', 'by X-Shop-Topic']);
    expect(result.findings.map((finding) => [finding.check, finding.operation, finding.instancePath])).toEqual([
      ['delivery_payload_schema', 'orderCreated', '/order/total'],
    ]);
  });
});
