// A ⊆ B, keyword by keyword: each row two schemas and the whole list of reasons the inclusion gives (kind, whether it
// fails, the instance path, where the keyword is written on each side, the detail and the values). The diff's messages
// and GitHub annotations are built from these records, so a wrong path or a wrong kind is a wrong report. The records
// are in __snapshots__/schema-inclusion.test.ts.snap, reviewed when written; rows whose verdict matters most are also
// asserted here outright. `rejection` (why a branch refuses one value) has its own table below.
import { describe, expect, it } from 'vitest';
import { type Norm, SchemaNormalizer } from '../../src/core/diff/schema-branches.js';
import { type Reason, accepts, includes, rejection, show } from '../../src/core/diff/schema-inclusion.js';

type Schema = unknown;

const components = {
  schemas: {
    Card: { title: 'Card', type: 'object', required: ['number'], properties: { number: { type: 'string' } } },
    Bank: { title: 'Bank', type: 'object', required: ['iban'], properties: { iban: { type: 'string' } } },
    Node: { type: 'object', properties: { next: { $ref: '#/components/schemas/Node' }, v: { type: 'string' } } },
    NodeV2: {
      type: 'object',
      properties: { next: { $ref: '#/components/schemas/NodeV2' }, v: { type: 'string', maxLength: 3 } },
    },
  },
};

const normOf = (schema: Schema, root: 'a' | 'b', site?: 'request' | 'response'): Norm =>
  new SchemaNormalizer({ components, [root]: schema }, site).normalize(schema, [root]);

function record(reason: Reason): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries({
      kind: reason.kind,
      failing: reason.failing,
      path: reason.instancePath,
      aAt: reason.aAt.join('/'),
      bAt: reason.bAt.join('/'),
      detail: reason.detail,
      values: reason.values,
      requiredInA: reason.requiredInA,
      certain: reason.certain,
      branch: reason.branch?.src.join('/'),
    }).filter(([, value]) => value !== undefined),
  );
}

function inclusion(a: Schema, b: Schema) {
  const result = includes(normOf(a, 'a'), normOf(b, 'b'));
  return { holds: result.holds, reasons: result.reasons.map(record) };
}

// Fresh objects each time: the normalizer knows a schema object it met before by identity (and where it met it).
const str = () => ({ type: 'string' });
const int = () => ({ type: 'integer' });
/** `levels` nestings of `wrap` around `leaf`. */
const nest = (leaf: Schema, levels: number, wrap: (inner: Schema) => Schema): Schema =>
  levels === 0 ? leaf : wrap(nest(leaf, levels - 1, wrap));

