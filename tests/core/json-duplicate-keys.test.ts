import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findDuplicateKey } from '../../src/core/json-duplicate-keys.js';

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
