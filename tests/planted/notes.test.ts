// Planted-bug service A (notes): its twin conforms to its spec, and each planted bug is real: a short request
// sequence shows it with the bug on and not in the twin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PlantedService, plantedCall, startPlanted } from '../helpers/planted.js';
import { runCli } from '../helpers/run-cli.js';

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
const sequences: [string, { run: (base: string) => Promise<unknown>; twin: unknown; planted: unknown }][] = [
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

describe('the planted notes service', () => {
  let twin: PlantedService;
  beforeAll(async () => {
    twin = await startPlanted('notes');
  });
  afterAll(() => twin.stop());

  it('has a spec our linter finds clean', async () => {
    const result = await runCli(['lint', twin.specPath]);
    expect({ code: result.code, summary: result.stderr.trim().split('\n').at(-1) }).toEqual({
      code: 0,
      summary: '1 spec linted: 0 errors, 0 warnings',
    });
  }, 60_000);

  it('as the twin, answers every example of its spec as documented (fuzz --phases examples exits 0)', async () => {
    const result = await runCli(['fuzz', '--api', 'notes', '--base-url', twin.url, '--phases', 'examples', '--quiet'], {
      cwd: twin.dir,
      env: twin.env,
    });
    expect({ code: result.code, stderr: result.stderr }).toMatchObject({ code: 0 });
    expect(result.stdout).toContain('0 failed');
  }, 60_000);

  it.each(sequences)('shows %s to its request sequence only with that bug on', async (bug, sequence) => {
    const planted = await startPlanted('notes', [bug]);
    try {
      expect({ twin: await sequence.run(twin.url), planted: await sequence.run(planted.url) }).toEqual({
        twin: sequence.twin,
        planted: sequence.planted,
      });
    } finally {
      await planted.stop();
    }
  });

  it('refuses an unknown bug name instead of starting as the twin', async () => {
    await expect(startPlanted('notes', ['no_such_bug'])).rejects.toThrow(/unknown planted bug: no_such_bug/);
  });
});
