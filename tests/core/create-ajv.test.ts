// ajv reads own keys only for a document naming a member of Object.prototype: the check's speed elsewhere.
import { describe, expect, it } from 'vitest';
import { documentKeys, namesInheritedMembers } from '../../src/core/create-ajv.js';

describe('namesInheritedMembers', () => {
  it.each([
    ['a schema with ordinary names', { properties: { id: {}, name: {} } }, false],
    ['a property named constructor', { properties: { constructor: { type: 'integer' } } }, true],
    ['a property named __proto__', JSON.parse('{"properties": {"__proto__": {}}}'), true],
    ['a property toString deep inside', { allOf: [{ items: { properties: { toString: {} } } }] }, true],
    ['an example holding hasOwnProperty', { example: { hasOwnProperty: 1 } }, true],
    ['names that only look alike', { properties: { Constructor: {}, proto: {}, valueof: {} } }, false],
  ])('%s: %s', (_name, document, want) => {
    expect(namesInheritedMembers(documentKeys(document))).toBe(want);
  });
});
