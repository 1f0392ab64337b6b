// A parameter's or an XML body's schema as its values travel, row by row: BASE's schema, HEAD's, and HEAD as the diff
// compares it (widened where the wire lets it read what BASE sent). Each row asserts the whole widened schema.
import { describe, expect, it } from 'vitest';
import { type WireOptions, isXmlMedia, wireHead, xmlWire } from '../../src/core/diff/wire-schema.js';

const doc = {
  components: {
    schemas: {
      Count: { type: 'integer' },
      Text: { type: 'string' },
      Numbers: { type: 'array', items: { type: 'integer' } },
      Broken: 'not a schema',
    },
  },
};
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

type Row = [string, unknown, unknown, unknown, WireOptions?];
const rows: Row[] = [
  // parameters (the default wire): text reads numerals and booleans; a form array reads one item alone
  [
    'integer → string: the string also reads numerals',
    { type: 'integer' },
    { type: 'string' },
    { type: ['string', 'integer'] },
  ],
  [
    'number, boolean → string',
    { type: ['number', 'boolean'] },
    { type: 'string' },
    { type: ['string', 'number', 'boolean'] },
  ],
  [
    'integer → string with a pattern: unchanged',
    { type: 'integer' },
    { type: 'string', pattern: '^a' },
    { type: 'string', pattern: '^a' },
  ],
  [
    'integer → string with an enum: unchanged',
    { type: 'integer' },
    { type: 'string', enum: ['a'] },
    { type: 'string', enum: ['a'] },
  ],
  [
    'integer → string with maxLength: unchanged',
    { type: 'integer' },
    { type: 'string', maxLength: 3 },
    { type: 'string', maxLength: 3 },
  ],
  ['string → string: unchanged', { type: 'string' }, { type: 'string' }, { type: 'string' }],
  [
    'integer → [string, integer]: nothing to add',
    { type: 'integer' },
    { type: ['string', 'integer'] },
    { type: ['string', 'integer'] },
  ],
  ['object → string: an object is no text here', { type: 'object' }, { type: 'string' }, { type: 'string' }],
  ['integer → number: no string involved', { type: 'integer' }, { type: 'number' }, { type: 'number' }],
  [
    'a scalar → an array of it: the item alone also reads',
    { type: 'integer' },
    { type: 'array', items: { type: 'integer' } },
    { anyOf: [{ type: 'array', items: { type: 'integer' } }, { type: 'integer' }] },
  ],
  [
    'a scalar → an array of strings: the item widened too',
    { type: 'integer' },
    { type: 'array', items: { type: 'string' } },
    { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: ['string', 'integer'] }] },
  ],
  [
    'an array → an array: items walked in parallel',
    { type: 'array', items: { type: 'integer' } },
    { type: 'array', items: { type: 'string' } },
    { type: 'array', items: { type: ['string', 'integer'] } },
  ],
  [
    'an array without items → an array',
    { type: 'array' },
    { type: 'array', items: { type: 'string' } },
    { type: 'array', items: { type: 'string' } },
  ],
  [
    'an object → an array: not a scalar',
    { type: 'object' },
    { type: 'array', items: { type: 'string' } },
    { type: 'array', items: { type: 'string' } },
  ],
  [
    'no type → an array: not a scalar',
    {},
    { type: 'array', items: { type: 'string' } },
    { type: 'array', items: { type: 'string' } },
  ],
  ['a scalar → an array without items', { type: 'integer' }, { type: 'array' }, { type: 'array' }],
  [
    'properties walked by name; one only HEAD has stays',
    { type: 'object', properties: { a: { type: 'integer' } } },
    { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } },
    { type: 'object', properties: { a: { type: ['string', 'integer'] }, b: { type: 'string' } } },
  ],
  [
    'properties only on one side',
    { type: 'object' },
    { type: 'object', properties: { a: { type: 'string' } } },
    { type: 'object', properties: { a: { type: 'string' } } },
  ],
  ['through $refs on both sides', ref('Count'), ref('Text'), { type: ['string', 'integer'] }],
  [
    'a $ref with siblings',
    ref('Count'),
    { ...ref('Text'), description: 'd' },
    { type: ['string', 'integer'], description: 'd' },
  ],
  ['a $ref to no schema: HEAD as given', ref('Broken'), { type: 'string' }, { type: 'string' }],
  ['a $ref that resolves to nothing', ref('Missing'), { type: 'string' }, { type: 'string' }],
  ['a schema that is no object', 'text', { type: 'string' }, { type: 'string' }],
  ['null', null, { type: 'string' }, { type: 'string' }],
  ['an array for a schema', [], { type: 'string' }, { type: 'string' }],
  // XML: text both ways, no one-item arrays
  [
    'xml: object → string reads the object’s text',
    { type: 'object' },
    { type: 'string' },
    { type: ['string', 'object'] },
    xmlWire,
  ],
  ['xml: string → object', { type: 'string' }, { type: 'object' }, { type: ['object', 'string'] }, xmlWire],
  [
    'xml: string → array',
    { type: 'string' },
    { type: 'array', items: { type: 'string' } },
    { type: ['array', 'string'], items: { type: 'string' } },
    xmlWire,
  ],
  [
    'xml: a string with a pattern → object',
    { type: 'string', pattern: '^a' },
    { type: 'object' },
    { type: 'object' },
    xmlWire,
  ],
  [
    'xml: string → integer: a number is no structure',
    { type: 'string' },
    { type: 'integer' },
    { type: 'integer' },
    xmlWire,
  ],
  [
    'xml: string → [object, string]: already there',
    { type: 'string' },
    { type: ['object', 'string'] },
    { type: ['object', 'string'] },
    xmlWire,
  ],
  [
    'xml: integer → array of integers: no one-item arrays',
    { type: 'integer' },
    ref('Numbers'),
    { type: 'array', items: { type: 'integer' } },
    xmlWire,
  ],
];

