// Issue #47 (speed): what the stateful engine can decide at load or once per change is not done again per request.
// A create serialises its item once (stored with it, store.ts) and a read serves that text as stored; a primitive
// server-made value is not deep-copied; the clock formats now once per millisecond; a Location is filled from its
// item path split at load. Counted on the global functions themselves, so any extra call shows.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadSpec } from '../../../src/core/load-spec.js';
import { engineAnswer } from '../../../src/mock/engine/dynamic-answer.js';
import { clock, pathFiller, statefulEngine, type Stateful } from '../../../src/mock/engine/stateful-engine.js';
import { root } from '../../helpers/paths.js';

const spec = `${root}/tests/fixtures/planted/notes/openapi.yaml`;
const auth = { authorization: 'Bearer any' };
const note = JSON.stringify({ title: 'Groceries', body: 'Milk, eggs', tags: ['home'], pinned: false });

function create(stateful: Stateful) {
  return engineAnswer(stateful, {
    method: 'POST',
    path: '/notes',
    query: '',
    headers: { ...auth, 'content-type': 'application/json' },
    body: note,
  });
}

function read(stateful: Stateful, id: string) {
  return engineAnswer(stateful, { method: 'GET', path: `/notes/${id}`, query: '', headers: {}, body: '' });
}

/** Calls of `name` on `owner` while `run` runs, with what `run` returned. */
function counted<T>(owner: object, name: string, run: () => T): { calls: number; result: T } {
  const spy = vi.spyOn(owner as Record<string, () => unknown>, name);
  try {
    const result = run();
    return { calls: spy.mock.calls.length, result };
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe('the stateful engine per request', () => {
  it('serialises a created item once and serves a read of it as stored, serialising nothing', async () => {
    const stateful = statefulEngine(await loadSpec(spec));
    // The first answer of each operation and status is made (and its template read) once: not counted here.
    read(stateful, (JSON.parse(create(stateful).body) as { id: string }).id);
    const made = counted(JSON, 'stringify', () => create(stateful));
    const { id } = JSON.parse(made.result.body) as { id: string };
    const served = counted(JSON, 'stringify', () => read(stateful, id));
    expect({ create: made.calls, read: served.calls, status: served.result.status }).toEqual({
      create: 1,
      read: 0,
      status: 200,
    });
    expect(served.result.body).toBe(made.result.body);
    expect(served.result.body).toBe(stateful.store.get('Note', id)?.text);
  });

  it('fills a primitive server-made value without deep-copying it', async () => {
    const stateful = statefulEngine(await loadSpec(spec));
    create(stateful);
    const made = counted(globalThis, 'structuredClone', () => create(stateful));
    expect({ status: made.result.status, clones: made.calls }).toEqual({ status: 201, clones: 0 });
  });

  it('formats now once per millisecond and again when the millisecond changes', () => {
    let time = Date.parse('2026-01-02T03:04:05.006Z');
    vi.spyOn(Date, 'now').mockImplementation(() => time);
    const now = clock();
    const formatted = counted(Date.prototype, 'toISOString', () => [now(), now(), ((time += 1), now()), now()]);
    expect(formatted).toEqual({
      calls: 2,
      result: [
        '2026-01-02T03:04:05.006Z',
        '2026-01-02T03:04:05.006Z',
        '2026-01-02T03:04:05.007Z',
        '2026-01-02T03:04:05.007Z',
      ],
    });
  });

  it.each<{ template: string; values: Record<string, string>; path: string }>([
    { template: '/notes/{noteId}', values: { noteId: 'note_abc' }, path: '/notes/note_abc' },
    { template: '/notes/{noteId}', values: { noteId: 'a b/c?' }, path: '/notes/a%20b%2Fc%3F' },
    { template: '/shelves/{shelf}/books/{book}', values: { shelf: '7', book: 'x' }, path: '/shelves/7/books/x' },
    { template: '/{a}{b}.json', values: { a: '1', b: '2' }, path: '/12.json' },
    { template: '/notes/{noteId}', values: {}, path: '/notes/' },
    { template: '/health', values: { noteId: 'x' }, path: '/health' },
  ])('fills $template with each value percent-encoded as a path segment: $path', ({ template, values, path }) => {
    expect(pathFiller(template)(values)).toBe(path);
  });

  it('answers a create with the Location of its item, filled from the item path', async () => {
    const stateful = statefulEngine(await loadSpec(spec));
    const made = create(stateful);
    const { id } = JSON.parse(made.body) as { id: string };
    expect({ status: made.status, location: made.headers.location }).toEqual({ status: 201, location: `/notes/${id}` });
  });
});
