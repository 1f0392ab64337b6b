// From the two inclusions between a schema's versions to the changes a client reads: each row BASE, HEAD and the site
// (request or response body), and the whole list of changes (rule, the side it points at, where, the instance path,
// the message). The lists are in __snapshots__/classify-schema-change.test.ts.snap, reviewed when written.
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../src/core/create-ajv.js';
import { type ExampleCheck, type SiteKind, classifySchemaChange } from '../../src/core/diff/classify-schema-change.js';
import { SchemaNormalizer } from '../../src/core/diff/schema-branches.js';

type Schema = unknown;
const str = () => ({ type: 'string' });
const int = () => ({ type: 'integer' });

const ajv = createAjv({ allErrors: false });
/** The real validators' verdict on an instance, as the diff asks for it. */
const checkWith =
  (base: Schema, head: Schema): ExampleCheck =>
  (instance) => ({
    base: ajv.validate(base as object, instance) as boolean,
    head: ajv.validate(head as object, instance) as boolean,
  });

function changes(base: Schema, head: Schema, site: SiteKind, check?: ExampleCheck) {
  const norm = (schema: Schema, root: string) =>
    new SchemaNormalizer({ [root]: schema }, site).normalize(schema, [root]);
  return classifySchemaChange(norm(base, 'base'), norm(head, 'head'), site, check).map((change) => ({
    ...change,
    path: change.path.join('/'),
  }));
}

