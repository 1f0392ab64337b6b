// Pattern inclusion, on generated patterns and strings: a verdict of "included" never meets a string that matches
// the narrower patterns and not the wider one (as the validators' engine reads them), and "not included" always has
// one among short strings over the patterns' alphabet.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { patternIncluded } from '../../src/core/diff/pattern-inclusion.js';
import { compilePattern } from '../../src/core/pattern-engine.js';

const atom = fc.constantFrom('a', 'b', '[ab]', '[a-c]', '.', '\\d', 'c');
const piece = fc.tuple(atom, fc.constantFrom('', '*', '+', '?')).map(([a, q]) => a + q);
const pattern = fc
  .tuple(fc.boolean(), fc.array(piece, { minLength: 1, maxLength: 3 }), fc.boolean())
  .map(([start, pieces, end]) => `${start ? '^' : ''}${pieces.join('')}${end ? '$' : ''}`);
// Every string over a, b, c, 1 and a line feed up to length 5: enough to tell such patterns
// apart (at most three pieces, each one character class, repeated or not).
const strings = ['', ...Array.from({ length: 5 }, (_, n) => n + 1).flatMap((length) => words(length))];
function words(length: number): string[] {
  if (length === 0) return [''];
  return words(length - 1).flatMap((word) => ['a', 'b', 'c', '1', '\n'].map((letter) => word + letter));
}
const matches = (source: string, text: string) => compilePattern(source).test(text);

describe('patternIncluded', () => {
  it.each([
    [['^[a-z]+$'], '.+', true],
    [['^[a-z]+$'], '^[a-c]+$', false],
    [['^a'], '', true],
    [[], '.*', true],
    [[], 'a', false],
    [['^a$', '^b'], 'a', true],
    [['^ab$'], '^(?<=x)a', undefined],
    // Read with the u flag, as JSON Schema says: \p{…} is a Unicode property, not the letter p.
    [['^\\p{Lu}+$'], '^\\p{L}+$', true],
    [['^\\p{L}+$'], '^\\p{Lu}+$', false],
    // Several narrower patterns: one included is enough; one unreadable beside none included leaves it undecided.
    [['(a+)\\1', '^b$'], '^b', true],
    [['(a+)\\1', '^c$'], '^b', undefined],
    [['\\ba'], '^b', undefined],
    // Long fixed repetitions stay within the automata's bounds (thousands of states, decided).
    [['^[a-z]{2000}$'], '^[a-z]+$', true],
    [['^x{1200}$'], '^x{1,1199}$', false],
  ] as const)('%j within %s: %s', (narrower, wider, verdict) => {
    expect(patternIncluded(narrower, wider)).toBe(verdict);
  });

  it('says included only when no string matches the narrower pattern and not the wider one', () => {
    fc.assert(
      fc.property(pattern, pattern, (narrower, wider) => {
        const verdict = patternIncluded([narrower], wider);
        const witness = strings.find((text) => matches(narrower, text) && !matches(wider, text));
        if (verdict === true) expect({ narrower, wider, witness }).toEqual({ narrower, wider, witness: undefined });
        if (verdict === false) {
          expect({ narrower, wider, found: witness !== undefined }).toEqual({ narrower, wider, found: true });
        }
      }),
      { numRuns: 300, seed: 20261124 },
    );
  });
});
