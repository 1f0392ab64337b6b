// Requests as OpenAPI defines them, on specs nobody here wrote: a path parameter is never empty (`GET /pets/` is
// another route: 64 of DigitalOcean's 90 findings were that), a value in a URL or a header stays under a sane length
// (a 152 KB URL made Discord's stand-in reset the run), a header parameter named Accept, Content-Type or
// Authorization is ignored as the spec says. (An array-typed parameter hung the whole process, so that one is tested
// on a process: tests/integration/fuzz-any-spec.test.ts.)
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSpec } from '../../src/core/load-spec.js';
import {
  boundariesPhase,
  maxWireString,
  negativePhase,
  randomArbitrary,
  type Generator,
} from '../../src/fuzz/generate-cases.js';
import { operationModels } from '../../src/fuzz/request-model.js';

const spec = parseSpec(
  'pets.yaml',
  `openapi: 3.1.0
info: { title: pets, version: "1" }
paths:
  /pets/{petId}:
    get:
      operationId: getPet
      parameters:
        - { name: petId, in: path, required: true, schema: { type: string, maxLength: 200000 } }
        - { name: q, in: query, schema: { type: string, minLength: 1, maxLength: 150000 } }
        - { name: tags, in: query, required: true, schema: { type: array, items: { type: string, enum: [a, b] } } }
        - { name: Authorization, in: header, required: true, schema: { type: string } }
        - { name: Accept, in: header, schema: { type: string, enum: [text/plain] } }
        - { name: content-type, in: header, schema: { type: string } }
        - { name: X-Trace, in: header, schema: { type: string } }
      responses: { "200": { description: ok } }
`,
);
const model = operationModels(spec)[0]!;
const generator: Generator = { api: 'pets', document: spec.document, model };

describe('parameters on the wire', () => {
  it('ignores header parameters named Accept, Content-Type and Authorization', () => {
    expect(model.params.map((param) => `${param.in}:${param.name}`)).toEqual([
      'path:petId',
      'query:q',
      'query:tags',
      'header:X-Trace',
    ]);
  });

  it('never sends an empty path parameter, and no value over the wire bound, in any phase', () => {
    const random = fc.sample(randomArbitrary(generator), { seed: 7, numRuns: 300 });
    for (const fuzzCase of [...boundariesPhase(generator), ...negativePhase(generator), ...random]) {
      expect(fuzzCase.request.path.petId, fuzzCase.note).not.toBe('');
      for (const bag of [fuzzCase.request.path, fuzzCase.request.query, fuzzCase.request.headers])
        for (const value of Object.values(bag))
          expect(String(value).length, fuzzCase.note).toBeLessThanOrEqual(maxWireString);
    }
  });
});
