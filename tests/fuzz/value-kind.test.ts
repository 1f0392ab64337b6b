// The kind of value a failure is grouped by (value-kind.ts): never a field's name, the most telling kind first.
import { describe, expect, it } from 'vitest';
import { breakKind, caseKind, valueKind } from '../../src/fuzz/value-kind.js';

const request = (body: unknown, query: Record<string, string> = {}) => ({ path: {}, query, headers: {}, body });

describe('valueKind', () => {
  it.each([
    ['a NUL anywhere in a string', 'a\u0000b', 'string with NUL'],
    ['a control character', 'a\nb', 'string with control characters'],
    ['text outside ASCII', 'é', 'non-ASCII string'],
    ['the empty string', '', 'empty string'],
    ['4096 characters', 'x'.repeat(4096), 'long string'],
    ['a plain string', 'abc', 'string'],
    ['2^31', 2 ** 31, 'int32 edge'],
    ['2^63', 2 ** 63, 'int64 edge'],
    ['a fraction', 0.5, 'fractional number'],
    ['1e308', 1e308, 'huge number'],
    ['a NUL inside an array item of an object', { tags: ['ok', 'a\u0000b'] }, 'string with NUL'],
    ['the most telling of several', { a: 'é', b: 'a\u0000' }, 'string with NUL'],
    ['an empty array', [], 'empty array'],
    ['an object of plain values', { a: 'x', b: 1 }, 'object'],
  ])('%s is "%s"', (_name, value, want) => {
    expect(valueKind(value)).toBe(want);
  });
});

describe('breakKind', () => {
  it.each([
    ['longer than maxLength 10', 'invalid: longer than maxLength N'],
    ['not matching the pattern ^[a-z]+$', 'invalid: not matching the pattern'],
    ['wrong type (number for string)', 'invalid: wrong type (number for string)'],
  ])('"%s" is "%s", the same for every field', (note, want) => {
    expect(breakKind(note)).toBe(want);
  });
});

describe('caseKind', () => {
  it('takes what the generator recorded', () => {
    expect(caseKind({ phase: 'negative', kind: 'missing required field', request: request({}) })).toBe(
      'missing required field',
    );
  });

  it('groups a request holding a NUL under it, but not when the finding is about what the case broke', () => {
    const fuzzCase = { phase: 'negative' as const, kind: 'invalid: wrong type', request: request({ a: 'x\u0000' }) };
    expect(caseKind(fuzzCase, 'not_a_server_error')).toBe('string with NUL');
    expect(caseKind(fuzzCase, 'negative_data_rejection')).toBe('invalid: wrong type');
  });

  it('reads a random case from its values, and falls back on its phase', () => {
    expect(caseKind({ phase: 'random', request: request(undefined, { q: '日本' }) })).toBe('non-ASCII string');
    expect(caseKind({ phase: 'random', request: request({ a: 'x' }) })).toBe('ordinary values');
    expect(caseKind({ phase: 'negative', anonymous: true, request: request(undefined) })).toBe('no credentials');
    expect(caseKind({ phase: 'boundaries', kind: 'string', request: request({ a: 'abc' }) })).toBe('ordinary values');
  });
});
