// The diff's normal form of a schema, keyword by keyword and composition by composition: each row a schema and the
// branches it becomes (types, enum, bounds, counts, patterns, formats, required, properties, opaque keywords, where each
// keyword is written, the choices that led to each branch). The forms are in __snapshots__/schema-branches.test.ts.snap,
// reviewed when written; a few properties are asserted here outright.
import { describe, expect, it } from 'vitest';
import {
  type Branch,
  type Norm,
  SchemaNormalizer,
  canonical,
  constrainsNothing,
  tighter,
  typeCovers,
  typeOfValue,
} from '../../src/core/diff/schema-branches.js';

function summary(norm: Norm, depth = 0): unknown {
  return {
    ...(norm.undecided ? { undecided: norm.undecided } : {}),
    branches: norm.branches.map((branch) => branchSummary(branch, depth)),
  };
}

function branchSummary(branch: Branch, depth: number): unknown {
  const map = (m: Map<string, Norm>) =>
    Object.fromEntries([...m].map(([key, value]) => [key, depth > 3 ? '…' : summary(value, depth + 1)]));
  return Object.fromEntries(
    Object.entries({
      types: branch.types,
      enum: branch.enum,
      extensibleEnum: branch.extensibleEnum,
      minimum: branch.minimum,
      maximum: branch.maximum,
      counts: Object.keys(branch.counts).length ? branch.counts : undefined,
      patterns: branch.patterns.length ? branch.patterns : undefined,
      formats: branch.formats.length ? branch.formats : undefined,
      multipleOf: branch.multipleOf.length ? branch.multipleOf : undefined,
      uniqueItems: branch.uniqueItems || undefined,
      required: branch.required.size ? [...branch.required] : undefined,
      properties: branch.properties.size ? map(branch.properties) : undefined,
      additionalProperties: branch.additionalProperties && summary(branch.additionalProperties, depth + 1),
      items: branch.items && summary(branch.items, depth + 1),
      prefixItems: branch.prefixItems?.map((part) => summary(part, depth + 1)),
      default: branch.hasDefault ? { value: branch.default } : undefined,
      opaque: branch.opaque.size ? Object.fromEntries(branch.opaque) : undefined,
      subschemas: branch.subschemas.size ? [...branch.subschemas.keys()] : undefined,
      at: Object.fromEntries([...branch.at].map(([key, path]) => [key, path.join('/')])),
      src: branch.src.join('/'),
      origin: branch.origin.length ? branch.origin : undefined,
      titles: branch.originTitles.length ? branch.originTitles : undefined,
    }).filter(([, value]) => value !== undefined),
  );
}