const cases: [string, Schema, Schema][] = [
  ['the same schema', { type: 'string', maxLength: 3 }, { type: 'string', maxLength: 3 }],
  ['anything ⊆ anything', {}, true],
  ['nothing ⊆ anything', false, str()],
  ['anything ⊄ nothing', str(), false],
  ['no type ⊄ nothing', {}, false],
  ['two types ⊄ nothing', { type: ['string', 'integer'] }, false],
  // types
  ['a type widened', str(), { type: ['string', 'integer'] }],
  ['a type narrowed', { type: ['string', 'integer', 'null'] }, str()],
  ['integer ⊆ number', int(), { type: 'number' }],
  ['number ⊄ integer', { type: 'number' }, int()],
  ['no type ⊄ a type', {}, { type: 'object' }],
  ['disjoint types: only the type is said', str(), { type: 'integer', minimum: 3 }],
  // enums and consts
  ['an enum narrowed', { enum: ['a', 'b', 'c'] }, { enum: ['a'] }],
  ['an enum widened', { enum: ['a'] }, { enum: ['a', 'b'] }],
  ['an enum against a const', { enum: ['a', 'b'] }, { const: 'a' }],
  ['an enum against a type', { enum: ['a', 1, null] }, str()],
  ['enum values a bound refuses', { enum: [1, 5, 10] }, { type: 'integer', minimum: 2, maximum: 9 }],
  ['enum values at exclusive bounds', { enum: [2, 5, 9] }, { exclusiveMinimum: 2, exclusiveMaximum: 9 }],
  ['enum values against multipleOf', { enum: [2, 3, 4] }, { multipleOf: 2 }],
  ['enum strings against lengths', { enum: ['', 'ab', 'abcd'] }, { minLength: 1, maxLength: 3 }],
  ['enum strings against a pattern', { enum: ['ab', 'ba'] }, { pattern: '^a' }],
  ['enum strings against a format', { enum: ['2024-01-01', 'soon'] }, { format: 'date' }],
  ['enum arrays against counts', { enum: [[], [1, 2, 3]] }, { minItems: 1, maxItems: 2 }],
  [
    'enum arrays against uniqueItems',
    {
      enum: [
        [1, 1],
        [1, 2],
      ],
    },
    { uniqueItems: true },
  ],
  ['enum arrays against items', { enum: [['a'], [1]] }, { items: str() }],
  [
    'enum arrays against prefixItems',
    {
      enum: [
        [1, 'a'],
        ['a', 1],
      ],
    },
    { prefixItems: [int()] },
  ],
  ['enum objects against counts', { enum: [{}, { a: 1, b: 2, c: 3 }] }, { minProperties: 1, maxProperties: 2 }],
  ['enum objects against required', { enum: [{ a: 1 }, { b: 1 }] }, { required: ['a'] }],
  ['enum objects against properties', { enum: [{ a: 1 }, { a: 'x' }] }, { properties: { a: str() } }],
  [
    'enum objects against additionalProperties',
    { enum: [{ a: 1 }, { b: 'x' }, { b: 1 }] },
    { properties: { a: int() }, additionalProperties: str() },
  ],
  ['an enum value its own schema refuses is no value', { enum: ['a', 'long'], maxLength: 1 }, { enum: ['a'] }],
  ['a const changed', { const: 'a' }, { const: 'b' }],
  ['an enum added to B', str(), { type: 'string', enum: ['a'] }],
  ['x-extensible-enum with values gone', { 'x-extensible-enum': ['a', 'b', 'c'] }, { 'x-extensible-enum': ['a'] }],
  ['x-extensible-enum with values added', { 'x-extensible-enum': ['a'] }, { 'x-extensible-enum': ['a', 'b'] }],
  // defaults
  ['a default changed', { type: 'string', default: 'a' }, { type: 'string', default: 'b' }],
  ['a default added', str(), { type: 'string', default: 'a' }],
  ['a default kept', { type: 'string', default: 'a' }, { type: 'string', default: 'a' }],
  // numbers
  ['a minimum raised', { type: 'integer', minimum: 1 }, { type: 'integer', minimum: 3 }],
  ['a minimum lowered', { type: 'integer', minimum: 3 }, { type: 'integer', minimum: 1 }],
  ['a minimum added', int(), { type: 'integer', minimum: 0 }],
  ['a maximum lowered', { type: 'number', maximum: 9 }, { type: 'number', maximum: 5 }],
  ['a maximum made exclusive', { type: 'number', maximum: 9 }, { type: 'number', exclusiveMaximum: 9 }],
  ['an exclusive maximum made inclusive', { type: 'number', exclusiveMaximum: 9 }, { type: 'number', maximum: 9 }],
  ['a minimum made exclusive', { type: 'number', minimum: 1 }, { type: 'number', exclusiveMinimum: 1 }],
  ['multipleOf 4 ⊆ multipleOf 2', { type: 'integer', multipleOf: 4 }, { type: 'integer', multipleOf: 2 }],
  ['multipleOf 2 ⊄ multipleOf 4', { type: 'integer', multipleOf: 2 }, { type: 'integer', multipleOf: 4 }],
  ['multipleOf 0.5 ⊄ multipleOf 2', { type: 'number', multipleOf: 0.5 }, { type: 'number', multipleOf: 2 }],
  ['multipleOf added', int(), { type: 'integer', multipleOf: 3 }],
  ['number bounds do not apply to strings', str(), { type: ['string', 'null'], minimum: 1, multipleOf: 2 }],
  // strings
  ['minLength raised, maxLength lowered', { minLength: 1, maxLength: 9 }, { minLength: 2, maxLength: 5 }],
  ['lengths relaxed', { type: 'string', minLength: 2, maxLength: 5 }, { type: 'string', minLength: 1, maxLength: 9 }],
  ['a maxLength added', str(), { type: 'string', maxLength: 5 }],
  ['a pattern added', str(), { type: 'string', pattern: '^a' }],
  ['a pattern narrowed', { type: 'string', pattern: '^[ab]' }, { type: 'string', pattern: '^a' }],
  ['a pattern widened', { type: 'string', pattern: '^a' }, { type: 'string', pattern: '^[ab]' }],
  ['the same unreadable pattern', { type: 'string', pattern: '^(?=a)' }, { type: 'string', pattern: '^(?=a)' }],
  ['an unreadable pattern added', str(), { type: 'string', pattern: '^(?=a)' }],
  ['a format added', str(), { type: 'string', format: 'date' }],
  ['a format kept', { type: 'string', format: 'date' }, { type: 'string', format: 'date' }],
  ['string keywords do not apply to numbers', int(), { type: ['integer', 'null'], maxLength: 1, format: 'date' }],
  // arrays
  ['minItems raised', { type: 'array', minItems: 1 }, { type: 'array', minItems: 2, maxItems: 4 }],
  ['uniqueItems added', { type: 'array' }, { type: 'array', uniqueItems: true }],
  ['uniqueItems kept', { type: 'array', uniqueItems: true }, { type: 'array', uniqueItems: true }],
  ['items narrowed', { type: 'array', items: str() }, { type: 'array', items: { type: 'string', maxLength: 2 } }],
  ['items added', { type: 'array' }, { type: 'array', items: int() }],
  [
    'prefixItems: one more position in B',
    { type: 'array', prefixItems: [str()] },
    { type: 'array', prefixItems: [str(), int()] },
  ],
  [
    'prefixItems: one more position in A, then items',
    { type: 'array', prefixItems: [str(), str()] },
    { type: 'array', prefixItems: [str()], items: int() },
  ],
  [
    'array keywords do not apply to objects',
    { type: 'object' },
    { type: ['object', 'null'], minItems: 1, items: int() },
  ],
  // objects
  ['a property made required', { properties: { a: str() } }, { required: ['a'], properties: { a: str() } }],
  ['a required property removed from A', { properties: {} }, { required: ['a'], properties: { a: str() } }],
  ['required without a declared property', {}, { required: ['a'] }],
  ['required kept', { required: ['a'] }, { required: ['a'] }],
  ['a property narrowed', { properties: { a: str() } }, { properties: { a: { type: 'string', maxLength: 1 } } }],
  [
    'a property only in A (B open)',
    { required: ['a'], properties: { a: str(), b: int() } },
    { properties: { b: int() } },
  ],
  ['a property only in B (A open)', { properties: { a: str() } }, { properties: { a: str(), b: int() } }],
  [
    'a property only in B that B requires',
    { properties: { a: str() } },
    { required: ['b'], properties: { a: str(), b: int() } },
  ],
  [
    'a property A declares and B closes out',
    { required: ['b'], properties: { a: str(), b: int() } },
    { properties: { a: str() }, additionalProperties: false },
  ],
  [
    'undeclared properties closed',
    { properties: { a: str() } },
    { properties: { a: str() }, additionalProperties: false },
  ],
  ['closed on both sides', { additionalProperties: false }, { additionalProperties: false }],
  [
    'a property against B’s additionalProperties',
    { properties: { a: str() } },
    { additionalProperties: { type: 'string', maxLength: 1 } },
  ],
  [
    'A’s additionalProperties against a property of B',
    { additionalProperties: str() },
    { properties: { b: { type: 'string', minLength: 1 } } },
  ],
  [
    'A closed meets B’s property and additionalProperties',
    { properties: { a: str() }, additionalProperties: false },
    { properties: { a: str(), b: int() }, additionalProperties: int() },
  ],
  [
    'additionalProperties narrowed',
    { additionalProperties: { type: 'string' } },
    { additionalProperties: { type: 'string', maxLength: 1 } },
  ],
  [
    'a property no value fits is none A has',
    { allOf: [{ properties: { a: false } }, { properties: { b: str() } }] },
    { properties: { b: str() }, additionalProperties: false },
  ],
  ['property counts', { type: 'object', minProperties: 1 }, { type: 'object', minProperties: 2, maxProperties: 3 }],
  // compositions
  [
    'an anyOf branch removed, named',
    { anyOf: [{ $ref: '#/components/schemas/Card' }, { $ref: '#/components/schemas/Bank' }] },
    { $ref: '#/components/schemas/Card' },
  ],
  [
    'a titled oneOf branch removed',
    {
      oneOf: [
        { title: 'Text', type: 'string' },
        { title: 'Count', type: 'integer', minimum: 0 },
      ],
    },
    {
      oneOf: [
        { title: 'Text', type: 'string' },
        { type: 'number', minimum: 5 },
      ],
    },
  ],
  [
    'an untitled branch that fits nothing',
    { anyOf: [{ type: 'integer', minimum: 0 }, str()] },
    { anyOf: [{ type: 'integer', minimum: 5 }, str()] },
  ],
  ['a branch of a type B never has', { anyOf: [str(), { type: 'boolean' }] }, { anyOf: [str(), int()] }],
  ['a branch against no branch at all', { anyOf: [str(), int()] }, { anyOf: [] }],
  [
    'a branch moved: the one with nothing to say first',
    { anyOf: [{ title: 'A', type: 'string', maxLength: 3 }] },
    {
      anyOf: [
        { title: 'A', type: 'string', maxLength: 9, default: 'x' },
        { title: 'B', type: 'string' },
      ],
    },
  ],
  [
    'a branch paired with its namesake when several fit',
    { anyOf: [{ title: 'A', type: 'string' }] },
    {
      anyOf: [
        { title: 'B', type: 'string', default: 'b' },
        { title: 'A', type: 'string', default: 'a' },
      ],
    },
  ],
  [
    'a branch paired with its namesake when none fits',
    { anyOf: [{ title: 'A', type: 'string', maxLength: 9 }] },
    {
      anyOf: [
        { title: 'B', type: 'string', maxLength: 2 },
        { title: 'A', type: 'string', maxLength: 5 },
      ],
    },
  ],
  [
    'every value of A matches two oneOf branches',
    { type: 'string', maxLength: 1 },
    { oneOf: [{ type: 'string' }, { type: 'string', maxLength: 5 }] },
  ],
  ['a value of A fits one of two disjoint oneOf branches', { type: 'string', maxLength: 1 }, { oneOf: [str(), int()] }],
  [
    'A itself undecided: its failures give way to one undecided',
    { oneOf: [str(), { minLength: 1 }] },
    { type: 'string', maxLength: 2 },
  ],
  ['B undecided, A fits', str(), { oneOf: [str(), { minLength: 1 }] }],
  ['allOf parts merged on both sides', { allOf: [str(), { maxLength: 3 }] }, { allOf: [{ maxLength: 5 }, str()] }],
  // recursion
  ['a recursive schema against itself', { $ref: '#/components/schemas/Node' }, { $ref: '#/components/schemas/Node' }],
  ['a recursive schema narrowed', { $ref: '#/components/schemas/Node' }, { $ref: '#/components/schemas/NodeV2' }],
  // keywords kept opaque
  ['`not` widened', { not: { type: 'string' } }, { not: { type: 'string', maxLength: 1 } }],
  ['`not` narrowed', { not: { type: 'string', maxLength: 1 } }, { not: { type: 'string' } }],
  ['`not` added', {}, { not: str() }],
  ['`not` removed', { not: str() }, {}],
  ['propertyNames narrowed', { propertyNames: { maxLength: 5 } }, { propertyNames: { maxLength: 3 } }],
  ['propertyNames widened', { propertyNames: { maxLength: 3 } }, { propertyNames: { maxLength: 5 } }],
  [
    'contentSchema narrowed',
    { contentSchema: { type: 'object' } },
    { contentSchema: { type: 'object', required: ['a'] } },
  ],
  ['then narrowed under the same if', { if: str(), then: { maxLength: 5 } }, { if: str(), then: { maxLength: 3 } }],
  ['else narrowed under another if', { if: str(), else: { minimum: 1 } }, { if: int(), else: { minimum: 3 } }],
  ['if added with then', {}, { if: str(), then: { maxLength: 3 } }],
  ['if added alone', {}, { if: str() }],
  [
    'a lone if changed beside unevaluatedProperties: false (it decides what is evaluated)',
    { unevaluatedProperties: false, if: { properties: { a: true } } },
    { unevaluatedProperties: false, if: { properties: { b: true } } },
  ],
  ['$dynamicRef added (neither narrowing nor inert: undecided)', {}, { $dynamicRef: '#node' }],
  ['then added without if', {}, { then: { maxLength: 3 } }],
  ['else added without if', {}, { else: { maxLength: 3 } }],
  ['if removed from under then', { if: str(), then: { maxLength: 3 } }, { then: { maxLength: 3 } }],
  ['then narrowed, the if dropped', { if: str(), then: { maxLength: 5 } }, { then: { maxLength: 3 } }],
  ['unevaluatedProperties false → true', { unevaluatedProperties: false }, { unevaluatedProperties: true }],
  ['an unknown keyword changed', { 'x-rule': 1, 'x-other': 2 }, { 'x-rule': 2 }],
  ['$comment changed', { $comment: 'a' }, { $comment: 'b' }],
  [
    'unevaluatedProperties narrowed, same properties',
    { properties: { a: str() }, unevaluatedProperties: str() },
    { properties: { a: str() }, unevaluatedProperties: { type: 'string', maxLength: 1 } },
  ],
  [
    'unevaluatedProperties narrowed, other properties',
    { properties: { a: str() }, unevaluatedProperties: str() },
    { properties: { b: str() }, unevaluatedProperties: { type: 'string', maxLength: 1 } },
  ],
  [
    'unevaluatedProperties narrowed, one more property',
    { properties: { a: str() }, unevaluatedProperties: str() },
    { properties: { a: str(), b: str() }, unevaluatedProperties: { type: 'string', maxLength: 1 } },
  ],
  [
    'unevaluatedProperties narrowed beside additionalProperties',
    { additionalProperties: true, unevaluatedProperties: str() },
    { additionalProperties: true, unevaluatedProperties: { type: 'string', maxLength: 1 } },
  ],
  [
    'unevaluatedProperties narrowed, patternProperties changed',
    { patternProperties: { '^a': str() }, unevaluatedProperties: str() },
    { patternProperties: { '^b': str() }, unevaluatedProperties: { type: 'string', maxLength: 1 } },
  ],
  ['unevaluatedProperties: true added', {}, { unevaluatedProperties: true }],
  ['unevaluatedProperties: false added', {}, { unevaluatedProperties: false }],
  ['unevaluatedItems narrowed', { unevaluatedItems: str() }, { unevaluatedItems: { type: 'string', maxLength: 1 } }],
  [
    'unevaluatedItems narrowed beside items',
    { items: true, unevaluatedItems: str() },
    { items: true, unevaluatedItems: { type: 'string', maxLength: 1 } },
  ],
  [
    'unevaluatedItems narrowed, prefixItems of other lengths',
    { prefixItems: [str()], unevaluatedItems: str() },
    { prefixItems: [str(), str()], unevaluatedItems: { type: 'string', maxLength: 1 } },
  ],
  ['unevaluatedItems: true added', {}, { unevaluatedItems: true }],
  ['contains added', { type: 'array' }, { type: 'array', contains: int() }],
  ['contains removed', { type: 'array', contains: int() }, { type: 'array' }],
  ['contains narrowed', { contains: { type: 'integer' } }, { contains: { type: 'integer', minimum: 1 } }],
  ['contains widened', { contains: { type: 'integer', minimum: 1 } }, { contains: { type: 'integer' } }],
  [
    'contains changed beside maxContains',
    { contains: { type: 'integer', minimum: 1 }, maxContains: 2 },
    { contains: { type: 'integer' }, maxContains: 2 },
  ],
  [
    'contains changed beside a maxContains in B only',
    { contains: { type: 'integer', minimum: 1 } },
    { contains: { type: 'integer' }, maxContains: 2 },
  ],
  ['minContains raised', { contains: int(), minContains: 1 }, { contains: int(), minContains: 2 }],
  ['minContains lowered', { contains: int(), minContains: 2 }, { contains: int(), minContains: 1 }],
  ['minContains added', { contains: int() }, { contains: int(), minContains: 2 }],
  ['maxContains lowered', { contains: int(), maxContains: 3 }, { contains: int(), maxContains: 2 }],
  ['maxContains added', { contains: int() }, { contains: int(), maxContains: 2 }],
  ['maxContains removed', { contains: int(), maxContains: 2 }, { contains: int() }],
  ['a count that is no number', { contains: int(), minContains: 'two' }, { contains: int(), minContains: 2 }],
  ['dependentRequired added', {}, { dependentRequired: { a: ['b'] } }],
  ['dependentRequired, A requires it always', { required: ['b'] }, { dependentRequired: { a: ['b'] } }],
  [
    'dependentRequired, A requires it beside the key',
    { dependentRequired: { a: ['b', 'c'] } },
    { dependentRequired: { a: ['b'] } },
  ],
  ['dependentRequired widened in B', { dependentRequired: { a: ['b'] } }, { dependentRequired: { a: ['b', 'c'] } }],
  ['dependentRequired beside another key', { dependentRequired: { c: ['b'] } }, { dependentRequired: { a: ['b'] } }],
  ['dependentRequired that is not a list', {}, { dependentRequired: { a: 'b' } }],
  ['dependentRequired that is not an object', {}, { dependentRequired: ['a'] }],
  ['dependentRequired removed', { dependentRequired: { a: ['b'] } }, {}],
  [
    'dependentSchemas narrowed per key',
    { dependentSchemas: { a: { required: ['b'] } } },
    { dependentSchemas: { a: { required: ['b', 'c'] } } },
  ],
  ['dependentSchemas: a key added', {}, { dependentSchemas: { a: { required: ['b'] } } }],
  ['dependentSchemas: a key added that accepts anything', {}, { dependentSchemas: { a: {} } }],
  [
    'dependentSchemas set twice in an allOf',
    { allOf: [{ dependentSchemas: { a: { required: ['b'] } } }, { dependentSchemas: { a: { required: ['c'] } } }] },
    { dependentSchemas: { a: { required: ['b'] } } },
  ],
  [
    'patternProperties narrowed',
    { patternProperties: { '^a': str() } },
    { patternProperties: { '^a': { type: 'string', maxLength: 1 } } },
  ],
  ['patternProperties: a key added', {}, { patternProperties: { '^a': str() } }],
  [
    'patternProperties: a key added beside additionalProperties in A',
    { additionalProperties: str() },
    { additionalProperties: str(), patternProperties: { '^a': int() } },
  ],
  [
    'patternProperties: a key added beside additionalProperties in B only',
    {},
    { additionalProperties: true, patternProperties: { '^a': int() } },
  ],
];

