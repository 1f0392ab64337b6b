// Fuzz's judge of a generated request, violations(), reads each parameter as the request check does: by its style
// and schema (OpenAPI 3.1 section 4.8.12.4), from the text the executor sends (styledWire). So a case fuzz sends as valid, the
// check calls valid, and the other way round.
import { describe, expect, it } from 'vitest';
import { compileSpec } from '../../src/core/compile-spec.js';
import { parseSpec } from '../../src/core/load-spec.js';
import { operationModels, styledWire, violations, type RequestData } from '../../src/core/request-model.js';

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
            { name: 'ids', in: 'query', schema: { type: 'array', items: { $ref: '#/components/schemas/Id' } } },
            { name: 'X-Sizes', in: 'header', schema: { type: 'array', items: { type: 'integer' }, maxItems: 2 } },
          ],
          responses: { '200': { description: 'ok' } },
        },
      },
    },
    components: { schemas: { Id: { type: 'integer' } } },
  }),
);
const compiled = compileSpec(spec);
const model = operationModels(spec)[0]!;
const request = (path: string, query: RequestData['query'] = {}, headers: RequestData['headers'] = {}) => ({
  path: { color: path },
  query,
  headers,
});

describe('violations, by parameter style', () => {
  it.each([
    ['a label path value (sent with its dot)', request('blue'), []],
    ['one value of a form-exploded query array of $ref integers', request('blue', { ids: 5 }), []],
    ['a simple header array of two integers', request('blue', {}, { 'X-Sizes': '1,2' }), []],
    [
      'a simple header array of three, over its maxItems',
      request('blue', {}, { 'X-Sizes': '1,2,3' }),
      [{ where: 'header X-Sizes', message: 'X-Sizes must NOT have more than 2 items' }],
    ],
  ])('%s', (_name, given, want) => {
    expect(violations(model, compiled, given)).toEqual(want);
  });

  // A replay's saved pairs (styledQuery) are decoded as the check does: `ids=1,x` is two items, one not an integer.
  it.each([
    ['a saved form-exploded query array of two integers', 'ids=1&ids=2', []],
    [
      'a saved form-exploded query array with an item not an integer',
      'ids=1&ids=x',
      [{ where: 'query ids', message: '/1 must be integer' }],
    ],
  ])('%s', (_name, styledQuery, want) => {
    expect(violations(model, compiled, { ...request('blue'), styledQuery })).toEqual(want);
  });
});

describe('styledWire', () => {
  it.each([
    ['a label path value', 'color', 'blue', '.blue'],
    ['one value of a form-exploded query array', 'ids', 5, [['ids', '5']]],
    ['a header array value', 'X-Sizes', 3, '3'],
  ])('sends %s in its style', (_name, name, value, want) => {
    expect(styledWire(model.params.find((param) => param.name === name)!, value)).toEqual(want);
  });
});
