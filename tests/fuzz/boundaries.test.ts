// The boundaries phase under a --max-examples budget: the budget cuts the list from its end, so the list takes
// the parameters and body fields in turns, each from its declared edges (enum, lengths, bounds ±1) to the generic
// ones. Within the default budget every one of them is tried, and per_page at 0, 1, 100 and 101.
import fc from 'fast-check';
import { fuzzPluginsOf } from '../../src/plugins/registry.js';
import { describe, expect, it } from 'vitest';
import { specPath } from '../../src/config/project.js';
import { seedProject } from '../../src/config/seed-project.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { boundariesPhase } from '../../src/fuzz/generate-cases.js';
import { operationModels } from '../../src/fuzz/request-model.js';
import {
  maxGeneratedItems,
  maxGeneratedLength,
  maxGeneratedNodes,
  schemaArbitrary,
} from '../../src/fuzz/schema-arbitrary.js';
import { boundaryValues, breakingValues, minimalValue } from '../../src/fuzz/values.js';

const defaultBudget = 25;

async function casesByOperation() {
  const all: { api: string; operationId: string; notes: string[]; kept: string[] }[] = [];
  for (const api of seedProject.names) {
    const spec = await loadSpec(specPath(seedProject.api(api)));
    // The parameters the API's plug-in binds (the webhooks' owner, repo, hook_id) are not generated.
    const plugin = (await fuzzPluginsOf([api]))(api);
    for (const model of operationModels(spec)) {
      const notes = boundariesPhase({ api, document: spec.document, model, ...(plugin ? { plugin } : {}) }).map(
        (fuzzCase) => fuzzCase.note,
      );
      all.push({ api, operationId: model.operationId, notes, kept: notes.slice(0, defaultBudget) });
    }
  }
  return all;
}

/** What a case note says it varies: `per_page = 0` → per_page, `body/config/secret = ""` → body/config/secret. */
const subject = (note: string) => note.replace(/ (=|absent).*$/, '');

describe('the boundaries phase', () => {
  it('tries every parameter and body field within the default budget', async () => {
    for (const { api, operationId, notes, kept } of await casesByOperation()) {
      const everything = new Set(notes.map(subject));
      const tried = new Set(kept.map(subject));
      expect(
        [...everything].filter((name) => !tried.has(name)),
        `${api} ${operationId}`,
      ).toEqual([]);
    }
  });

  it.each(['listWebhooks', 'listWebhookDeliveries'])(
    'tries per_page at 0, 1, 100 and 101 within it (%s)',
    async (id) => {
      const { kept } = (await casesByOperation()).find((operation) => operation.operationId === id)!;
      for (const value of [0, 1, 100, 101]) expect(kept).toContain(`per_page = ${value}`);
    },
  );

  it('puts what a schema declares before the edges any value of its type has', () => {
    expect(boundaryValues({}, { type: 'integer', minimum: 1, maximum: 100 }).slice(0, 6)).toEqual([
      1, 0, 2, 100, 99, 101,
    ]);
    expect(
      boundaryValues({}, { type: 'string', enum: ['json', 'form'], minLength: 2, maxLength: 4 }).slice(0, 6),
    ).toEqual(['json', 'form', 'aa', 'a', 'aaaa', 'aaaaa']);
  });

  // AWS Redshift declares maxLength 2147483647 and IoT SiteWise minLength 104857600: building those edges ended the
  // run ("Invalid string length") or sent 100 MB bodies. Past maxGeneratedLength an edge is left out, not built.
  it('leaves out lengths no request should carry, in every generator', () => {
    const huge = { type: 'string', minLength: 104_857_600, maxLength: 2_147_483_647 };
    const longest = (values: unknown[]) => Math.max(0, ...values.map((v) => JSON.stringify(v).length));
    expect(longest(boundaryValues({}, huge))).toBeLessThanOrEqual(maxGeneratedLength + 2);
    expect(longest(breakingValues({}, huge, false).map((m) => m.value))).toBeLessThanOrEqual(maxGeneratedLength + 2);
    expect(String(minimalValue({}, huge)).length).toBe(maxGeneratedLength);
    expect((minimalValue({}, { type: 'array', minItems: 1e9, items: { type: 'integer' } }) as unknown[]).length).toBe(
      maxGeneratedItems,
    );
    const drawn = fc.sample(schemaArbitrary({}, huge, {}), { numRuns: 3, seed: 1 }) as string[];
    // maxGeneratedLength units of fast-check's (a grapheme may take several UTF-16 units): bounded all the same.
    for (const value of drawn) {
      expect(value.length).toBeGreaterThanOrEqual(maxGeneratedLength);
      expect(value.length).toBeLessThanOrEqual(4 * maxGeneratedLength);
    }
    const kept = boundaryValues({}, { type: 'string', maxLength: 2_147_483_647 });
    expect(kept).toContain('');
  });

  // A pattern was ignored: no valid request could be built for `thingId: { pattern: "^t[0-9]+$" }`, and every check
  // of the operation went unexercised. Strings now match the pattern where fast-check can build them.
  it('builds strings that match a pattern, and breaks the pattern in a negative case', () => {
    const schema = { type: 'string', pattern: '^t[0-9]+$' };
    expect(minimalValue({}, schema)).toMatch(/^t[0-9]+$/);
    expect(boundaryValues({}, schema)[0]).toMatch(/^t[0-9]+$/);
    for (const value of fc.sample(schemaArbitrary({}, schema, {}), { numRuns: 20, seed: 2 }))
      expect(value).toMatch(/^t[0-9]+$/);
    for (const value of fc.sample(schemaArbitrary({}, schema, { header: true }), { numRuns: 20, seed: 2 }))
      expect(value).toMatch(/^[\x21-\x7e]+$/);
    expect(breakingValues({}, schema, true).map((m) => m.value)).toContain('!~');
    // A pattern JavaScript cannot read keeps the old way: the validators decide.
    expect(minimalValue({}, { type: 'string', pattern: '(?<=' })).toBe('a');
  });
});

