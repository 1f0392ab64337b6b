// duplicated-entry-in-enum in linear time: same verdict and message as spectral:oas's (ajv's uniqueItems, which
// compares every pair), without the minutes a 100k-value enum took (issue 26, item 11).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import equalModule from 'ajv/dist/runtime/equal.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintSpec } from '../../src/lint/lint-spec.js';
import { duplicatePair } from '../../src/lint/rules/duplicated-entry-in-enum.js';

// ajv's deep equality (fast-deep-equal), the one its uniqueItems uses; CommonJS: the function, or its `default`.
type Equal = (a: unknown, b: unknown) => boolean;
const equal: Equal =
  typeof equalModule === 'function' ? equalModule : (equalModule as unknown as { default: Equal }).default;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-lint-enum-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function spec(values: unknown[]): string {
  return JSON.stringify(
    {
      openapi: '3.1.0',
      info: { title: 'Enum', version: '1', description: 'An enum.' },
      servers: [{ url: 'http://127.0.0.1:4999' }],
      tags: [{ name: 'items', description: 'Items.' }],
      paths: {
        '/items': {
          get: {
            operationId: 'listItems',
            summary: 'List items',
            description: 'Lists items.',
            tags: ['items'],
            responses: {
              '200': {
                description: 'The kind.',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Kind' } } },
              },
            },
          },
        },
      },
      components: { schemas: { Kind: { enum: values } } },
    },
    null,
    2,
  );
}

async function lintEnum(name: string, values: unknown[]) {
  const file = path.join(dir, name);
  const text = spec(values);
  await writeFile(file, text);
  // The response here has no example on purpose: contracts-response-example's own test covers that warning.
  const problems = (await lintSpec(file)).filter((problem) => problem.rule !== 'contracts-response-example');
  return { text, problems };
}

/** What ajv's uniqueItems reports for untyped items: i from the end, then j < i from i - 1 down; the first equal. */
function ajvPair(values: unknown[]): { first: number; second: number } | undefined {
  for (let i = values.length - 1; i > 0; i--)
    for (let j = i - 1; j >= 0; j--) if (equal(values[i], values[j])) return { first: j, second: i };
  return undefined;
}

describe('duplicated-entry-in-enum', () => {
  it('warns at the enum with the message spectral:oas gave, naming the pair ajv named', async () => {
    const values = ['a', 'b', 'a', 1, 1.0, { x: 1, y: 2 }, { y: 2, x: 1 }, [1, 2], [1, 2], null, null, 'c', 'a'];
    const { text, problems } = await lintEnum('duplicates.json', values);
    expect(problems).toEqual([
      expect.objectContaining({
        rule: 'duplicated-entry-in-enum',
        severity: 'warning',
        line: text.slice(0, text.indexOf('"enum"')).split('\n').length,
        message: '"enum" property must not have duplicate items (items ## 2 and 12 are identical)',
      }),
    ]);
  });

  it('finds the pair ajv finds, on any values (deep equality, keys in any order)', () => {
    const leaf = fc.oneof(fc.constantFrom(0, 1, -0, 2.5, '1', 'a', '', true, false, null));
    const value = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.array(tie('value'), { maxLength: 2 }),
        fc.dictionary(fc.constantFrom('x', 'y', 'z'), tie('value'), { maxKeys: 2, noNullPrototype: true }),
      ),
    })).value;
    fc.assert(
      fc.property(fc.array(value, { maxLength: 8 }), (values) => {
        expect(duplicatePair(values)).toEqual(ajvPair(values));
      }),
      { numRuns: 2000 },
    );
  });

  it('grows near-linearly with the size of the enum (4× the values, under 6× the time)', async () => {
    const values = (count: number) => Array.from({ length: count }, (_, i) => `value-${i}`);
    const run = async (count: number) => {
      const start = performance.now();
      const { problems } = await lintEnum(`enum-${count}.json`, values(count));
      expect(problems).toEqual([]);
      return performance.now() - start;
    };
    await run(1000); // warm-up
    const small = Math.min(await run(10_000), await run(10_000));
    const large = await run(40_000);
    // spectral:oas's rule: 1.9 s, then 22 s (quadratic); now both are mostly lint's fixed cost.
    expect(large).toBeLessThan(6 * Math.max(small, 50));
  }, 120_000);
});
