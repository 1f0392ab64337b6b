// Fuzz and required readOnly properties: positives are made and judged as run-fuzz and replay do, through
// requestSide (src/fuzz/request-side.ts). OpenAPI 3.0.3 §4.7.24.1: a required readOnly property is required of
// responses only, and SHOULD NOT be sent in a request.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSpec } from '../../src/core/load-spec.js';
import { violations } from '../../src/core/request-model.js';
import { baseRequest, boundariesPhase, randomArbitrary, type Generator } from '../../src/fuzz/generate-cases.js';
import { requestSide } from '../../src/fuzz/request-side.js';

const user = {
  type: 'object',
  required: ['id', 'name', 'owner'],
  properties: {
    id: { type: 'integer', readOnly: true },
    name: { type: 'string', minLength: 1 },
    owner: { $ref: '#/components/schemas/Owner' },
  },
};
const owner = {
  type: 'object',
  required: ['ownerId', 'email'],
  properties: { ownerId: { type: 'string', readOnly: true }, email: { type: 'string' } },
};

function setUp(openapi: string) {
  const spec = parseSpec(
    `fuzz-${openapi}.json`,
    JSON.stringify({
      openapi,
      info: { title: 'users', version: '1' },
      paths: {
        '/users': {
          post: {
            operationId: 'createUser',
            requestBody: {
              required: true,
              content: { 'application/json': { schema: { $ref: '#/components/schemas/User' } } },
            },
            responses: { '201': { description: 'created' } },
          },
        },
      },
      components: { schemas: { User: user, Owner: owner } },
    }),
  );
  const { document, models, compiled } = requestSide(spec);
  const model = models[0]!;
  const generator: Generator = { api: 'users', document, model };
  return { generator, model, compiled };
}

const carriesReadOnly = (body: unknown) => {
  const value = body as { id?: unknown; owner?: { ownerId?: unknown } };
  return 'id' in value || (value.owner !== undefined && 'ownerId' in value.owner);
};

describe('fuzz positives for a schema that requires a readOnly property', () => {
  it('judges a 3.0 create without the required readOnly id (nested too) valid', () => {
    const { model, compiled } = setUp('3.0.3');
    const request = { path: {}, query: {}, headers: {}, body: { name: 'Ada', owner: { email: 'a@b.c' } } };
    expect(violations(model, compiled, request)).toEqual([]);
  });

  it('3.0: the smallest request, the boundaries and random positives leave readOnly properties out, all valid', () => {
    const { generator, model, compiled } = setUp('3.0.3');
    const base = baseRequest(generator);
    expect(base.body).toEqual({ name: 'a', owner: { email: 'a' } });
    expect(violations(model, compiled, base)).toEqual([]);
    const positives = [
      ...boundariesPhase(generator).map((fuzzCase) => fuzzCase.request),
      ...fc.sample(randomArbitrary(generator), { numRuns: 50, seed: 7 }).map((fuzzCase) => fuzzCase.request),
    ].filter((request) => request.body !== undefined && violations(model, compiled, request).length === 0);
    expect(positives.length).toBeGreaterThan(10);
    expect(positives.filter((request) => carriesReadOnly(request.body))).toEqual([]);
  });

  it('3.1: random positives need not carry the required readOnly id, and are valid without it', () => {
    const { generator, model, compiled } = setUp('3.1.0');
    const drawn = fc.sample(randomArbitrary(generator), { numRuns: 50, seed: 7 }).map((fuzzCase) => fuzzCase.request);
    const withoutId = drawn.filter((request) => !('id' in (request.body as object)));
    expect(withoutId.length).toBeGreaterThan(0);
    expect(withoutId.flatMap((request) => violations(model, compiled, request))).toEqual([]);
  });
});
