// A case's parameters go out in their style (OpenAPI 3.1 section 4.8.12.4), as the request check reads them back:
// a label path value with its dot, a form list joined by commas, a header object as pairs. Plain parameters are
// sent as their text, byte for byte as before.
import { describe, expect, it } from 'vitest';
import { parseSpec } from '../../src/core/load-spec.js';
import { Executor, type ApiTarget, type ExecutorOptions } from '../../src/fuzz/executor.js';
import { operationModels } from '../../src/fuzz/request-model.js';

const spec = parseSpec(
  'styles.json',
  JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'styles', version: '1' },
    paths: {
      '/colors/{color}': {
        get: {
          operationId: 'getColor',
          parameters: [
            { name: 'color', in: 'path', required: true, style: 'label', schema: { type: 'string' } },
            { name: 'ids', in: 'query', explode: false, schema: { type: 'array', items: { type: 'integer' } } },
            { name: 'q', in: 'query', schema: { type: 'string' } },
            { name: 'X-Point', in: 'header', explode: true, schema: { type: 'object' } },
            { name: 'X-Plain', in: 'header', schema: { type: 'string' } },
          ],
          responses: { '200': { description: 'ok' } },
        },
      },
    },
  }),
);
const model = operationModels(spec)[0]!;
const target = { api: 'styles', baseUrl: 'http://127.0.0.1:4010' } as ApiTarget;
const executor = new Executor({} as ExecutorOptions);

describe('a case sent with styled parameters', () => {
  it('writes each in its style, and plain ones as their text', () => {
    const sent = executor.binder.toSent(target, model, {
      path: { color: 'blue' },
      query: { q: 'a b', ids: 5 },
      headers: { 'X-Point': '{"x":1,"y":2}', 'X-Plain': 'p' },
    });
    expect({ url: sent.url, headers: sent.headers }).toEqual({
      url: 'http://127.0.0.1:4010/colors/.blue?q=a+b&ids=5',
      headers: [
        ['X-Point', 'x=1,y=2'],
        ['X-Plain', 'p'],
      ],
    });
  });
});