const cases: [string, SiteKind, Schema, Schema][] = [
  ['no change', 'request', { type: 'string', maxLength: 3 }, { type: 'string', maxLength: 3 }],
  // a type swapped is one change, said from the side where it hurts
  ['request: integer → string', 'request', int(), str()],
  ['response: integer → string', 'response', int(), str()],
  ['response: a type added', 'response', str(), { type: ['string', 'integer'] }],
  ['response: made nullable', 'response', str(), { type: ['string', 'null'] }],
  ['request: made nullable', 'request', str(), { type: ['string', 'null'] }],
  ['request: a type removed', 'request', { type: ['string', 'null'] }, str()],
  ['response: a type removed', 'response', { type: ['string', 'null'] }, str()],
  // request bodies: what no longer goes through breaks; what now does relaxes
  ['request: an enum value removed', 'request', { enum: ['a', 'b'] }, { enum: ['a'] }],
  ['request: an enum value added', 'request', { enum: ['a'] }, { enum: ['a', 'b'] }],
  [
    'request: x-extensible-enum values gone',
    'request',
    { type: 'string', 'x-extensible-enum': ['a', 'b'] },
    { type: 'string', 'x-extensible-enum': ['a'] },
  ],
  [
    'request: x-extensible-enum values added',
    'request',
    { type: 'string', 'x-extensible-enum': ['a'] },
    { type: 'string', 'x-extensible-enum': ['a', 'b'] },
  ],
  ['request: maxLength lowered', 'request', { type: 'string', maxLength: 9 }, { type: 'string', maxLength: 5 }],
  ['request: maxLength added', 'request', str(), { type: 'string', maxLength: 5 }],
  ['request: maxLength raised', 'request', { type: 'string', maxLength: 5 }, { type: 'string', maxLength: 9 }],
  ['request: maxLength removed', 'request', { type: 'string', maxLength: 5 }, str()],
  [
    'request: a maximum made exclusive',
    'request',
    { type: 'number', maximum: 9 },
    { type: 'number', exclusiveMaximum: 9 },
  ],
  [
    'response: an exclusive minimum made inclusive',
    'response',
    { type: 'number', exclusiveMinimum: 1 },
    { type: 'number', minimum: 1 },
  ],
  ['request: minimum raised', 'request', { type: 'integer', minimum: 1 }, { type: 'integer', minimum: 3 }],
  ['request: minimum lowered', 'request', { type: 'integer', minimum: 3 }, { type: 'integer', minimum: 1 }],
  ['request: a pattern added', 'request', str(), { type: 'string', pattern: '^a' }],
  ['request: a pattern removed', 'request', { type: 'string', pattern: '^a' }, str()],
  ['request: a format added', 'request', str(), { type: 'string', format: 'date' }],
  ['request: `not` added', 'request', str(), { type: 'string', not: { const: 'x' } }],
  [
    'request: a property made required',
    'request',
    { properties: { a: str() } },
    { required: ['a'], properties: { a: str() } },
  ],
  [
    'request: a property no longer required',
    'request',
    { required: ['a'], properties: { a: str() } },
    { properties: { a: str() } },
  ],
  [
    'request: a required property removed',
    'request',
    { properties: {} },
    { required: ['a'], properties: { a: str() } },
  ],
  [
    'request: a required property dropped from HEAD',
    'request',
    { required: ['a'], properties: { a: str() } },
    { properties: {} },
  ],
  [
    'request: a property refused',
    'request',
    { properties: { a: str(), b: int() } },
    { properties: { a: str() }, additionalProperties: false },
  ],
  [
    'request: undeclared fields refused',
    'request',
    { properties: { a: str() } },
    { properties: { a: str() }, additionalProperties: false },
  ],
  [
    'request: undeclared fields accepted',
    'request',
    { properties: { a: str() }, additionalProperties: false },
    { properties: { a: str() } },
  ],
  [
    'request: a new optional field beside a closed set',
    'request',
    { properties: { a: str() }, additionalProperties: false },
    { properties: { a: str(), b: int() }, additionalProperties: false },
  ],
  [
    'request: a new required field beside a closed set',
    'request',
    { properties: { a: str() }, additionalProperties: false },
    { required: ['b'], properties: { a: str(), b: int() }, additionalProperties: false },
  ],
  [
    'request: a field no longer documented',
    'request',
    { properties: { a: str(), b: int() } },
    { properties: { a: str() } },
  ],
  ['request: a new optional field', 'request', { properties: { a: str() } }, { properties: { a: str(), b: int() } }],
  ['request: a default changed', 'request', { type: 'string', default: 'a' }, { type: 'string', default: 'b' }],
  [
    'request: a branch removed',
    'request',
    { anyOf: [{ title: 'Card', type: 'object', required: ['n'] }, str()] },
    str(),
  ],
  ['request: a branch added', 'request', str(), { anyOf: [{ title: 'Card', type: 'object', required: ['n'] }, str()] }],
  [
    'request: one property made required in two branches, said once',
    'request',
    {
      anyOf: [
        { title: 'X', type: 'object', properties: { a: str() } },
        { title: 'Y', type: 'object', required: ['k'], properties: { a: str(), k: int() } },
      ],
    },
    {
      anyOf: [
        { title: 'X', type: 'object', required: ['a'], properties: { a: str() } },
        { title: 'Y', type: 'object', required: ['k', 'a'], properties: { a: str(), k: int() } },
      ],
    },
  ],
  ['request: a const instead of an enum', 'request', { enum: ['a', 'b'] }, { const: 'a' }],
  // response bodies: what may now come breaks readers; what no longer comes tightens
  ['response: an enum value added', 'response', { enum: ['a'] }, { enum: ['a', 'b'] }],
  ['response: an enum value removed', 'response', { enum: ['a', 'b'] }, { enum: ['a'] }],
  [
    'response: x-extensible-enum values gone',
    'response',
    { type: 'string', 'x-extensible-enum': ['a', 'b'] },
    { type: 'string', 'x-extensible-enum': ['a'] },
  ],
  ['response: maxLength raised', 'response', { type: 'string', maxLength: 5 }, { type: 'string', maxLength: 9 }],
  ['response: maxLength lowered', 'response', { type: 'string', maxLength: 9 }, { type: 'string', maxLength: 5 }],
  ['response: minimum lowered', 'response', { type: 'integer', minimum: 3 }, { type: 'integer', minimum: 1 }],
  ['response: minimum raised', 'response', { type: 'integer', minimum: 1 }, { type: 'integer', minimum: 3 }],
  ['response: a minimum added', 'response', int(), { type: 'integer', minimum: 3 }],
  ['response: a pattern removed', 'response', { type: 'string', pattern: '^a' }, str()],
  [
    'response: a required field made optional',
    'response',
    { required: ['a'], properties: { a: str() } },
    { properties: { a: str() } },
  ],
  ['response: a required field removed', 'response', { required: ['a'], properties: { a: str() } }, { properties: {} }],
  [
    'response: a field made required',
    'response',
    { properties: { a: str() } },
    { required: ['a'], properties: { a: str() } },
  ],
  ['response: a new field', 'response', { properties: { a: str() } }, { properties: { a: str(), b: int() } }],
  [
    'response: an optional field removed',
    'response',
    { properties: { a: str(), b: int() } },
    { properties: { a: str() } },
  ],
  [
    'response: a new field beside a closed set',
    'response',
    { properties: { a: str() }, additionalProperties: false },
    { properties: { a: str(), b: int() }, additionalProperties: false },
  ],
  [
    'response: undeclared fields may appear',
    'response',
    { properties: { a: str() }, additionalProperties: false },
    { properties: { a: str() } },
  ],
  ['response: a const promise dropped', 'response', { const: 'a' }, { enum: ['a', 'b'] }],
  ['response: a `not` promise dropped', 'response', { type: 'string', not: { const: 'x' } }, str()],
  ['response: a default changed', 'response', { type: 'string', default: 'a' }, { type: 'string', default: 'b' }],
  [
    'response: a branch added',
    'response',
    str(),
    { anyOf: [{ title: 'Card', type: 'object', required: ['n'] }, str()] },
  ],
  [
    'response: a branch removed',
    'response',
    { anyOf: [{ title: 'Card', type: 'object', required: ['n'] }, str()] },
    str(),
  ],
  ['undecided, either side', 'response', { oneOf: [str(), { minLength: 1 }] }, { type: 'string', maxLength: 2 }],
];

