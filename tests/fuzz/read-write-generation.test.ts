// Fuzz and required readOnly properties: positives are made and judged as run-fuzz and replay do, through
// requestSide (src/fuzz/request-side.ts). OpenAPI 3.0.3 §4.7.24.1: a required readOnly property is required of
// responses only, and SHOULD NOT be sent in a request.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSpec } from '../../src/core/load-spec.js';
import { violations } from '../../src/core/request-model.js';
import {
  baseRequest,
  boundariesPhase,
  negativeArbitrary,
  negativePhase,
  randomArbitrary,
  type Generator,
} from '../../src/fuzz/generate-cases.js';
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

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const carriesReadOnly = (body: unknown) =>
  isObject(body) && ('id' in body || (isObject(body.owner) && 'ownerId' in body.owner));

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

  it('3.1: the smallest request, the boundaries and random positives leave readOnly properties out, all valid', () => {
    // JSON Schema 2020-12 Validation §9.4: a server may ignore or reject a readOnly property a request carries.
    const { generator, model, compiled } = setUp('3.1.0');
    const base = baseRequest(generator);
    expect(base.body).toEqual({ name: 'a', owner: { email: 'a' } });
    const positives = [
      ...boundariesPhase(generator).map((fuzzCase) => fuzzCase.request),
      ...fc.sample(randomArbitrary(generator), { numRuns: 50, seed: 7 }).map((fuzzCase) => fuzzCase.request),
    ].filter((request) => request.body !== undefined && violations(model, compiled, request).length === 0);
    expect(positives.length).toBeGreaterThan(10);
    expect(positives.filter((request) => carriesReadOnly(request.body))).toEqual([]);
  });

  it.each(['3.0.3', '3.1.0'])('%s: no negative case puts its fault in a readOnly property', (openapi) => {
    // A server that ignores a readOnly `id` in a create conforms, so a bad `id` proves nothing about it.
    const { generator, model, compiled } = setUp(openapi);
    const negatives = [
      ...boundariesPhase(generator).map((fuzzCase) => fuzzCase.request),
      ...negativePhase(generator).map((fuzzCase) => fuzzCase.request),
      ...fc.sample(negativeArbitrary(generator), { numRuns: 100, seed: 7 }).map((fuzzCase) => fuzzCase.request),
    ].filter((request) => violations(model, compiled, request).length > 0);
    expect(negatives.length).toBeGreaterThan(10);
    expect(negatives.filter((request) => request.body !== undefined && carriesReadOnly(request.body))).toEqual([]);
  });
});
