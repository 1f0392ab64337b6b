// The library's startSandbox({ spec, hooks }): hooks given as an object run around the stateful engine (ctx.store
// reads what a create stored), and an object naming an operationId the spec does not have is refused at start.
import { afterAll, describe, expect, it } from 'vitest';
import { type Sandbox, type SandboxHooks, startSandbox } from '../../../src/index.js';
import { root } from '../../helpers/paths.js';

const spec = `${root}/tests/fixtures/planted/notes/openapi.yaml`;
const started: Sandbox[] = [];
afterAll(async () => {
  for (const sandbox of started) await sandbox.stop();
});

describe('startSandbox({ spec, hooks })', () => {
  it('runs the hooks given as an object, with the store', async () => {
    const hooks: SandboxHooks = {
      deleteNote: {
        before(ctx) {
          const note = ctx.store.get('Note', ctx.request.params.noteId!);
          if (note?.pinned !== true) return;
          const body = { type: 'about:blank', title: 'Pinned', status: 404 };
          return { status: 404, headers: { 'content-type': 'application/problem+json' }, body };
        },
      },
    };
    const sandbox = await startSandbox({ spec, hooks, port: 0 });
    started.push(sandbox);
    const headers = { authorization: 'Bearer t', 'content-type': 'application/json' };
    const created = await fetch(`${sandbox.url}/notes`, {
      method: 'POST',
      headers,
      body: '{"title":"Keep","pinned":true}',
    });
    const { id } = (await created.json()) as { id: string };
    const refused = await fetch(`${sandbox.url}/notes/${id}`, { method: 'DELETE', headers });
    expect([refused.status, await refused.json()]).toEqual([
      404,
      { type: 'about:blank', title: 'Pinned', status: 404 },
    ]);
    expect((await fetch(`${sandbox.url}/notes/${id}`)).status).toBe(200);
  });

  it("runs an answer's commit only when that answer is served as given", async () => {
    const [good, bad] = ['note_aaaaaaaaaaaa', 'note_bbbbbbbbbbbb'];
    const committed: string[] = [];
    const hooks: SandboxHooks = {
      getNote: {
        before(ctx) {
          const id = ctx.request.params.noteId!;
          const at = '2026-01-01T00:00:00Z';
          const note = {
            id,
            title: 'Made by a hook',
            body: '',
            tags: [],
            pinned: false,
            created_at: at,
            updated_at: at,
          };
          // A 200 whose body the spec refuses (no title), then one it accepts: each with its change to commit.
          const body = id === good ? note : { id };
          return { status: 200, body, commit: () => void committed.push(id) };
        },
      },
    };
    const sandbox = await startSandbox({ spec, hooks, port: 0 });
    started.push(sandbox);
    const refused = await fetch(`${sandbox.url}/notes/${bad}`, { headers: { authorization: 'Bearer t' } });
    expect([refused.status, refused.headers.get('contracts-mock')]).toEqual([500, 'no-valid-answer']);
    const served = await fetch(`${sandbox.url}/notes/${good}`, { headers: { authorization: 'Bearer t' } });
    expect([served.status, ((await served.json()) as { title: string }).title]).toEqual([200, 'Made by a hook']);
    expect(committed).toEqual([good]);
  });

  it('refuses hooks for an operationId the spec does not have', async () => {
    await expect(startSandbox({ spec, hooks: { makeNote: {} }, port: 0 })).rejects.toThrow(
      'the sandbox hooks given: "makeNote" is no operationId of the spec (its operationIds: listNotes, createNote, getNote, deleteNote, updateNote)',
    );
  });
});