describe('includes: the reasons, whole', () => {
  it.each(cases)('%s', (_name, a, b) => {
    expect(inclusion(a, b)).toMatchSnapshot();
  });
});

describe('includes: verdicts that matter most', () => {
  it('holds where B accepts more, fails where it accepts less', () => {
    expect(inclusion(str(), { type: ['string', 'null'] }).holds).toBe(true);
    expect(inclusion({ type: ['string', 'null'] }, str()).holds).toBe(false);
    expect(inclusion({ type: 'integer', multipleOf: 4 }, { multipleOf: 2 }).holds).toBe(true);
    expect(inclusion({ type: 'number', multipleOf: 0.5 }, { multipleOf: 2 }).holds).toBe(false);
  });

  it('reads a property only one side declares as no failure', () => {
    const { holds, reasons } = inclusion({ properties: { a: str() } }, { properties: { b: str() } });
    expect(holds).toBe(true);
    expect(reasons.map((r) => r.kind).sort()).toEqual(['only-in-a', 'only-in-b']);
  });
});

describe('includes: depth and work are bounded', () => {
  // The comparison goes one level deeper per property, item, position, additionalProperties and keyword schema. At
  // 64 levels it still decides (and finds the leaf's change); past that it says it could not.
  const routes: [string, (inner: Schema) => Schema][] = [
    ['properties', (inner) => ({ properties: { p: inner } })],
    ['items', (inner) => ({ items: inner })],
    ['prefixItems', (inner) => ({ prefixItems: [inner] })],
    ['additionalProperties', (inner) => ({ additionalProperties: inner })],
    ['not (twice per level)', (inner) => ({ not: { not: inner } })],
  ];
  const leafA = { type: 'string' };
  const leafB = { type: 'string', maxLength: 1 };

  it.each(routes)('through %s: 63 levels decide, 65 do not', (name, wrap) => {
    const levels = name.startsWith('not') ? 31 : 63;
    const near = inclusion(nest(leafA, levels, wrap), nest(leafB, levels, wrap));
    expect(near.holds).toBe(false);
    expect(near.reasons.map((r) => r.kind)).not.toContain('undecided');
    const far = inclusion(nest(leafA, levels + 2, wrap), nest(leafB, levels + 2, wrap));
    // Through `not`, the undecided inner comparison leaves `not` itself undecided.
    expect(far.reasons.map((r) => [r.kind, r.detail])).toContainEqual([
      'undecided',
      name.startsWith('not') ? '`not`' : 'schemas nested deeper than 64 levels',
    ]);
  });

  it('at exactly 64 levels of properties it still decides; at 65 it does not', () => {
    const wrap = (inner: Schema) => ({ properties: { p: inner } });
    expect(inclusion(nest(leafA, 64, wrap), nest(leafB, 64, wrap)).reasons.map((r) => r.kind)).toEqual(['max']);
    expect(inclusion(nest(leafA, 65, wrap), nest(leafB, 65, wrap)).reasons.map((r) => r.kind)).toEqual(['undecided']);
  });

  it('past its work budget, says which schema had too many combinations', () => {
    // 64 object branches on each side, each with a property of 64 branches of its own: 64² pairs, each comparing 64².
    const side = (offset: number) => ({
      anyOf: Array.from({ length: 64 }, (_, i) => ({
        type: 'object',
        properties: { p: { anyOf: Array.from({ length: 64 }, (_, j) => ({ const: i * 64 + j + offset })) } },
      })),
    });
    const { holds, reasons } = inclusion(side(0), side(1));
    expect(holds).toBe(false);
    // It gives up where the budget ran out, at a branch's property, and names it.
    expect(reasons.filter((r) => r.kind === 'undecided').at(-1)).toEqual({
      kind: 'undecided',
      failing: true,
      path: '/p',
      aAt: 'a/anyOf/63/properties/p',
      bAt: 'b/anyOf/63/properties/p',
      detail: '/a/anyOf/63/properties/p (too many combinations to compare)',
    });
  });
});

