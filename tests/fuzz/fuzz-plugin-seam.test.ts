// The fuzz seam (src/fuzz/fuzz-plugin.ts): what an API's plug-in binds is bound for any API it is handed for, by
// name of nothing; an API without a plug-in has every parameter generated, `owner` and `repo` included.
import { describe, expect, it } from 'vitest';
import type { FuzzCase } from '../../src/fuzz/fuzz-case.js';
import type { FuzzFixtures, FuzzPlugin } from '../../src/fuzz/fuzz-plugin.js';
import { baseRequest } from '../../src/fuzz/generate-cases.js';
import { RequestBinder } from '../../src/fuzz/request-binding.js';
import type { OperationModel } from '../../src/fuzz/request-model.js';

const param = (name: string) => ({
  name,
  in: 'path' as const,
  required: true,
  schema: { type: 'string' },
  schemaPath: [],
  examples: [],
});

/** PUT /repos/{owner}/{repo}/shelves/{shelfId} of some API. */
const model = {
  operationId: 'putShelf',
  method: 'PUT',
  pathTemplate: '/repos/{owner}/{repo}/shelves/{shelfId}',
  params: [param('owner'), param('repo'), param('shelfId')],
  apiKeyHeaders: [],
} as unknown as OperationModel;

const fuzzCase = (api: string): FuzzCase => ({
  api,
  operationId: 'putShelf',
  phase: 'examples',
  request: { path: {}, query: {}, headers: {} },
  note: 'n',
  intent: 'derive',
});

/** A plug-in of the API "shop" whose fixtures made shelf 7. */
const shop: FuzzPlugin = { isBound: (p) => p.name === 'shelfId' };
const fixtures = { bindings: () => ({ shelfId: 7 }), bindBody: () => undefined } as unknown as FuzzFixtures;
const plugins = (api: string) => (api === 'shop' ? shop : undefined);
const binder = new RequestBinder(
  { credentials: {}, plugins },
  { fixturesOf: (api) => (api === 'shop' ? fixtures : undefined) },
);

describe('the fuzz plug-in seam', () => {
  it.each([
    ['shop', { shelfId: 7 }],
    ['orders', {}],
  ])('binds what the plug-in of %s binds, and nothing else', (api, bound) => {
    expect(binder.bind(model, fuzzCase(api)).path).toEqual(bound);
  });

  it("generates every path parameter, owner and repo included, of an API without a plug-in (GitHub's)", () => {
    const request = baseRequest({ api: 'github', document: {}, model });
    expect(Object.keys(request.path).sort()).toEqual(['owner', 'repo', 'shelfId']);
  });

  it('leaves to the plug-in the parameters it binds', () => {
    const request = baseRequest({ api: 'shop', document: {}, model, plugin: shop });
    expect(Object.keys(request.path).sort()).toEqual(['owner', 'repo']);
  });
});
