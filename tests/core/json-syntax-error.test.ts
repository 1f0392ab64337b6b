// A body that is not JSON is reported by position, never by quoting it (issue 11, item 3).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkExchange } from '../../src/core/check-exchange.js';
import { compileContract, type Contract } from '../../src/core/compile-contract.js';
import { describeJsonSyntaxError, findJsonSyntaxError } from '../../src/core/json-syntax-error.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { specFile } from '../helpers/paths.js';

const cases: [string, { given: string; want: string }][] = [
  ['a stray character', { given: '{"a": 1,}', want: 'unexpected character at line 1, column 9' }],
  ['text cut off', { given: '{"a": [1, 2', want: 'it ends early, at line 1, column 12' }],
  [
    'an error on a later line',
    { given: '{\n  "a": 1,\n  "b": tru\n}', want: 'unexpected character at line 3, column 11' },
  ],
  ['a bad escape', { given: '["\\x"]', want: 'unexpected character at line 1, column 4' }],
  ['a raw control character in a string', { given: '["a\tb"]', want: 'unexpected character at line 1, column 4' }],
  ['a number without digits after the point', { given: '[1.]', want: 'unexpected character at line 1, column 4' }],
  ['a second value', { given: '{} {}', want: 'unexpected character at line 1, column 4' }],
  ['words', { given: 'CANARYKEY-1234', want: 'unexpected character at line 1, column 1' }],
];

describe('describeJsonSyntaxError', () => {
  it.each(cases)('names the position of %s', (_name, { given, want }) => {
    expect(() => JSON.parse(given)).toThrow();
    expect(describeJsonSyntaxError(given)).toBe(want);
  });

  it('agrees with JSON.parse about what is JSON, for any text', () => {
    const jsonish = fc.oneof(
      fc.string(),
      fc.json(),
      // JSON with one character changed, inserted or removed: mostly almost-JSON
      fc
        .tuple(
          fc.json(),
          fc.nat(),
          fc.constantFrom('', ',', '}', ']', '"', '\\', ':', '0', '-', '.', 'e', ' ', '\u0001'),
        )
        .map(([text, at, char]) => {
          const index = at % (text.length + 1);
          return text.slice(0, index) + char + text.slice(index + (at % 2));
        }),
    );
    fc.assert(
      fc.property(jsonish, (text) => {
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        expect(findJsonSyntaxError(text) === undefined).toBe(parses);
      }),
      { numRuns: 3000 },
    );
  });

  it('finds the error in a long text in linear time, without recursion', () => {
    const deep = '['.repeat(1_000_000) + ']'.repeat(999_999) + 'x';
    expect(findJsonSyntaxError(deep)).toEqual({ offset: 1_999_999, atEnd: false });
  });
});

describe('checkExchange on a body that is not JSON', () => {
  let contract: Contract;
  beforeAll(async () => {
    contract = compileContract(await loadSpec(specFile('repository-webhooks')));
  });

  it('reports where the body stops being JSON, without a character of the body', () => {
    for (const body of [
      'CANARYKEY-0123456789',
      '{"config": CANARYKEY-0123456789}',
      '[1, 2, "CANARYKEY-0123456789" x]',
    ]) {
      const result = checkExchange(contract, {
        method: 'GET',
        path: '/repos/o/r/hooks/1',
        status: 200,
        headers: { 'content-type': 'application/json' },
        body,
      });
      const text = JSON.stringify(result);
      expect(text).toMatch(/the body is not valid JSON: unexpected character at line 1, column \d+/);
      expect(text).not.toContain('CANARY');
    }
  });
});
