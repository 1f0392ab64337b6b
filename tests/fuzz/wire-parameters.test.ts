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
import { compileSpec } from '../../src/core/compile-spec.js';
import { classify, sendable } from '../../src/fuzz/executor.js';
import type { FuzzCase } from '../../src/fuzz/fuzz-case.js';
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
        - { name: petId, in: path, required: true, schema: { type: string, maxLength: 200000, examples: [".", "..", "p1"] } }
        - { name: q, in: query, schema: { type: string, minLength: 1, maxLength: 150000 } }
        - { name: since, in: query, required: true, schema: { type: string } }
        - { name: filter, in: query, allowEmptyValue: true, schema: { type: string } }
        - { name: cursor, in: query, schema: { type: string } }
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
      'query:since',
      'query:filter',
      'query:cursor',
      'query:tags',
      'header:X-Trace',
    ]);
  });

  it('never sends an empty path parameter, and no value over the wire bound, in any phase', () => {
    const random = fc.sample(randomArbitrary(generator), { seed: 7, numRuns: 300 });
    for (const fuzzCase of [...boundariesPhase(generator), ...negativePhase(generator), ...random]) {
      expect(fuzzCase.request.path.petId, fuzzCase.note).not.toBe('');
      // `.` and `..` are dot segments: the URL parser removes them (GitHub's `/orgs/./actions/x` became another route).
      expect(['.', '..'], fuzzCase.note).not.toContain(fuzzCase.request.path.petId);
      // A query value is empty only where the spec says allowEmptyValue (GitHub's mock refused `?min_timestamp=`).
      if (fuzzCase.intent !== 'negative') expect(fuzzCase.request.query.since, fuzzCase.note).not.toBe('');
      for (const bag of [fuzzCase.request.path, fuzzCase.request.query, fuzzCase.request.headers])
        for (const value of Object.values(bag))
          expect(String(value).length, fuzzCase.note).toBeLessThanOrEqual(maxWireString);
    }
  });

  it('sends an empty query value where allowEmptyValue says it may be, and as a negative case where it breaks minLength', () => {
    const random = fc.sample(randomArbitrary(generator), { seed: 7, numRuns: 300 });
    const cases = [...boundariesPhase(generator), ...negativePhase(generator), ...random];
    expect(cases.some((fuzzCase) => fuzzCase.request.query.filter === '')).toBe(true);
    expect(
      cases.some((fuzzCase) => fuzzCase.intent === 'negative' && fuzzCase.request.query.q === ''),
      'q = "" breaks minLength: 1',
    ).toBe(true);
  });

  it("generates every parameter of an API of the user's own, even one named like a seed API's bound one", () => {
    // `cursor` is the webhooks seed's delivery cursor, bound by the run; on any other API it is a parameter to fuzz.
    const cases = [...boundariesPhase(generator), ...fc.sample(randomArbitrary(generator), { seed: 7, numRuns: 100 })];
    expect(cases.filter((fuzzCase) => typeof fuzzCase.request.query.cursor === 'string').length).toBeGreaterThan(5);
  });
});

describe('a parameter the wire leaves ambiguous under oneOf', () => {
  const ambiguous = parseSpec(
    'workflows.yaml',
    `openapi: 3.1.0
info: { title: workflows, version: "1" }
paths:
  /workflows/{workflow_id}:
    get:
      operationId: getWorkflow
      parameters:
        - { name: workflow_id, in: path, required: true, schema: { oneOf: [{ type: integer }, { type: string }] } }
        - { name: page, in: query, schema: { anyOf: [{ type: integer }, { type: string }] } }
      responses: { "200": { description: ok } }
`,
  );
  const workflow = operationModels(ambiguous)[0]!;
  const compiled = compileSpec(ambiguous);
  const verdict = (path: Record<string, string | number>, query: Record<string, string | number> = {}) =>
    classify(workflow, compiled, { path, query, headers: {} }).verdict;

  // GitHub's workflow_id: `1` is a valid integer and a valid string, so a server decoding it per branch (Prism) finds
  // two matches and answers 422, one reading text accepts it. Sent as neither valid nor invalid: never sent.
  it('is neither valid nor invalid when its text matches two oneOf branches', () => {
    expect(verdict({ workflow_id: 1 })).toBe('ambiguous');
    expect(verdict({ workflow_id: '1' })).toBe('ambiguous');
    expect(sendable({ intent: 'derive' } as FuzzCase, 'ambiguous')).toBe(false);
  });

  it('is valid when only one branch reads it, and anyOf is never ambiguous', () => {
    expect(verdict({ workflow_id: 'main.yml' })).toBe('positive');
    expect(verdict({ workflow_id: 'main.yml' }, { page: 2 })).toBe('positive');
  });
});