describe('rejection: why one branch refuses one value', () => {
  const rows: [string, Schema, unknown, ReturnType<typeof rejection>][] = [
    ['a type', str(), 1, 'type'],
    ['integer for number', { type: 'number' }, 1, undefined],
    ['an enum', { enum: ['a'] }, 'b', 'enum'],
    ['an enum, equal by value', { enum: [{ a: [1] }] }, { a: [1] }, undefined],
    ['a format', { format: 'date' }, 'soon', 'constraint'],
    ['a format it holds', { format: 'date' }, '2024-02-29', undefined],
    ['a format no validator knows', { format: 'x-colour' }, 'red', undefined],
    ['below minimum', { minimum: 2 }, 1, 'min'],
    ['at minimum', { minimum: 2 }, 2, undefined],
    ['at exclusiveMinimum', { exclusiveMinimum: 2 }, 2, 'min'],
    ['above maximum', { maximum: 2 }, 3, 'max'],
    ['at maximum', { maximum: 2 }, 2, undefined],
    ['at exclusiveMaximum', { exclusiveMaximum: 2 }, 2, 'max'],
    ['not a multiple', { multipleOf: 2 }, 3, 'constraint'],
    ['a multiple', { multipleOf: 2 }, 4, undefined],
    ['too short', { minLength: 2 }, 'a', 'min'],
    ['long enough in code points', { maxLength: 1 }, '😀', undefined],
    ['too long', { maxLength: 1 }, 'ab', 'max'],
    ['a pattern', { pattern: '^a' }, 'b', 'pattern'],
    ['a pattern that matches', { pattern: '^a' }, 'ab', undefined],
    ['too few items', { minItems: 1 }, [], 'min'],
    ['too many items', { maxItems: 1 }, [1, 2], 'max'],
    ['repeated items', { uniqueItems: true }, [{ a: 1 }, { a: 1 }], 'constraint'],
    ['distinct items', { uniqueItems: true }, [{ a: 1 }, { a: 2 }], undefined],
    ['an item refused', { items: str() }, ['a', 1], 'constraint'],
    ['a position refused', { prefixItems: [str()] }, [1], 'constraint'],
    ['too few properties', { minProperties: 1 }, {}, 'min'],
    ['too many properties', { maxProperties: 1 }, { a: 1, b: 2 }, 'max'],
    ['a required property missing', { required: ['a'] }, { b: 1 }, 'required'],
    ['a property refused', { properties: { a: str() } }, { a: 1 }, 'constraint'],
    [
      'an undeclared property refused',
      { properties: { a: str() }, additionalProperties: false },
      { b: 1 },
      'constraint',
    ],
    ['an undeclared property allowed', { properties: { a: str() } }, { b: 1 }, undefined],
    ['string keywords on a number', { minLength: 2, pattern: '^a' }, 1, undefined],
    ['number keywords on a string', { minimum: 2, multipleOf: 2 }, 'a', undefined],
    ['array keywords on an object', { minItems: 2, uniqueItems: true }, { a: 1 }, undefined],
    ['object keywords on an array', { minProperties: 2, required: ['a'] }, [1], undefined],
  ];
  it.each(rows)('%s', (_name, schema, value, expected) => {
    const branch = normOf(schema, 'b').branches[0]!;
    expect(rejection(branch, value)).toBe(expected);
    expect(accepts(normOf(schema, 'b'), value)).toBe(expected === undefined);
  });
});

describe('show', () => {
  it('writes values as JSON, comma-separated, undefined by name', () => {
    expect(show(['a', 1, null, { b: [2] }, undefined])).toBe('"a", 1, null, {"b":[2]}, undefined');
    expect(show(undefined)).toBe('');
  });
});
