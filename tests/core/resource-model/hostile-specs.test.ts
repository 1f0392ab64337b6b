// A hostile spec costs the model time linear in its size: a path longer than any API's (each of its parameters
// would look at the path up to it, n² in all) is left out and says so, and thousands of links to one operation are
// gathered in one pass.
import { describe, expect, it } from 'vitest';
import { buildResourceModel } from '../../../src/core/resource-model/build-resource-model.js';

describe('the resource model of a hostile spec', () => {
  it('leaves out a path of more than 64 segments, saying so for each of its parameters', () => {
    const names = Array.from({ length: 40 }, (_, index) => `p${index}`);
    const long = `/${names.map((name) => `s/{${name}}`).join('/')}`;
    const model = buildResourceModel({
      openapi: '3.1.0',
      paths: {
        [long]: {
          parameters: names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
          get: { operationId: 'deep', responses: { '200': { description: 'ok' } } },
          delete: { operationId: 'deepDelete', responses: { '204': { description: 'gone' } } },
        },
      },
    });
    expect(model.resources).toEqual([]);
    expect(model.operations[0]!.bindings).toEqual(
      names.map((name) => ({
        parameter: name,
        in: 'path',
        sources: [],
        unbound: 'its path has more than 64 segments: not modelled',
      })),
    );
  });

  it('gathers 20,000 links to one operation in one pass', () => {
    const links = Object.fromEntries(
      Array.from({ length: 20_000 }, (_, index) => [
        `l${index}`,
        { operationId: 'getThing', parameters: { id: '$response.body#/id' } },
      ]),
    );
    const started = performance.now();
    const model = buildResourceModel({
      openapi: '3.1.0',
      paths: {
        '/things': { post: { operationId: 'makeThing', responses: { '201': { description: 'made', links } } } },
        '/things/{id}': {
          get: {
            operationId: 'getThing',
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    });
    expect(performance.now() - started).toBeLessThan(10_000);
    const [binding] = model.operations.find((operation) => operation.operationId === 'getThing')!.bindings;
    expect(binding!.sources).toHaveLength(20_000);
    expect(binding!.sources[19_999]).toEqual({
      kind: 'link',
      operationId: 'makeThing',
      status: '201',
      link: 'l19999',
      expression: '$response.body#/id',
    });
  });
});