describe('generated values stay bounded on schemas nobody here wrote', () => {
  // fast-check's integer() never returned for a bound past 2^53 (AWS's int64 maximum): one core spun for ever.
  it.each([
    [{ type: 'integer', minimum: 1, maximum: 2 ** 63 }, 1, 2 ** 31 - 1],
    [{ type: 'integer', minimum: 2 ** 40 }, 2 ** 40, 2 ** 40],
    [{ type: 'integer', minimum: 0.5, maximum: 3.5 }, 1, 3],
    [{ type: 'number', minimum: 1e12 }, 1e12, 1e12 + 1e9],
    [{ type: 'number', maximum: -1e12 }, -1e12 - 1e9, -1e12],
  ])('draws %j within [%d, %d]', (schema, low, high) => {
    for (const value of fc.sample(schemaArbitrary({}, schema, {}), { numRuns: 50, seed: 3 }) as number[]) {
      expect(value).toBeGreaterThanOrEqual(low);
      expect(value).toBeLessThanOrEqual(high);
    }
  });

  // Wide objects nested in arrays: without a size budget, one value held millions of nodes (AWS Kafka Connect's).
  it('keeps one value near maxGeneratedNodes however wide and deep the schema', () => {
    const wide = (inner: unknown) => ({
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 12 }, (_, i) => [`p${i}`, { type: 'array', minItems: 4, maxItems: 4, items: inner }]),
      ),
      required: Array.from({ length: 12 }, (_, i) => `p${i}`),
    });
    const schema = wide(wide(wide(wide({ type: 'string' }))));
    const nodes = (value: unknown): number =>
      value !== null && typeof value === 'object'
        ? 1 + Object.values(value).reduce<number>((n, v) => n + nodes(v), 0)
        : 1;
    for (const value of fc.sample(schemaArbitrary({}, schema, {}), { numRuns: 5, seed: 4 }))
      expect(nodes(value)).toBeLessThan(4 * maxGeneratedNodes);
  });
});

describe('boolean schemas', () => {
  // Vercel's description has properties whose schema is `false` (they must be absent): the boundaries phase read
  // `'const' in false` and the run ended with an internal error.
  it('leaves a `false` property out of the full body and treats `true` as any value', async () => {
    const { parseSpec } = await import('../../src/core/load-spec.js');
    const spec = parseSpec(
      'bools.yaml',
      `openapi: 3.1.0
info: { title: bools, version: "1" }
paths:
  /things:
    post:
      operationId: createThing
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties: { gone: false, anything: true, name: { type: string, minLength: 2 } }
      responses: { "201": { description: made } }
`,
    );
    const [model] = operationModels(spec);
    const cases = boundariesPhase({ api: 'bools', document: spec.document, model: model! });
    const full = cases.find((fuzzCase) => fuzzCase.note === 'every optional body field present');
    expect(full?.request.body).toEqual({ anything: 'a', name: 'aa' });
    expect(minimalValue(spec.document, false)).toBe('a'); // nothing fits `false`: the validators refuse what is sent
    expect(minimalValue(spec.document, true)).toBe('a');
  });

  it('never proposes a `false` property in a random body, and draws anything for `true`', () => {
    const schema = { type: 'object', properties: { gone: false, anything: true, name: { type: 'string' } } };
    const values = fc.sample(schemaArbitrary({}, schema), { numRuns: 200, seed: 1 }) as Record<string, unknown>[];
    expect(values.some((value) => 'gone' in value)).toBe(false);
    expect(values.some((value) => 'anything' in value)).toBe(true);
    expect(fc.sample(schemaArbitrary({}, false), { numRuns: 3, seed: 1 })).toEqual([null, null, null]);
  });
});

describe('int64 edges on the wire', () => {
  // -(2 ** 63) is written "-9223372036854776000" and 2 ** 63 - 1 is 2 ** 63: decimals outside int64, which a server
  // rightly refuses (a false positive_data_acceptance, seen on OAI's petstore-expanded 2.0 under its base path).
  it('gives a format int64 integer only edges written as the integer they are', () => {
    const values = boundaryValues({}, { type: 'integer', format: 'int64' }) as number[];
    for (const value of values) expect(BigInt(String(value)), String(value)).toBe(BigInt(value));
    expect(values).toContain(Number.MAX_SAFE_INTEGER);
  });

  it('keeps the large edges for an integer of no format, which any integer satisfies', () => {
    expect(boundaryValues({}, { type: 'integer' })).toContain(-(2 ** 63));
  });
});
