import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diffSpecs } from '../../src/core/diff/diff-specs.js';
import { parseSpec } from '../../src/core/load-spec.js';
import { fixture } from '../helpers/paths.js';
import { response } from './spec-pairs.js';

/** An allOf of `count` anyOfs of four shapes each: the disjunctive form would have 4^count branches. */
function product(count: number, tag: string): unknown {
  return {
    allOf: Array.from({ length: count }, (_, i) => ({
      anyOf: [0, 1, 2, 3].map((j) => ({
        type: 'object',
        required: [`k${i}_${j}`],
        properties: { [`k${i}_${j}`]: { type: 'string', enum: [tag] } },
      })),
    })),
  };
}

describe('contracts diff stays bounded', () => {
  it('judges an allOf of ten anyOfs (a million combinations) within 20 s, as undecided rather than guessed', () => {
    const base = parseSpec('base.json', response(product(10, 'a')));
    const head = parseSpec('head.json', response(product(10, 'b')));
    const start = performance.now();
    const rules = [...new Set(diffSpecs(base, head).map((c) => c.rule))];
    expect(performance.now() - start).toBeLessThan(20_000);
    expect(rules).toEqual(['schema-change-undecided']);
  });

  it('grows no faster than linearly with the number of schemas compared', () => {
    const many = (n: number) =>
      Object.fromEntries(
        Array.from({ length: n }, (_, i) => [
          `p${i}`,
          { anyOf: [{ type: 'string', maxLength: i + 1 }, { type: 'integer' }] },
        ]),
      );
    const run = (n: number) => {
      const base = parseSpec('base.json', response({ type: 'object', properties: many(n) }));
      const head = parseSpec(
        'head.json',
        response({ type: 'object', properties: many(n) }).replace(/"maxLength": (\d+)/g, '"maxLength": 9$1'),
      );
      const start = performance.now();
      const changes = diffSpecs(base, head);
      expect(changes.length).toBe(n);
      return performance.now() - start;
    };
    run(50); // warm-up
    const small = run(200);
    const large = run(800);
    expect(large).toBeLessThan(10 * Math.max(small, 5));
  });

  it('compares a recursive schema with itself and with a changed version', () => {
    const source = readFileSync(fixture('specs', 'recursive.yaml'), 'utf8');
    const spec = parseSpec('recursive.yaml', source);
    expect(diffSpecs(spec, parseSpec('recursive.yaml', source))).toEqual([]);
  });
});
