// A scratch project whose config lists only its own API, `shop`, with OpenAPI 3.1 `webhooks` (two events whose
// payloads differ by schema) and none of this repository's example APIs: what a user's project looks like.
import { createHmac } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const shopSpec = `openapi: 3.1.0
info: { title: Shop, version: 1.0.0 }
paths: {}
webhooks:
  orderCreated:
    post:
      operationId: orderCreated
      parameters:
        - { name: X-Shop-Topic, in: header, required: false, schema: { type: string } }
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [type, order]
              properties:
                type: { const: order.created }
                order:
                  type: object
                  required: [id, total]
                  properties: { id: { type: string }, total: { type: integer, minimum: 0 } }
      responses: { '200': { description: ok } }
  orderRefunded:
    post:
      operationId: orderRefunded
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [type, refund]
              properties:
                type: { const: order.refunded }
                refund: { type: object, required: [amount], properties: { amount: { type: integer } } }
      responses: { '200': { description: ok } }
`;

/** Writes the project; `webhooks` is the API's `webhooks:` config block as YAML lines (or none). */
export async function webhooksProject(webhooks: string[] = []): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'contracts-shop-'));
  await writeFile(path.join(dir, 'shop.yaml'), shopSpec);
  await writeFile(
    path.join(dir, 'contracts.config.yaml'),
    ['apis:', '  - name: shop', '    spec: shop.yaml', ...webhooks.map((line) => `    ${line}`), ''].join('\n'),
  );
  return dir;
}

export const created = JSON.stringify({ type: 'order.created', order: { id: 'o-1', total: 120 } });

/** The three schemes' signature headers for `body`, made as each scheme's documentation says. */
export const signers = {
  hmac: (secret: string, body: string) => ({
    'X-Shop-Signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
  }),
  'standard-webhooks': (secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)) => {
    const id = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
    const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
    return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${signature}` };
  },
  stripe: (secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)) => ({
    'Stripe-Signature': `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`,
  }),
} as const;

/** Each scheme's config block, its secret (right) and another (wrong). */
export const schemes = {
  hmac: {
    config: [
      'webhooks:',
      '  signature: { scheme: hmac, header: X-Shop-Signature, prefix: "sha256=", algorithm: sha256, secretEnv: SHOP_SECRET }',
    ],
    right: 'shop-hmac-secret-4711',
    wrong: 'not-the-shop-secret-0000',
  },
  'standard-webhooks': {
    config: ['webhooks:', '  signature: { scheme: standard-webhooks, secretEnv: SHOP_SECRET }'],
    right: `whsec_${Buffer.from('standard-webhooks-key-bytes-0815').toString('base64')}`,
    wrong: `whsec_${Buffer.from('another-key-bytes-entirely-9999').toString('base64')}`,
  },
  stripe: {
    config: [
      'webhooks:',
      '  signature: { scheme: stripe, header: Stripe-Signature, secretEnv: SHOP_SECRET, tolerance: 300 }',
    ],
    right: 'whsec_stripe-endpoint-secret-1234',
    wrong: 'whsec_stripe-endpoint-secret-9876',
  },
} as const;
