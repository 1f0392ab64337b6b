// A pattern's quantifier bounds are edge values of the boundaries phase (src/fuzz/pattern-edges.ts), like
// minLength/maxLength: the fewest and most repetitions (valid) and one past each (invalid), each kept only when ajv
// agrees; a pattern this reader does not take gives none, and the phase's other edges stay.
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../src/core/create-ajv.js';
import { patternEdges } from '../../src/fuzz/pattern-edges.js';
import { boundaryValues } from '../../src/fuzz/values.js';

const ajv = createAjv();

describe('pattern quantifier edges', () => {
  it.each([
    ['^[a-z]{3,8}$', ['aaa', 'aaaaaaaa'], ['aa', 'aaaaaaaaa']],
    ['^shelf_[0-9a-f]{8}$', ['shelf_00000000'], ['shelf_0000000', 'shelf_000000000']],
    ['^[A-Z]{2}-\\d{4,6}$', ['AA-0000', 'AA-000000'], ['A-0000', 'AAA-0000', 'AA-000', 'AA-0000000']],
    ['^a+b?$', ['a', 'ab'], ['', 'abb']],
    // Unanchored: a longer string still matches, so only the short side is refused.
    ['[a-z]{3,8}', ['aaa', 'aaaaaaaa'], ['aa']],
    // Groups, alternation and negated classes are not read: no edges.
    ['^(ab)+$', [], []],
    ['^(a|b){2}$', [], []],
    ['^[^x]{2}$', [], []],
  ])('%s gives valid %j and invalid %j, as ajv judges them', (pattern, valid, invalid) => {
    const edges = patternEdges(pattern);
    expect(edges).toEqual([...valid, ...invalid]);
    const check = ajv.compile({ type: 'string', pattern });
    expect(edges.map((value) => check(value))).toEqual([...valid.map(() => true), ...invalid.map(() => false)]);
  });

  it('puts them among a string schema’s declared edges, after the pattern’s own sample', () => {
    const values = boundaryValues({}, { type: 'string', pattern: '^[a-z]{3,8}$' });
    expect(values.slice(1, 5)).toEqual(['aaa', 'aaaaaaaa', 'aa', 'aaaaaaaaa']);
  });

  it('gives nothing for a pattern past the generation bounds or that is no string', () => {
    expect(patternEdges('^a{100000,200000}$')).toEqual([]);
    expect(patternEdges(undefined)).toEqual([]);
  });
});
