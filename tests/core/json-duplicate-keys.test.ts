import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { colonsAfterQuotes, findDuplicateKey, keysInValue } from '../../src/core/json-duplicate-keys.js';

describe('findDuplicateKey', () => {
  const cases: [string, { given: string; want: { path: string; key: string } | undefined }][] = [
    ['no duplicates', { given: '{"a":1,"b":{"a":2},"c":[{"a":1},{"a":2}]}', want: undefined }],
    ['a duplicate at the top', { given: '{"id":1, "id":2}', want: { path: '', key: 'id' } }],
    [
      'a duplicate in a nested object',
      {
        given: '{"order":{"paymentMethod":{},"fees":[],"paymentMethod":{}}}',
        want: { path: '/order', key: 'paymentMethod' },
      },
    ],
    [
      'a duplicate inside an array element',
      { given: '{"items":[{"x":1},{"y":1,"y":2}]}', want: { path: '/items/1', key: 'y' } },
    ],
    ['string values equal to keys', { given: '{"a":"a","b":"a"}', want: undefined }],
    ['escaped quotes in strings', { given: '{"a":"say \\"b\\":","b":1}', want: undefined }],
    ['escaped backslash before the closing quote', { given: '{"a":"x\\\\","a":2}', want: { path: '', key: 'a' } }],
    ['whitespace before the colon', { given: '{ "k" : 1 , "k" :2 }', want: { path: '', key: 'k' } }],
    ['keys with a slash, in the pointer', { given: '{"a/b":{"c":1,"c":1}}', want: { path: '/a~1b', key: 'c' } }],
    ['a top-level array', { given: '[1,2,{"z":1}]', want: undefined }],
    [
      'a key written with a space before the colon, beside a duplicate',
      { given: '{"a" :1,"b":{"c":1,"c":2}}', want: { path: '/b', key: 'c' } },
    ],
    [
      'a value that contains a quote-colon, beside a duplicate',
      { given: '{"v":"x\\":","d":1,"d":2}', want: { path: '', key: 'd' } },
    ],
    ['a value that starts with a colon, and no duplicate', { given: '{"v":":x","w":" :y"}', want: undefined }],
    [
      'keys spaced from their colons, one duplicated',
      { given: '{"a" :1,"b"\n:{"c" : 1,"c":2}}', want: { path: '/b', key: 'c' } },
    ],
    // A key is what JSON.parse reads, not how the target wrote it.
    [
      'the same key written with and without an escape',
      { given: '{"name":1,"n\\u0061me":2}', want: { path: '', key: 'name' } },
    ],
    [
      'a duplicate key reported decoded, never as its escapes',
      { given: '{"\\u0043ANARY\\"&<":1,"CANARY\\u0022&<":2}', want: { path: '', key: 'CANARY"&<' } },
    ],
    [
      'an escaped key in the pointer, decoded',
      { given: '{"a\\/b":{"c":1,"\\u0063":2}}', want: { path: '/a~1b', key: 'c' } },
    ],
    ['keys that differ only once decoded stay distinct', { given: '{"a\\nb":1,"a\\\\nb":2}', want: undefined }],
    // Pointers through arrays: the index counts the elements before, whatever they hold.
    [
      'a duplicate in an element of a top-level array',
      { given: '[{"a":1},{"b":1,"b":2}]', want: { path: '/1', key: 'b' } },
    ],
    [
      'a duplicate after an array of scalars',
      { given: '{"xs":[1,2,3],"o":{"k":1,"k":2}}', want: { path: '/o', key: 'k' } },
    ],
    [
      'a duplicate in the second of sibling arrays',
      { given: '{"a":[1,2],"b":[{"x":1},{"y":1},{"z":1,"z":1}]}', want: { path: '/b/2', key: 'z' } },
    ],
    ['a duplicate in nested arrays', { given: '[[1],[2,{"q":1,"q":2}]]', want: { path: '/1/1', key: 'q' } }],
    ['an element after nested arrays', { given: '{"a":[[1,2],[3],{"k":0,"k":1}]}', want: { path: '/a/2', key: 'k' } }],
    ['a duplicate after an empty object', { given: '{"a":{},"b":1,"b":2}', want: { path: '', key: 'b' } }],
    [
      'a duplicate after a string holding brackets',
      { given: '{"s":"[{,","t":{"u":1,"u":2}}', want: { path: '/t', key: 'u' } },
    ],
    ['a string value whose next text is a colon elsewhere', { given: '["a",":"]', want: undefined }],
    [
      'an escaped quote ending a key, then the key again',
      { given: '{"a\\"":1,"a\\"":2}', want: { path: '', key: 'a"' } },
    ],
    ['a key followed by white space of every kind', { given: '{"k"\t\r\n :1,"k" :2}', want: { path: '', key: 'k' } }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(findDuplicateKey(given)).toEqual(want);
    // With the parsed value, the counting fast path must reach the same answer.
    expect(findDuplicateKey(given, JSON.parse(given))).toEqual(want);
  });
});

