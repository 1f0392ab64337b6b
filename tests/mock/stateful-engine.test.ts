// The stateful engine, transport-free: what a create stores a read returns, on a spec of our own that is neither
// example API (tests/mock/fixtures/notes.yaml). Every answer is also judged here by the core's exchange checks.
import { describe, expect, it } from 'vitest';
import { checkExchange } from '../../src/core/check-exchange.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { mockRefusal } from '../../src/core/mock-refusal.js';
import type { EngineAnswer } from '../../src/mock/engine/engine-answer.js';
import { answerStateful } from '../../src/mock/engine/stateful-answer.js';
import { statefulEngine, type Stateful } from '../../src/mock/engine/stateful-engine.js';
import { root } from '../helpers/paths.js';

const fixture = `${root}/tests/mock/fixtures/notes.yaml`;
const now = '2026-11-28T02:00:00.000Z';

async function sandbox(): Promise<Stateful> {
  return statefulEngine(await loadSpec(fixture), { now: () => now });
}

interface Sent {
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  key?: boolean;
}

/** Sends one request and checks the answer as `contracts check` would: no error finding, no mock refusal. */
function send(stateful: Stateful, sent: Sent): EngineAnswer & { json: unknown } {
  const [path, query = ''] = sent.path.split('?');
  const headers: Record<string, string> = { ...(sent.key === false ? {} : { 'x-api-key': 'any' }), ...sent.headers };
  if (sent.body !== undefined) headers['content-type'] ??= 'application/json';
  const body = sent.body === undefined ? '' : JSON.stringify(sent.body);
  const answer = answerStateful(stateful, { method: sent.method, path: path!, query, headers, body });
  expect(mockRefusal(answer)).toBeUndefined();
  const judged = checkExchange(stateful.engine.contract, {
    method: sent.method,
    path: path!.replace(/^\/v1/, ''),
    ...answer,
  });
  if (answer.status < 400) expect(judged.findings.filter((finding) => finding.severity === 'error')).toEqual([]);
  return { ...answer, json: answer.body === '' ? undefined : JSON.parse(answer.body) };
}

const createNote = (stateful: Stateful, title = 'First') =>
  send(stateful, { method: 'POST', path: '/notes', body: { title } });

