// OpenAPI 3.2 documents read as written: the QUERY method and additionalOperations in the operation index, a
// querystring parameter as the form fields it names, and the 3.1 view the outside tools get.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../../src/core/load-spec.js';
import { specFromDocument } from '../../../src/core/document-spec.js';
import { openApi31View } from '../../../src/core/oas32/openapi-31-view.js';
import { indexOperations, matchOperation } from '../../../src/core/operation-index.js';
import { operationModels } from '../../../src/core/request-model.js';
import { root } from '../../helpers/paths.js';

const fixture = path.join(root, 'tests/fixtures/oas32/streams-3.2.yaml');
const info = { title: 't', version: '1' };
const ok = { responses: { '200': { description: 'ok' } } };

describe('an OpenAPI 3.2 document', () => {
  it('indexes the query method and additional operations with where each is written', async () => {
    const spec = await loadSpec(fixture);
    const operations = indexOperations(spec.document).map((op) => [op.operationId, op.method, op.path, op.itemPath]);
    expect(operations).toEqual([
      ['listItems', 'get', ['paths', '/items', 'get'], ['paths', '/items']],
      ['queryItems', 'query', ['paths', '/items', 'query'], ['paths', '/items']],
      ['getItem', 'get', ['paths', '/items/{id}', 'get'], ['paths', '/items/{id}']],
      ['copyItem', 'copy', ['paths', '/items/{id}', 'additionalOperations', 'COPY'], ['paths', '/items/{id}']],
      ['searchItems', 'get', ['paths', '/search', 'get'], ['paths', '/search']],
      ['exportItems', 'get', ['paths', '/items.jsonl', 'get'], ['paths', '/items.jsonl']],
      ['watchItems', 'get', ['paths', '/events', 'get'], ['paths', '/events']],
    ]);
  });

  it.each([
    ['QUERY', '/items', 'queryItems'],
    ['COPY', '/items/7', 'copyItem'],
    ['GET', '/items/7', 'getItem'],
  ])('matches a %s %s request to %s', async (method, concrete, operationId) => {
    const spec = await loadSpec(fixture);
    expect(matchOperation(indexOperations(spec.document), method, concrete)?.operation.operationId).toBe(operationId);
  });

  it('reads no query method or additional operation in a 3.1 document, where they are no Path Item fields', () => {
    const spec = specFromDocument('doc', {
      openapi: '3.1.0',
      info,
      paths: { '/a': { get: ok, query: ok, additionalOperations: { COPY: ok } } },
    });
    expect(indexOperations(spec.document).map((op) => op.operationId)).toEqual(['GET /a']);
  });

  it('does not read an additional operation for a method a fixed field names', () => {
    const spec = specFromDocument('doc', {
      openapi: '3.2.0',
      info,
      paths: { '/a': { get: ok, additionalOperations: { GET: { ...ok, operationId: 'other' }, 'BAD METHOD': ok } } },
    });
    expect(indexOperations(spec.document).map((op) => op.operationId)).toEqual(['GET /a']);
  });

  it('reads a querystring parameter as the form fields its schema names', async () => {
    const spec = await loadSpec(fixture);
    const search = operationModels(spec).find((model) => model.operationId === 'searchItems')!;
    const at = ['paths', '/search', 'get', 'parameters', 0, 'content', 'application/x-www-form-urlencoded', 'schema'];
    expect(search.params).toEqual([
      {
        name: 'q',
        in: 'query',
        required: true,
        schema: { type: 'string', minLength: 1, maxLength: 20 },
        schemaPath: [...at, 'properties', 'q'],
        examples: [],
      },
      {
        name: 'limit',
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 1, maximum: 10 },
        schemaPath: [...at, 'properties', 'limit'],
        examples: [],
      },
    ]);
  });

  it('says no request can be made for a required querystring that is not a form it reads', () => {
    const spec = specFromDocument('doc', {
      openapi: '3.2.0',
      info,
      paths: {
        '/a': {
          get: {
            ...ok,
            parameters: [
              { name: 'q', in: 'querystring', required: true, content: { 'application/json': { schema: {} } } },
            ],
          },
        },
      },
    });
    expect(operationModels(spec).map((model) => [model.params, model.bodyUnsendable])).toEqual([
      [
        [],
        'the required querystring parameter "q" is not a form whose schema names its fields: no query string can be generated for it',
      ],
    ]);
  });

  it('gives the outside tools a 3.1 view without what only 3.2 can say', async () => {
    const spec = await loadSpec(fixture);
    const view = openApi31View(spec.document) as Record<string, any>;
    expect(view.openapi).toBe('3.1.1');
    expect(view.$self).toBeUndefined();
    expect(view.tags).toEqual([{ name: 'items' }, { name: 'streams' }]);
    expect(view.servers).toEqual([{ url: 'http://localhost:4010' }]);
    expect(Object.keys(view.paths['/items'])).toEqual(['get']);
    expect(Object.keys(view.paths['/items/{id}'])).toEqual(['parameters', 'get']);
    expect(view.paths['/search'].get.parameters).toEqual([]);
    expect(view.paths['/items.jsonl'].get.responses['200'].content).toEqual({ 'application/jsonl': {} });
    expect(view.components.securitySchemes.device.flows).toEqual({});
    // The document itself is not changed.
    expect(spec.document.$self).toBe('https://example.test/openapi/streams.yaml');
  });
});
