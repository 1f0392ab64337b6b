// Type-level tests: SandboxHooks<operations> types each hook from openapi-typescript's generated `operations`
// (here written by hand in its shape): the operationIds, the request body, the answer's body.
import { describe, expectTypeOf, it } from 'vitest';
import { defineHooks, type SandboxHooks } from '../../../src/index.js';

interface Note {
  id: string;
  title: string;
}
interface Problem {
  title: string;
  status: number;
}
interface operations {
  createNote: {
    parameters: { query?: never; path?: never };
    requestBody: { content: { 'application/json': { title: string } } };
    responses: {
      201: { headers: { [name: string]: unknown }; content: { 'application/json': Note } };
      400: { headers: { [name: string]: unknown }; content: { 'application/problem+json': Problem } };
    };
  };
  deleteNote: {
    parameters: { path: { noteId: string } };
    requestBody?: never;
    responses: { 204: { headers: { [name: string]: unknown }; content?: never } };
  };
}

describe('SandboxHooks', () => {
  it('types a hook from the generated operations', () => {
    const hooks = defineHooks<operations>({
      createNote: {
        before(ctx) {
          expectTypeOf(ctx.request.body).toEqualTypeOf<{ title: string } | undefined>();
          if (ctx.request.body?.title === '') return { status: 400, body: { title: 'Bad Request', status: 400 } };
        },
        after(ctx) {
          expectTypeOf(ctx.response.body).toMatchTypeOf<Note | Problem | undefined>();
          return { status: 201, body: { id: 'note_1', title: 'x' } };
        },
      },
      deleteNote: { before: () => undefined },
    });
    expectTypeOf(hooks).toEqualTypeOf<SandboxHooks<operations>>();
  });

  it('refuses an operationId the spec does not have and an answer of another shape', () => {
    // @ts-expect-error no such operation
    const unknownOperation: SandboxHooks<operations> = { makeNote: {} };
    const wrongBody: SandboxHooks<operations> = {
      // @ts-expect-error a body that is no Note, no Problem and no string
      createNote: { after: () => ({ status: 201, body: { id: 1 } }) },
    };
    void unknownOperation;
    void wrongBody;
  });

  it('takes any operationId without generated types', () => {
    const hooks: SandboxHooks = { anything: { before: (ctx) => void ctx.store.list('Note') } };
    void hooks;
  });
});
