// The Discriminator Object (OpenAPI 3.1 section 4.8.25): a value is judged by the branch its property names, and a
// name that maps to no schema fails. Whole records, through checkExchange and checkRequest.
import { describe, expect, it } from 'vitest';
import { checkExchange } from '../../src/core/check-exchange.js';
import { checkRequest, splitTarget } from '../../src/core/check-request.js';
import { compileContract } from '../../src/core/compile-contract.js';
import { compileSpec } from '../../src/core/compile-spec.js';
import { parseSpec } from '../../src/core/load-spec.js';

// Real specs' shape, which ajv's own `discriminator` refuses to compile: no const in the branches, the property not
// required, a mapping, and an anyOf.
const pet = (extra: Record<string, unknown>) => ({
  type: 'object',
  properties: { petType: { type: 'string' }, ...extra },
});
const schemas = {
  Cat: { ...pet({ meows: { type: 'boolean' } }), required: ['meows'] },
  Dog: { ...pet({ barks: { type: 'boolean' } }), required: ['barks'] },
  Pet: {
    oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
    discriminator: { propertyName: 'petType', mapping: { kitten: '#/components/schemas/Cat', puppy: 'Dog' } },
  },
  AnyPet: {
    anyOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
    discriminator: { propertyName: 'petType' },
  },
  OpenPet: {
    oneOf: [{ $ref: '#/components/schemas/Cat' }, { type: 'object', required: ['fish'] }],
    discriminator: { propertyName: 'petType' },
  },
};
const json = (name: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } });
const operation = (operationId: string, name: string) => ({
  operationId,
  requestBody: { content: json(name) },
  responses: { '200': { description: 'ok', content: json(name) } },
});
const spec = {
  openapi: '3.1.0',
  info: { title: 'pets', version: '1' },
  paths: {
    '/pets': { post: operation('pet', 'Pet') },
    '/any': { post: operation('anyPet', 'AnyPet') },
    '/open': { post: operation('openPet', 'OpenPet') },
    // DigitalOcean's description points into a discriminated anyOf.
    '/first': {
      post: {
        operationId: 'firstBranch',
        requestBody: {
          content: { 'application/json': { schema: { $ref: '#/components/schemas/OpenPet/oneOf/1' } } },
        },
        responses: { '204': { description: 'ok' } },
      },
    },
  },
  components: { schemas },
};
const contract = compileContract(parseSpec('pets.json', JSON.stringify(spec)));
const respond = (path: string, body: unknown) =>
  checkExchange(contract, {
    method: 'POST',
    path,
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).findings;
const send = (path: string, body: unknown) =>
  checkRequest(contract, {
    method: 'POST',
    ...splitTarget(path),
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).findings;

describe('a discriminated oneOf', () => {
  it('passes a value valid for the branch its property names (by mapping or by schema name)', () => {
    expect(respond('/pets', { petType: 'kitten', meows: true })).toEqual([]);
    expect(respond('/pets', { petType: 'Cat', meows: true })).toEqual([]);
    expect(respond('/pets', { petType: 'puppy', barks: true })).toEqual([]);
  });

  it('passes a value valid for two branches when its property names one (a oneOf alone refuses it)', () => {
    expect(respond('/pets', { petType: 'Cat', meows: true, barks: true })).toEqual([]);
  });

  it('judges a value by the branch its property names only', () => {
    expect(respond('/pets', { petType: 'puppy', meows: true })).toEqual([
      {
        check: 'response_schema_conformance',
        severity: 'error',
        operation: 'pet',
        instancePath: '',
        schemaPath: '/required',
        message: 'body must have required property "barks"',
        actual: '{"petType":"puppy","meows":true}',
      },
    ]);
  });

  it('fails a value whose property names no schema', () => {
    expect(respond('/pets', { petType: 'bird', meows: true })).toEqual([
      {
        check: 'response_schema_conformance',
        severity: 'error',
        operation: 'pet',
        instancePath: '/petType',
        schemaPath: '/discriminator',
        message: '/petType must name a schema of the discriminator ("kitten", "puppy", "Cat", "Dog"), not "bird"',
        actual: 'bird',
      },
    ]);
  });

  it('holds a value without the property to the oneOf as written', () => {
    expect(respond('/pets', { meows: true })).toEqual([]);
    expect(respond('/pets', { meows: true, barks: true })).toEqual([
      {
        check: 'response_schema_conformance',
        severity: 'error',
        operation: 'pet',
        instancePath: '',
        schemaPath: '/oneOf',
        message: 'body must match exactly one schema in oneOf',
        actual: '{"meows":true,"barks":true}',
      },
    ]);
  });
});

describe('a discriminated anyOf, and one with a branch no name can reach', () => {
  it('fails an anyOf value whose property names no schema, in a request body too', () => {
    expect(send('/any', { petType: 'bird', meows: true })).toEqual([
      {
        check: 'request_body_conformance',
        severity: 'error',
        operation: 'anyPet',
        instancePath: '/petType',
        schemaPath: '/discriminator',
        message: 'request /petType must name a schema of the discriminator ("Cat", "Dog")',
      },
    ]);
    expect(send('/any', { petType: 'Dog', barks: false })).toEqual([]);
  });

  it('holds an unnamed tag to the union when an inline branch could be it', () => {
    expect(respond('/open', { petType: 'Fish', fish: 1 })).toEqual([]);
  });
});

it('follows a reference into a discriminated oneOf', () => {
  expect(send('/first', { fish: 1 })).toEqual([]);
  expect(send('/first', {})).toEqual([
    {
      check: 'request_body_conformance',
      severity: 'error',
      operation: 'firstBranch',
      instancePath: '',
      schemaPath: '/required',
      message: 'request body must have required property "fish"',
    },
  ]);
});

it('compiles a schema inside a discriminated oneOf by its path in the spec (an example there is checked so)', () => {
  const compiled = compileSpec(parseSpec('pets.json', JSON.stringify(spec)));
  const validate = compiled.validatorAt(['components', 'schemas', 'OpenPet', 'oneOf', 1]);
  expect(compiled.check(validate, {}).errors.map((error) => error.message)).toEqual([
    'body must have required property "fish"',
  ]);
});