const str = { type: 'string' };
const cases: [string, unknown, Record<string, unknown>?][] = [
  ['true', true],
  ['false', false],
  ['a non-schema', 'text'],
  [
    'every own keyword',
    {
      type: ['string', 'null', 'bogus'],
      enum: ['a', null, 3],
      minLength: 1,
      maxLength: 5,
      pattern: '^a',
      format: 'email',
      default: 'a',
    },
  ],
  [
    'numbers, both bounds of each side',
    { type: 'number', minimum: 1, exclusiveMinimum: 1, maximum: 9, exclusiveMaximum: 10, multipleOf: 0.5 },
  ],
  [
    'an exclusive bound tighter than the inclusive',
    { type: 'integer', minimum: 1, exclusiveMinimum: 3, maximum: 9, exclusiveMaximum: 5 },
  ],
  ['a const beside an enum', { enum: ['a', 'b'], const: 'b' }],
  ['a const outside its enum: nothing', { enum: ['a'], const: 'b' }],
  ['an empty type list: nothing', { type: [] }],
  ['x-extensible-enum', { type: 'string', 'x-extensible-enum': ['a', 'b'] }],
  [
    'arrays',
    {
      type: 'array',
      items: str,
      prefixItems: [{ type: 'integer' }],
      minItems: 1,
      maxItems: 4,
      uniqueItems: true,
      contains: { const: 1 },
    },
  ],
  [
    'objects',
    {
      type: 'object',
      required: ['a', 'b'],
      properties: { a: str, b: { type: 'integer' } },
      additionalProperties: false,
      minProperties: 1,
      maxProperties: 3,
      propertyNames: { maxLength: 3 },
      patternProperties: { '^x-': str },
      dependentSchemas: { a: { required: ['b'] } },
    },
  ],
  ['additionalProperties true: no constraint', { type: 'object', additionalProperties: true, items: true }],
  [
    'opaque and annotation keywords',
    {
      type: 'string',
      not: { const: 'x' },
      contentMediaType: 'text/plain',
      description: 'd',
      title: 't',
      examples: ['a'],
      'x-note': 1,
      if: { const: 'a' },
      then: { maxLength: 1 },
    },
  ],
  [
    'allOf: bounds and counts tightened, sets merged',
    {
      allOf: [
        { type: ['integer', 'string'], minimum: 1, maximum: 9, minLength: 2, pattern: 'a', required: ['a'] },
        {
          type: 'integer',
          minimum: 3,
          maximum: 5,
          minLength: 1,
          pattern: 'b',
          required: ['b'],
          properties: { a: str },
        },
      ],
    },
  ],
  [
    'allOf: exclusive and inclusive at the same value',
    {
      allOf: [
        { minimum: 3, maximum: 7 },
        { exclusiveMinimum: 3, exclusiveMaximum: 7 },
      ],
    },
  ],
  ['allOf: enums intersected', { allOf: [{ enum: ['a', 'b', 'c'] }, { enum: ['b', 'c', 'd'] }] }],
  ['allOf: types that never meet', { allOf: [{ type: 'string' }, { type: 'integer' }] }],
  ['allOf: number and integer', { allOf: [{ type: 'number' }, { type: 'integer' }] }],
  [
    'allOf: a property in both',
    { allOf: [{ properties: { a: { minLength: 1 } } }, { properties: { a: { maxLength: 3 } } }] },
  ],
  [
    'allOf: formats, multipleOf, uniqueItems, defaults, opaque',
    {
      allOf: [
        { format: 'date', multipleOf: 2, default: 1, not: { const: 1 } },
        { format: 'email', multipleOf: 3, uniqueItems: true, default: 2, not: { const: 2 } },
      ],
    },
  ],
  [
    'anyOf of titled, $ref and positional branches',
    {
      anyOf: [
        { title: 'Card', type: 'object' },
        { $ref: '#/components/schemas/Bank~1Account' },
        { $ref: '#/$defs/wallet' },
        { type: 'null' },
      ],
    },
  ],
  ['oneOf whose branches have different types: exact', { oneOf: [{ type: 'string' }, { type: 'integer' }] }],
  [
    'oneOf whose branches differ by a const on a required property: exact',
    {
      oneOf: [
        { required: ['kind'], properties: { kind: { const: 'a' } } },
        { required: ['kind'], properties: { kind: { const: 'b' } } },
      ],
    },
  ],
  ['oneOf whose branches may overlap: undecided', { oneOf: [{ type: 'string' }, { minLength: 1 }] }],
  [
    'anyOf inside allOf: distributed',
    { allOf: [{ anyOf: [{ type: 'string' }, { type: 'integer' }] }, { anyOf: [{ minimum: 1 }, { maxLength: 2 }] }] },
  ],
  ['a $ref beside keywords', { $ref: '#/components/schemas/Bank~1Account', description: 'x', maxLength: 4 }],
  ['a recursive schema', { $ref: '#/components/schemas/Node' }],
  [
    'a readOnly property required, on the request side',
    { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer', readOnly: true }, name: str } },
    { site: 'request' },
  ],
  [
    'a readOnly property required, on the response side',
    { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer', readOnly: true }, name: str } },
    { site: 'response' },
  ],
  [
    'a writeOnly property through a $ref, on the response side',
    { type: 'object', required: ['secret'], properties: { secret: { $ref: '#/components/schemas/Secret' } } },
    { site: 'response' },
  ],
];

const components = {
  schemas: {
    'Bank/Account': { title: 'Bank account', type: 'object', required: ['iban'], properties: { iban: str } },
    Node: { type: 'object', properties: { next: { $ref: '#/components/schemas/Node' } } },
    Secret: { type: 'string', writeOnly: true },
  },
};
const defs = { wallet: { title: 'Wallet', type: 'object' } };

describe('SchemaNormalizer', () => {
  it.each(cases)('%s', (_name, schema, options) => {
    const document = { components, $defs: defs, schema };
    const site = options?.site as 'request' | 'response' | undefined;
    const norm = new SchemaNormalizer(document, site).normalize(schema, ['schema']);
    expect(summary(norm)).toMatchSnapshot();
  });

  it('normalizes each schema object once', () => {
    const shared = { type: 'string', maxLength: 3 };
    const normalizer = new SchemaNormalizer({ shared });
    expect(normalizer.normalize(shared, ['a'])).toBe(normalizer.normalize(shared, ['b']));
  });

  it('bounds the disjunctive form: past 64 branches, the form over-approximates and says so', () => {
    const choice = (key: string) => ({
      anyOf: Array.from({ length: 9 }, (_, index) => ({ properties: { [key]: { const: index } } })),
    });
    const norm = new SchemaNormalizer({}).normalize({ allOf: [choice('a'), choice('b')] }, ['s']);
    expect(norm.branches.length).toBeLessThanOrEqual(64);
    expect(norm.undecided).toMatch(/branches|combinations/);
  });
});

describe('typeOfValue and canonical', () => {
  it.each([
    [null, 'null'],
    [true, 'boolean'],
    [1, 'integer'],
    [1.5, 'number'],
    ['1', 'string'],
    [[], 'array'],
    [{}, 'object'],
  ])('types %j as %s', (value, type) => {
    expect(typeOfValue(value)).toBe(type);
  });

  it('writes equal values alike, whatever the key order, and different values apart', () => {
    expect(canonical({ b: [1, { d: 1, c: 2 }], a: null })).toBe(canonical({ a: null, b: [1, { c: 2, d: 1 }] }));
    expect(canonical({ a: 1 })).not.toBe(canonical({ a: '1' }));
    expect(canonical([1, 2])).not.toBe(canonical([2, 1]));
    expect(canonical({ a: [] })).toBe('{"a":[]}');
  });
});

describe('what one side of the wire does not require (readOnly on requests, writeOnly on responses)', () => {
  const chain = (length: number, last: Record<string, unknown>) =>
    Object.fromEntries(
      Array.from({ length }, (_, index) => [
        `R${index + 1}`,
        index + 1 === length ? last : { $ref: `#/components/schemas/R${index + 2}` },
      ]),
    );
  const requiredOf = (property: unknown, schemas: Record<string, unknown>, site?: 'request' | 'response') => {
    const schema = { type: 'object', required: ['p'], properties: { p: property } };
    const norm = new SchemaNormalizer({ components: { schemas }, schema }, site).normalize(schema, ['schema']);
    return [...norm.branches[0]!.required];
  };
  const readOnly = { type: 'string', readOnly: true };
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

  it.each([
    ['readOnly, on the request side', readOnly, {}, 'request', []],
    ['readOnly, on the response side', readOnly, {}, 'response', ['p']],
    ['writeOnly, on the response side', { writeOnly: true }, {}, 'response', []],
    ['writeOnly, with no side given', { writeOnly: true }, {}, undefined, ['p']],
    // JSON Schema 2020-12 Validation §9.4: true if any occurrence says true (and 3.0 ignores a $ref's siblings).
    [
      'readOnly: false beside a $ref to a readOnly schema: the true one counts',
      { readOnly: false, ...ref('R1') },
      chain(1, readOnly),
      'request',
      [],
    ],
    ['readOnly eight $refs away', ref('R1'), chain(8, readOnly), 'request', []],
    // Each schema is looked into once (read-write-marks.ts), so no bound on the chain is needed.
    ['readOnly twenty $refs away', ref('R1'), chain(20, readOnly), 'request', []],
    ['readOnly in an allOf member', { allOf: [readOnly] }, {}, 'request', []],
    ['a $ref cycle: required, and it ends', ref('A'), { A: ref('B'), B: ref('A') }, 'request', ['p']],
    ['a $ref to nothing', ref('Missing'), {}, 'request', ['p']],
    ['a $ref to a value that is no schema', ref('Text'), { Text: 'text' }, 'request', ['p']],
    ['a property that is null', null, {}, 'request', ['p']],
    ['a property that is true', true, {}, 'request', ['p']],
  ] as const)('%s', (_name, property, schemas, site, required) => {
    expect(requiredOf(property, schemas as Record<string, unknown>, site)).toEqual(required);
  });
});

describe('values that are no schema object', () => {
  it.each([
    ['null', null],
    ['an array', [{ type: 'string' }]],
    ['a number', 3],
    ['undefined', undefined],
  ])('reads %s as a schema that accepts anything', (_name, schema) => {
    const norm = new SchemaNormalizer({}).normalize(schema, ['s']);
    expect(summary(norm)).toEqual({ branches: [{ at: {}, src: 's' }] });
  });
});

describe('the small rules of the normal form', () => {
  const branchOf = (schema: unknown, document: Record<string, unknown> = {}) =>
    new SchemaNormalizer({ ...document, schema }).normalize(schema, ['schema']).branches[0]!;

  it.each([
    ['{}', {}, true],
    ['annotations only', { title: 't', description: 'd', examples: [1], 'x-note': 1 }, true],
    ['a type', { type: 'string' }, false],
    ['an enum', { enum: [1] }, false],
    ['a count', { minLength: 1 }, false],
    ['a pattern', { pattern: 'a' }, false],
    ['a format', { format: 'date' }, false],
    ['multipleOf', { multipleOf: 2 }, false],
    ['uniqueItems', { uniqueItems: true }, false],
    ['required', { required: ['a'] }, false],
    ['properties', { properties: { a: {} } }, false],
    ['additionalProperties', { additionalProperties: false }, false],
    ['items', { items: { type: 'string' } }, false],
    ['prefixItems', { prefixItems: [{}] }, false],
    ['an opaque keyword', { not: {} }, false],
  ])('constrainsNothing: %s → %s', (_name, schema, nothing) => {
    expect(constrainsNothing(branchOf(schema))).toBe(nothing);
  });

  it('constrainsNothing: a recursion point stands for a schema, so constrains', () => {
    const node = { type: 'object', properties: { next: { $ref: '#/node' } } };
    const norm = new SchemaNormalizer({ node }).normalize(node, ['node']);
    const next = norm.branches[0]!.properties.get('next')!.branches[0]!;
    expect(next.resolve).toBeDefined();
    expect(constrainsNothing(next)).toBe(false);
  });

  it('tighter: the exclusive of two bounds at one value, whichever comes first; else the inner one', () => {
    const at = (value: number, exclusive: boolean) => ({ value, exclusive });
    expect(tighter(at(5, false), at(5, true), 'lower')).toEqual(at(5, true));
    expect(tighter(at(5, true), at(5, false), 'lower')).toEqual(at(5, true));
    expect(tighter(at(5, true), at(5, false), 'upper')).toEqual(at(5, true));
    expect(tighter(at(3, false), at(5, false), 'lower')).toEqual(at(5, false));
    expect(tighter(at(3, false), at(5, false), 'upper')).toEqual(at(3, false));
  });

  it('typeCovers: a number type covers integers, not the other way round', () => {
    expect(typeCovers(['number'], 'integer')).toBe(true);
    expect(typeCovers(['integer'], 'number')).toBe(false);
    expect(typeCovers(['string', 'null'], 'null')).toBe(true);
    expect(typeCovers([], 'null')).toBe(false);
  });

  it('allOf of integer and number, in either order, is integer; a oneOf of them may overlap', () => {
    expect(branchOf({ allOf: [{ type: 'integer' }, { type: 'number' }] }).types).toEqual(['integer']);
    expect(branchOf({ allOf: [{ type: 'number' }, { type: 'integer' }] }).types).toEqual(['integer']);
    const oneOf = new SchemaNormalizer({}).normalize({ oneOf: [{ type: 'integer' }, { type: 'number' }] }, ['s']);
    expect(oneOf.undecided).toBe('oneOf at /s (its branches may overlap)');
    const apart = new SchemaNormalizer({}).normalize({ oneOf: [{ type: 'string' }, { type: 'number' }] }, ['s']);
    expect(apart.undecided).toBeUndefined();
  });

  it('names an anyOf branch by title, component, the title a $ref reaches, or the $ref', () => {
    const document = {
      components: { schemas: { 'Bank~0Account': { type: 'object' }, A: { properties: { x: { title: 'X' } } } } },
      $defs: { untitled: { type: 'string' }, titled: { title: 'Titled', type: 'string' } },
    };
    const schema = {
      anyOf: [
        { title: 'Own', type: 'null' },
        { $ref: '#/components/schemas/Bank~0Account' },
        { $ref: '#/components/schemas/A/properties/x' },
        { $ref: '#/$defs/untitled' },
        { $ref: '#/$defs/titled' },
        { type: 'boolean' },
      ],
    };
    const norm = new SchemaNormalizer({ ...document, schema }).normalize(schema, ['schema']);
    expect(norm.branches.map((branch) => branch.originTitles.at(-1))).toEqual([
      'Own',
      'Bank~Account',
      'X',
      '#/$defs/untitled',
      'Titled',
      'anyOf[5]',
    ]);
  });

  it('reads properties that are no object as none', () => {
    expect(branchOf({ type: 'object', properties: 'ab' }).properties.size).toBe(0);
    expect(branchOf({ type: 'object', properties: null }).properties.size).toBe(0);
  });

  it('keeps 64 combinations of an allOf exactly, and over-approximates past them', () => {
    const choice = (key: string, count: number) => ({
      anyOf: Array.from({ length: count }, (_, index) => ({ properties: { [key]: { const: index } } })),
    });
    const exact = new SchemaNormalizer({}).normalize({ allOf: [choice('a', 8), choice('b', 8)] }, ['s']);
    expect([exact.branches.length, exact.undecided]).toEqual([64, undefined]);
    const over = new SchemaNormalizer({}).normalize({ allOf: [choice('a', 5), choice('b', 13)] }, ['s']);
    expect(over.branches.length).toBe(1);
    expect(over.undecided).toBe('the composition at /s (more than 64 combinations)');
    expect(over.branches[0]!.opaque.get('$tooManyBranches')).toBe('/s');
  });
});
