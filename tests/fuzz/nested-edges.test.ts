// Edge values inside array items and nested objects, not only in top-level fields: the Unleash server died on a NUL
// inside an array item of an export body, a value the run never sent. Within the default budget (25 cases per
// phase) the boundaries phase puts each edge kind into the array item's field and the nested object's field, and
// each such case is valid by the compiled validators (a NUL is a JSON string like any other).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSpec } from '../../src/core/compile-spec.js';
import { parseSpec } from '../../src/core/load-spec.js';
import { classify } from '../../src/fuzz/executor.js';
import { boundariesPhase, randomArbitrary, type Generator } from '../../src/fuzz/generate-cases.js';
import { operationModels } from '../../src/fuzz/request-model.js';

const spec = parseSpec(
  'export.yaml',
  `openapi: 3.1.0
info: { title: export, version: "1" }
paths:
  /export:
    post:
      operationId: exportFeatures
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [items]
              properties:
                items:
                  type: array
                  items:
                    type: object
                    required: [name]
                    properties:
                      name: { type: string }
                      count: { type: integer, format: int64 }
                meta:
                  type: object
                  properties:
                    owner: { type: object, properties: { label: { type: string } } }
      responses: { "200": { description: ok } }
`,
);
const model = operationModels(spec)[0]!;
const compiled = compileSpec(spec);
const generator: Generator = { api: 'export', document: spec.document, model };
const defaultBudget = 25;

describe('edge values in nested fields', () => {
  const kept = boundariesPhase(generator).slice(0, defaultBudget);
  const bodies = kept.map((fuzzCase) => fuzzCase.request.body);

  it.each([
    ['a NUL in an array item', { items: [{ name: 'a\u0000b' }] }],
    ['an empty string in an array item', { items: [{ name: '' }] }],
    ['a very long string in an array item', { items: [{ name: 'x'.repeat(4096) }] }],
    ['a character outside ASCII in an array item', { items: [{ name: 'é' }] }],
    ['an int32 edge in an array item', { items: [{ name: 'a', count: 2 ** 31 - 1 }] }],
    ['a NUL in a nested object', { items: [], meta: { owner: { label: 'a\u0000b' } } }],
    ['a very long string in a nested object', { items: [], meta: { owner: { label: 'x'.repeat(4096) } } }],
  ])('sends %s within the default budget', (_name, body) => {
    expect(bodies).toContainEqual(body);
  });

  it('says which field each such case varies, and the validators take it as valid', () => {
    const nul = kept.filter((fuzzCase) => JSON.stringify(fuzzCase.request.body).includes('\\u0000'));
    expect(nul.map(({ note, phase, intent, request }) => ({ note, phase, intent, request }))).toEqual([
      {
        note: 'body/items/0/name = "a\\u0000b"',
        phase: 'boundaries',
        intent: 'derive',
        request: { path: {}, query: {}, headers: {}, body: { items: [{ name: 'a\u0000b' }] } },
      },
      {
        note: 'body/meta/owner/label = "a\\u0000b"',
        phase: 'boundaries',
        intent: 'derive',
        request: { path: {}, query: {}, headers: {}, body: { items: [], meta: { owner: { label: 'a\u0000b' } } } },
      },
    ]);
    for (const fuzzCase of nul) expect(classify(model, compiled, fuzzCase.request).verdict).toBe('positive');
  });

  it('draws edge strings inside array items in the random phase too', () => {
    const drawn = fc.sample(randomArbitrary(generator), { numRuns: 200, seed: 7 });
    const names = drawn.flatMap((fuzzCase) =>
      ((fuzzCase.request.body as { items?: { name?: unknown }[] }).items ?? []).map((item) => item.name),
    );
    expect(names).toContain('a\u0000b');
  });
});
