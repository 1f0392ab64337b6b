// Planted-bug service C (orders: documents created by PUT with ETags, orders with a cancel action): its twin conforms
// to its spec, and each planted bug is real: a short request sequence shows it with the bug on and not in the twin.
import { describe, expect, it } from 'vitest';
import { plantedCall, startPlanted } from '../helpers/planted.js';
import { type BugSequence, describePlanted } from '../helpers/planted-suite.js';

const bearer = { authorization: 'Bearer planted-token' };
let documents = 0;

/** A document id no other sequence of this file uses. */
const freshId = () => `doc-${process.pid}-${++documents}`;

const sequences: [string, BugSequence][] = [
  [
    'conflict_documented',
    {
      run: async (base) => {
        const order = await plantedCall(base, 'POST', '/orders', {
          json: { item: 'pencil', quantity: 3 },
          headers: bearer,
        });
        const cancel = () => plantedCall(base, 'POST', `/orders/${order.body.id}/cancel`, { headers: bearer });
        const first = await cancel();
        const second = await cancel();
        return [order.status, first.status, first.body.status, second.status];
      },
      twin: [201, 200, 'cancelled', 409],
      planted: [201, 200, 'cancelled', 200],
    },
  ],
  [
    'read_after_write',
    {
      run: async (base) => {
        const path = `/documents/${freshId()}`;
        const made = await plantedCall(base, 'PUT', path, { json: { title: 'first' }, headers: bearer });
        const headers = { ...bearer, 'if-match': made.headers.get('etag') ?? '' };
        const replaced = await plantedCall(base, 'PUT', path, { json: { title: 'second' }, headers });
        const read = await plantedCall(base, 'GET', path, { headers: bearer });
        return [made.status, replaced.status, replaced.body.title, read.body.title];
      },
      twin: [201, 200, 'second', 'second'],
      planted: [201, 200, 'second', 'first'],
    },
  ],
  [
    'missing_header',
    {
      run: async (base) => {
        const made = await plantedCall(base, 'PUT', `/documents/${freshId()}`, {
          json: { title: 't' },
          headers: bearer,
        });
        return [made.status, made.headers.get('etag')];
      },
      twin: [201, '"v1"'],
      planted: [201, null],
    },
  ],
  [
    'server_error',
    {
      run: async (base) => {
        const id = `${freshId()}-`.padEnd(64, 'x');
        return (await plantedCall(base, 'PUT', `/documents/${id}`, { json: { title: 't' }, headers: bearer })).status;
      },
      twin: 201,
      planted: 500,
    },
  ],
];

describePlanted('orders', sequences);

describe('the planted orders twin', () => {
  it('answers a stale If-Match with 412 and keeps the document (RFC 9110 §13.1.1)', async () => {
    const twin = await startPlanted('orders');
    try {
      const path = `/documents/${freshId()}`;
      const made = await plantedCall(twin.url, 'PUT', path, { json: { title: 'first' }, headers: bearer });
      const stale = { ...bearer, 'if-match': '"v0"' };
      const put = await plantedCall(twin.url, 'PUT', path, { json: { title: 'second' }, headers: stale });
      const deleted = await plantedCall(twin.url, 'DELETE', path, { headers: stale });
      const read = await plantedCall(twin.url, 'GET', path, { headers: bearer });
      expect([made.headers.get('etag'), put.status, deleted.status, read.status, read.body.title]).toEqual([
        '"v1"',
        412,
        412,
        200,
        'first',
      ]);
    } finally {
      await twin.stop();
    }
  });
});
