// Bodies that are not JSON, for an operation that takes JSON: the negative phase sends the valid body cut short,
// with a stray character after it, and plain text, each judged as breaking the spec by the validators (so never sent
// as anything else), and none for a form body.
import { describe, expect, it } from 'vitest';
import { compileSpec } from '../../src/core/compile-spec.js';
import { parseSpec } from '../../src/core/load-spec.js';
import { classify } from '../../src/fuzz/executor.js';
import { negativePhase } from '../../src/fuzz/generate-cases.js';
import { operationModels } from '../../src/fuzz/request-model.js';

const spec = (mediaType: string) =>
  parseSpec(
    'pets.yaml',
    `openapi: 3.1.0
info: { title: pets, version: "1" }
paths:
  /pets:
    post:
      operationId: addPet
      requestBody:
        required: true
        content:
          ${mediaType}:
            schema: { type: object, required: [name], properties: { name: { type: string } } }
      responses: { "200": { description: ok } }
`,
  );

describe('bodies that are not JSON', () => {
  it('are negative cases of a JSON body, judged as breaking the spec', () => {
    const loaded = spec('application/json');
    const model = operationModels(loaded)[0]!;
    const cases = negativePhase({ api: 'pets', document: loaded.document, model }).filter(
      (fuzzCase) => fuzzCase.request.rawBody !== undefined,
    );
    expect(cases.map(({ note, intent, request }) => ({ note, intent, request }))).toEqual([
      {
        note: 'body: not JSON: the valid body cut short',
        intent: 'negative',
        request: { path: {}, query: {}, headers: {}, rawBody: '{"name":"a"' },
      },
      {
        note: 'body: not JSON: the valid body with a stray "}" after it',
        intent: 'negative',
        request: { path: {}, query: {}, headers: {}, rawBody: '{"name":"a"}}' },
      },
      {
        note: 'body: not JSON: plain text',
        intent: 'negative',
        request: { path: {}, query: {}, headers: {}, rawBody: 'not json' },
      },
    ]);
    const compiled = compileSpec(loaded);
    for (const fuzzCase of cases)
      expect(classify(model, compiled, fuzzCase.request)).toEqual({
        verdict: 'negative',
        broken: [{ where: 'body', message: 'the body is not JSON, as its media type application/json says' }],
      });
  });

  it('are not made for a form body', () => {
    const loaded = spec('application/x-www-form-urlencoded');
    const model = operationModels(loaded)[0]!;
    const cases = negativePhase({ api: 'pets', document: loaded.document, model });
    expect(cases.filter((fuzzCase) => fuzzCase.request.rawBody !== undefined)).toEqual([]);
  });
});