describe('the stateful engine', () => {
  it('stores a create with its server-made fields and answers it, with Location, and a read returns it', async () => {
    const stateful = await sandbox();
    const created = createNote(stateful);
    const note = created.json as Record<string, unknown>;
    expect(created.status).toBe(201);
    expect(note).toEqual({
      id: expect.stringMatching(/^nt_[a-z0-9]{8}$/),
      title: 'First',
      archived: false,
      createdAt: now,
      updatedAt: now,
    });
    expect(created.headers.location).toBe(`/notes/${note.id}`);
    const read = send(stateful, { method: 'GET', path: `/notes/${note.id}` });
    expect([read.status, read.json, read.headers.etag]).toEqual([200, note, '"1"']);
  });

  it('keeps the base path the client used in Location', async () => {
    const stateful = await sandbox();
    const created = send(stateful, { method: 'POST', path: '/v1/notes', body: { title: 'Based' } });
    expect(created.headers.location).toBe(`/v1/notes/${(created.json as { id: string }).id}`);
  });

  it('ignores readOnly fields the client sends', async () => {
    const stateful = await sandbox();
    const created = send(stateful, {
      method: 'POST',
      path: '/notes',
      body: { title: 'T', id: 'nt_aaaaaaaa', archived: true },
    });
    expect(created.json).toMatchObject({ archived: false });
    expect((created.json as { id: string }).id).not.toBe('nt_aaaaaaaa');
  });

  it('merges a merge-patch, replaces on PUT, and deletes, each seen by the next read', async () => {
    const stateful = await sandbox();
    const { id } = createNote(stateful).json as { id: string };
    const patched = send(stateful, {
      method: 'PATCH',
      path: `/notes/${id}`,
      body: { body: 'text' },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect([patched.status, patched.json]).toEqual([
      200,
      expect.objectContaining({ id, title: 'First', body: 'text' }),
    ]);
    const replaced = send(stateful, { method: 'PUT', path: `/notes/${id}`, body: { title: 'Second' } });
    expect(replaced.json).toEqual({ id, title: 'Second', archived: false, createdAt: now, updatedAt: now });
    expect(send(stateful, { method: 'GET', path: `/notes/${id}` }).json).toEqual(replaced.json);
    expect(send(stateful, { method: 'DELETE', path: `/notes/${id}` }).status).toBe(204);
    const gone = send(stateful, { method: 'GET', path: `/notes/${id}` });
    expect([gone.status, gone.headers['content-type'], gone.json]).toEqual([
      404,
      'application/problem+json',
      expect.objectContaining({ status: 404 }),
    ]);
  });

  it.each([
    ['an unknown id', { method: 'GET', path: '/notes/nt_zzzzzzzz' }, 404],
    ['a delete of an unknown id', { method: 'DELETE', path: '/notes/nt_zzzzzzzz' }, 404],
    ['a body its schema refuses', { method: 'POST', path: '/notes', body: { title: '' } }, 422],
    ['a missing credential', { method: 'POST', path: '/notes', body: { title: 'x' }, key: false }, 401],
    ['an id that does not match its pattern', { method: 'GET', path: '/notes/42' }, 400],
    ['a comment under an unknown note', { method: 'GET', path: '/notes/nt_zzzzzzzz/comments' }, 404],
  ] as [string, Sent, number][])('refuses %s with the documented status', async (_name, sent, status) => {
    const stateful = await sandbox();
    const answer = send(stateful, sent);
    expect(answer.status).toBe(status);
    const judged = checkExchange(stateful.engine.contract, { method: sent.method, path: sent.path, ...answer });
    expect(
      judged.findings.filter((finding) => finding.severity === 'error' && finding.check !== 'status_code_conformance'),
    ).toEqual([]);
  });

  it('answers a repeated action with the documented 409, and a stale If-Match with the documented 412', async () => {
    const stateful = await sandbox();
    const { id } = createNote(stateful).json as { id: string };
    expect(send(stateful, { method: 'POST', path: `/notes/${id}/archive` }).status).toBe(200);
    expect(send(stateful, { method: 'POST', path: `/notes/${id}/archive` }).status).toBe(409);
    const etag = send(stateful, { method: 'GET', path: `/notes/${id}` }).headers.etag!;
    const patch = (ifMatch: string) =>
      send(stateful, {
        method: 'PATCH',
        path: `/notes/${id}`,
        body: { title: 'Again' },
        headers: { 'content-type': 'application/merge-patch+json', 'if-match': ifMatch },
      }).status;
    expect([patch(etag), patch(etag)]).toEqual([200, 412]);
  });

  it('lists a collection page by page through the declared cursor', async () => {
    const stateful = await sandbox();
    const ids = [1, 2, 3, 4, 5].map((n) => (createNote(stateful, `n${n}`).json as { id: string }).id);
    const seen: string[] = [];
    let cursor: string | null = '';
    for (let pages = 0; cursor !== null && pages < 10; pages++) {
      const page = send(stateful, { method: 'GET', path: `/notes?limit=2${cursor ? `&cursor=${cursor}` : ''}` });
      const json = page.json as { data: { id: string }[]; next_cursor: string | null };
      seen.push(...json.data.map((note) => note.id));
      cursor = json.next_cursor;
    }
    expect(seen).toEqual(ids);
  });

  it('lists nested items by page numbers with a Link to the next page', async () => {
    const stateful = await sandbox();
    const { id } = createNote(stateful).json as { id: string };
    const comments = [1, 2, 3].map(
      (n) => send(stateful, { method: 'POST', path: `/notes/${id}/comments`, body: { text: `c${n}` } }).json,
    );
    expect(comments).toEqual([
      { id: 1, text: 'c1' },
      { id: 2, text: 'c2' },
      { id: 3, text: 'c3' },
    ]);
    const first = send(stateful, { method: 'GET', path: `/notes/${id}/comments?per_page=2` });
    expect([first.json, first.headers.link]).toEqual([
      comments.slice(0, 2),
      `</notes/${id}/comments?per_page=2&page=2>; rel="next"`,
    ]);
    const second = send(stateful, { method: 'GET', path: `/notes/${id}/comments?per_page=2&page=2` });
    expect([second.json, second.headers.link]).toEqual([comments.slice(2), undefined]);
    expect(send(stateful, { method: 'GET', path: `/notes/${id}/comments/2` }).json).toEqual(comments[1]);
  });

  it('refuses a JSON Patch where the spec documents merge-patch only, as the documented 422', async () => {
    const stateful = await sandbox();
    const { id } = createNote(stateful).json as { id: string };
    const jsonPatch = (operations: unknown) =>
      answerStateful(stateful, {
        method: 'PATCH',
        path: `/notes/${id}`,
        query: '',
        headers: { 'x-api-key': 'k', 'content-type': 'application/json-patch+json' },
        body: JSON.stringify(operations),
      });
    // The fixture documents merge-patch only: a JSON Patch is a media type the spec refuses.
    expect(jsonPatch([{ op: 'replace', path: '/title', value: 'x' }]).status).toBe(422);
  });
});

describe('the stateful engine on the planted orders spec', () => {
  it('creates with PUT (201), then replaces (200), with ETags in the form its header schema asks and 412 when stale', async () => {
    const stateful = statefulEngine(await loadSpec(`${root}/tests/fixtures/planted/orders/openapi.yaml`));
    const put = (ifMatch?: string) =>
      answerStateful(stateful, {
        method: 'PUT',
        path: '/documents/plan-2027',
        query: '',
        headers: {
          authorization: 'Bearer t',
          'content-type': 'application/json',
          ...(ifMatch ? { 'if-match': ifMatch } : {}),
        },
        body: JSON.stringify({ title: 'Plan' }),
      });
    const created = put();
    expect([created.status, created.headers.etag]).toEqual([201, expect.stringMatching(/^"v[0-9]+"$/)]);
    const replaced = put(created.headers.etag);
    expect([replaced.status, replaced.headers.etag === created.headers.etag]).toEqual([200, false]);
    expect(put(created.headers.etag).status).toBe(412);
  });
});
