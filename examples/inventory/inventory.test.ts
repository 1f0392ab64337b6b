// The vitest matchers in a test of your own: each answer of the running service is checked against its spec.
// Run with the service up (node examples/inventory/server.mjs) and the config that names it:
//   CONTRACTS_CONFIG=examples/inventory/contracts.config.yaml npx vitest run --config examples/inventory/vitest.config.ts
import 'contracts-kit/vitest';
import { expect, it } from 'vitest';

const base = process.env.INVENTORY_URL ?? 'http://127.0.0.1:4040';
const headers = { 'x-inventory-key': process.env.INVENTORY_KEY ?? '', 'content-type': 'application/json' };

it('answers a new item and the list as the spec says', async () => {
  const created = await fetch(`${base}/items`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'washers', quantity: 40 }),
  });
  await expect(created).toSatisfyContract({ api: 'inventory', method: 'POST' });
  const { id } = (await created.json()) as { id: number };
  await expect(await fetch(`${base}/items`, { headers })).toSatisfyContract({ api: 'inventory', method: 'GET' });
  const item = await fetch(`${base}/items/${id}`, { headers });
  await expect(item).toSatisfyContract({ api: 'inventory', operationId: 'getItem' });
  await expect(await item.json()).toMatchSchema({ api: 'inventory', schema: 'Item' });
});

it('refuses a request without the key with a documented 401', async () => {
  await expect(await fetch(`${base}/items`)).toSatisfyContract({ api: 'inventory', method: 'GET' });
});