describe('findDuplicateKey on generated JSON', () => {
  const json = fc.jsonValue({ maxDepth: 4 });
  const key = fc.string({ maxLength: 6 });

  it('finds nothing in any JSON.stringify output, with or without the counting fast path', () => {
    fc.assert(
      fc.property(json, (value) => {
        const text = JSON.stringify(value);
        expect(findDuplicateKey(text)).toBeUndefined();
        expect(findDuplicateKey(text, JSON.parse(text))).toBeUndefined();
      }),
      { numRuns: 300, seed: 20261124 },
    );
  });

  it('finds a duplicate placed after any value, with its key and pointer, with or without the fast path', () => {
    fc.assert(
      fc.property(json, key, fc.nat(3), (value, duplicated, before) => {
        // {"w": [value, value…, {"<key>":1,"<key>":2}]}: the duplicate is at /w/<before>.
        const items = Array.from({ length: before }, () => JSON.stringify(value));
        const name = JSON.stringify(duplicated);
        const text = `{"w":[${[...items, `{${name}:1,"x":${JSON.stringify(value)},${name}:2}`].join(',')}]}`;
        const want = { path: `/w/${before}`, key: duplicated };
        expect(findDuplicateKey(text)).toEqual(want);
        expect(findDuplicateKey(text, JSON.parse(text))).toEqual(want);
      }),
      { numRuns: 300, seed: 20261124 },
    );
  });
});

// The fast path's invariant: the colons that follow a closing quote are at least the keys written, and exactly them
// when no string holds `":` or starts with `:`; so equal counts (text against parsed value) mean no key is written
// twice. Its two counts are tested here on their own: through findDuplicateKey a wrong count only sends the text to the
// slow exact walk, which gives the same answer (so a mutant that breaks a count is caught here, not above).
//
// Mutants left alive on purpose, each equivalent (npm run test:mutation lists them as survivors):
// - findDuplicateKey's test of the fast path (`parsed !== undefined` and the whole condition, → true, false or
//   negated): every variant either takes the exact walk (same answer) or skips it only when the text has no key colon
//   at all, where no key can be twice.
// - colonsAfterQuotes: the first search for ':' → '' starts at index 0, which has no character before it to be a
//   quote; `i >= 0` → `i > 0` for a colon at index 0, which valid JSON never has.
// - keysInValue: the guards that keep scalars and null off its stack (pushed, they are popped and skipped), and
//   `index <= node.length` (the item past the end is undefined, never pushed).
// - locateDuplicateKey, for input that is not JSON (the text is valid JSON here): a comma outside any container
//   (`top >= 0`), an object opened with no key pending (`?? ''`), a closing quote at index 0 (`end > 0`, `end < 0`),
//   reading one past the end (`i <= text.length` here and in nextNonSpace: charCodeAt gives NaN, never a colon; and
//   its -1 → +1, neither a colon), a key whose escapes JSON.parse refuses (the catch); and `!raw.includes('\\')` →
//   always JSON.parse, which decodes an escape-free key to itself.
describe('the counting fast path', () => {
  it.each([
    ['a scalar', 1, 0],
    ['null', null, 0],
    ['an empty object', {}, 0],
    ['flat keys', { a: 1, b: 'x', c: null }, 3],
    ['nested objects', { a: { b: { c: 1 } }, d: 2 }, 4],
    ['objects in arrays, at any depth', [{ a: 1 }, [{ b: 1, c: 2 }], 3, null], 3],
    ['a top-level array of scalars', [1, 'a', true], 0],
  ])('keysInValue: %s', (_name, value, keys) => {
    expect(keysInValue(value)).toBe(keys);
  });

  it.each([
    ['keys only', '{"a":1,"b":{"c":2}}', 3],
    ['white space of every kind before a colon', '{"a" :1,"b"\t\r\n:2}', 2],
    ['a colon inside a string value, after no quote', '{"a":"x:y"}', 1],
    ['a value that starts with a colon', '{"a":":y"}', 2],
    ['a value holding a quote-colon', '{"a":"x\\":"}', 2],
    ['no colon at all', '[1,2]', 0],
    ['a colon after a number', '{"a":1}', 1],
  ])('colonsAfterQuotes: %s', (_name, text, colons) => {
    expect(colonsAfterQuotes(text)).toBe(colons);
  });

  // JSON values whose keys and strings hold no colon.
  const stripColons = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replaceAll(':', '');
    if (Array.isArray(value)) return value.map(stripColons);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([key, v]) => [key.replaceAll(':', ''), stripColons(v)]));
    return value;
  };
  const plain = fc.jsonValue({ maxDepth: 4 }).map(stripColons);

  it('counts exactly the keys of JSON.stringify output whose strings hold no colon, however it is indented', () => {
    fc.assert(
      fc.property(plain, fc.constantFrom(undefined, 1, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(colonsAfterQuotes(text)).toBe(keysInValue(JSON.parse(text)));
      }),
      { numRuns: 300, seed: 20261124 },
    );
  });

  it('never counts fewer colons than keys, whatever the strings hold', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const text = JSON.stringify(value);
        expect(colonsAfterQuotes(text)).toBeGreaterThanOrEqual(keysInValue(JSON.parse(text)));
      }),
      { numRuns: 300, seed: 20261124 },
    );
  });
});