describe('wireHead', () => {
  it.each(rows)('%s', (_name, base, head, expected, options) => {
    expect(wireHead(doc, base, doc, head, options)).toEqual(expected);
  });

  it('leaves HEAD as it is where BASE is no schema or HEAD is none', () => {
    const head = { type: 'string' };
    expect(wireHead(doc, undefined, doc, head)).toBe(head);
    expect(wireHead(doc, { type: 'integer' }, doc, true)).toBe(true);
  });

  it('stops after 16 levels of nesting: deeper, HEAD stays as written', () => {
    const nest = (leaf: unknown, levels: number): unknown =>
      levels === 0 ? leaf : { type: 'object', properties: { p: nest(leaf, levels - 1) } };
    const leafAt = (schema: unknown, levels: number): unknown =>
      levels === 0 ? schema : leafAt((schema as { properties: { p: unknown } }).properties.p, levels - 1);
    const at16 = wireHead(doc, nest({ type: 'integer' }, 16), doc, nest({ type: 'string' }, 16));
    expect(leafAt(at16, 16)).toEqual({ type: ['string', 'integer'] });
    const at17 = wireHead(doc, nest({ type: 'integer' }, 17), doc, nest({ type: 'string' }, 17));
    expect(leafAt(at17, 17)).toEqual({ type: 'string' });
    // The same bound through items and through a one-item array.
    const items = (leaf: unknown, levels: number): unknown =>
      levels === 0 ? leaf : { type: 'array', items: items(leaf, levels - 1) };
    expect(JSON.stringify(wireHead(doc, items({ type: 'integer' }, 16), doc, items({ type: 'string' }, 16)))).toContain(
      '["string","integer"]',
    );
    expect(
      JSON.stringify(wireHead(doc, items({ type: 'integer' }, 17), doc, items({ type: 'string' }, 17))),
    ).not.toContain('["string","integer"]');
  });
});

describe('isXmlMedia', () => {
  it.each([
    ['application/xml', true],
    ['text/xml', true],
    ['application/atom+xml', true],
    ['application/xml; charset=utf-8', true],
    ['application/xml ;charset=utf-8', true],
    ['APPLICATION/XML', true],
    ['application/json', false],
    ['application/xml-dtd', false],
    ['application/xmlfoo', false],
    ['application/json; profile=text/xml', false],
    ['xml', false],
  ])('%s: %s', (type, xml) => {
    expect(isXmlMedia(type)).toBe(xml);
  });
});
