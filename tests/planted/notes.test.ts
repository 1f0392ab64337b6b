// Planted-bug service A (notes): its twin conforms to its spec, and each planted bug is real: a short request
// sequence shows it with the bug on and not in the twin.
import { expect } from 'vitest';
import { plantedCall } from '../helpers/planted.js';
import { type BugSequence, describePlanted } from '../helpers/planted-suite.js';

const bearer = { authorization: 'Bearer planted-token' };
const key = { 'x-api-key': 'planted-key' };

async function create(base: string, title = 'a note') {
  const made = await plantedCall(base, 'POST', '/notes', { json: { title }, headers: key });
  expect(made.status).toBe(201);
  return made.body.id as string;
}

/** Every id the list shows, following next_cursor with `limit` notes a page (at most 50 pages). */
async function pageIds(base: string, limit: number) {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 50; page++) {
    const query: string = cursor === null ? `?limit=${limit}` : `?limit=${limit}&cursor=${cursor}`;
    const answer = await plantedCall(base, 'GET', `/notes${query}`, { headers: bearer });
    ids.push(...answer.body.items.map((note: { id: string }) => note.id));
    cursor = answer.body.next_cursor;
    if (cursor === null) break;
  }
  return ids;
}

// [bug, the sequence that shows it: what it observes, in the twin, with the bug on]
const sequences: [string, BugSequence][] = [
  [
    'read_after_write',
    {
      run: async (base) => {
        const id = await create(base, 'before');
        const patch = { json: { title: 'after' }, type: 'application/merge-patch+json', headers: bearer };
        const patched = await plantedCall(base, 'PATCH', `/notes/${id}`, patch);
        const read = await plantedCall(base, 'GET', `/notes/${id}`);
        return [patched.status, patched.body.title, read.body.title];
      },
      twin: [200, 'after', 'after'],
      planted: [200, 'after', 'before'],
    },
  ],
  [
    'paging_consistent',
    {
      run: async (base) => {
        const made = [await create(base), await create(base), await create(base), await create(base)];
        const seen = await pageIds(base, 2);
        return { repeats: seen.length > new Set(seen).size, all: made.every((id) => seen.includes(id)) };
      },
      twin: { repeats: false, all: true },
      planted: { repeats: true, all: true },
    },
  ],
  [
    'ignored_auth',
    {
      run: async (base) => {
        const id = await create(base);
        const stranger = await plantedCall(base, 'DELETE', '/notes/note_aaaaaaaaaaaa');
        const anonymous = await plantedCall(base, 'DELETE', `/notes/${id}`);
        const read = await plantedCall(base, 'GET', `/notes/${id}`);
        return [stranger.status, anonymous.status, read.status];
      },
      twin: [401, 401, 200],
      planted: [401, 204, 404],
    },
  ],
  [
    'wrong_type',
    {
      run: async (base) => typeof (await plantedCall(base, 'GET', `/notes/${await create(base)}`)).body.pinned,
      twin: 'boolean',
      planted: 'string',
    },
  ],
  [
    'server_error',
    {
      run: async (base) => (await plantedCall(base, 'POST', '/notes', { json: { title: '' }, headers: key })).status,
      twin: 201,
      planted: 500,
    },
  ],
];

describePlanted('notes', sequences);
