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
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(findDuplicateKey(given)).toEqual(want);
    // With the parsed value, the counting fast path must reach the same answer.
    expect(findDuplicateKey(given, JSON.parse(given))).toEqual(want);
  });
});