describe('classifySchemaChange: the changes, whole', () => {
  it.each(cases)('%s', (_name, site, base, head) => {
    expect(changes(base, head, site)).toMatchSnapshot();
  });
});

describe('classifySchemaChange: an example of a composition change, when the validators confirm it', () => {
  const card = { title: 'Card', type: 'object', required: ['n'], properties: { n: { const: 1 } } };
  const bank = () => ({ title: 'Bank', type: 'object', required: ['m'], properties: { m: { const: 2 } } });
  const base = { anyOf: [card, bank()] };
  const head = bank();

  it('shows an instance BASE accepts and HEAD refuses, for a removed branch', () => {
    expect(changes(base, head, 'request', checkWith(base, head))).toEqual([
      {
        rule: 'request-composition-narrowed',
        side: 'base',
        path: 'base/anyOf/0',
        instancePath: '',
        message:
          '"Card" of the anyOf at /base is gone: bodies only it accepted are refused now, e.g. {"n":1} (accepted before, refused now)',
      },
    ]);
  });

  it('shows an instance HEAD accepts and BASE refuses, for an added branch', () => {
    expect(changes(head, base, 'response', checkWith(head, base)).map((c) => c.message)).toEqual([
      '"Card" of the anyOf at /head is new: clients may meet a shape they never saw, e.g. {"n":1} (refused before, accepted now)',
    ]);
  });

  it('places a branch deep in the value inside a whole instance of the accepting version', () => {
    const deepBase = { type: 'object', required: ['p'], properties: { p: base } };
    const deepHead = { type: 'object', required: ['p'], properties: { p: head } };
    expect(changes(deepBase, deepHead, 'request', checkWith(deepBase, deepHead)).map((c) => c.message)).toEqual([
      '"Card" of the anyOf at /base/properties/p is gone: bodies only it accepted are refused now, e.g. {"p":{"n":1}} (accepted before, refused now)',
    ]);
  });

  it('shows none when the validators do not confirm it, cannot say, or the example is long', () => {
    const plain = '"Card" of the anyOf at /base is gone: bodies only it accepted are refused now';
    const both: ExampleCheck = () => ({ base: true, head: true });
    expect(changes(base, head, 'request', both).map((c) => c.message)).toEqual([plain]);
    const reversed: ExampleCheck = () => ({ base: false, head: true });
    expect(changes(base, head, 'request', reversed).map((c) => c.message)).toEqual([plain]);
    expect(changes(base, head, 'request', () => undefined).map((c) => c.message)).toEqual([plain]);
    const long = { ...card, properties: { n: { const: 'x'.repeat(200) } } };
    const longBase = { anyOf: [long, bank()] };
    expect(changes(longBase, head, 'request', checkWith(longBase, head)).map((c) => c.message)).toEqual([plain]);
    // 199 characters of JSON still fit.
    const fits = { ...card, properties: { n: { const: 'x'.repeat(191) } } };
    const fitsBase = { anyOf: [fits, bank()] };
    expect(changes(fitsBase, head, 'request', checkWith(fitsBase, head))[0]!.message).toContain('e.g. {"n":"xxx');
  });

  it('shows none for a branch inside an array (no object path to place it at)', () => {
    const listBase = { type: 'array', items: base };
    const listHead = { type: 'array', items: head };
    expect(changes(listBase, listHead, 'request', checkWith(listBase, listHead)).map((c) => c.message)).toEqual([
      '"Card" of the anyOf at /base/items is gone: bodies only it accepted are refused now',
    ]);
  });

  it('reports a type change only, never an example, for a branch of another type', () => {
    expect(changes({ anyOf: [str(), int()] }, str(), 'request', checkWith({ anyOf: [str(), int()] }, str()))).toEqual([
      {
        rule: 'request-type-narrowed',
        side: 'head',
        path: 'head',
        instancePath: '',
        message: 'no longer accepts type "integer"',
      },
    ]);
  });
});
