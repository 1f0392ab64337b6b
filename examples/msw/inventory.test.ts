// A client's test with a stateful mock of the inventory API in-process (msw): what the test creates, the next read
// returns, and a request the spec refuses gets the spec's own refusal. Run:
//   npx vitest run --config examples/msw/vitest.config.ts
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { handlers } from 'contracts-kit/msw';

const api = handlers('examples/inventory/openapi.yaml', { baseUrl: 'http://inventory.test' });
const server = setupServer(...api);
const headers = { 'x-inventory-key': 'any-value', 'content-type': 'application/json' };

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
beforeEach(() => api.reset());
afterAll(() => server.close());

it('stores what a create sends, and a read returns it', async () => {
  const created = await fetch('http://inventory.test/items', {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'washers', quantity: 40 }),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: number };
  const read = await fetch(`http://inventory.test/items/${id}`, { headers });
  expect(await read.json()).toEqual({ id, name: 'washers', quantity: 40 });
});

it("answers a request the spec refuses with the spec's own status", async () => {
  const refused = await fetch('http://inventory.test/items', {
    method: 'POST',
    headers,
    body: JSON.stringify({ quantity: -1 }),
  });
  expect(refused.status).toBe(400);
  expect((await fetch('http://inventory.test/items')).status).toBe(401);
});
