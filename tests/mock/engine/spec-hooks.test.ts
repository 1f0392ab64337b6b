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

  it('refuses hooks for an operationId the spec does not have', async () => {
    await expect(startSandbox({ spec, hooks: { makeNote: {} }, port: 0 })).rejects.toThrow(
      'the sandbox hooks given: "makeNote" is no operationId of the spec (its operationIds: listNotes, createNote, getNote, deleteNote, updateNote)',
    );
  });
});
