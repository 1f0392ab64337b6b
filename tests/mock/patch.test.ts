// PATCH bodies as the stateful engine applies them: RFC 7396 merge patch and RFC 6902 JSON Patch, each example
// from its RFC's own appendix where one fits.
import { describe, expect, it } from 'vitest';
import { jsonPatch, mergePatch } from '../../src/mock/engine/patch.js';

describe('merge patch (RFC 7396)', () => {
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [{ a: 'foo' }, ['c'], ['c']],
  ])('%j patched with %j is %j', (target, patch, result) => {
    expect(mergePatch(target, patch)).toEqual(result);
  });
});

describe('JSON Patch (RFC 6902)', () => {
  it.each([
    ['add', { foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }], { value: { foo: 'bar', baz: 'qux' } }],
    [
      'add to an array',
      { foo: ['bar', 'baz'] },
      [{ op: 'add', path: '/foo/1', value: 'qux' }],
      { value: { foo: ['bar', 'qux', 'baz'] } },
    ],
    ['remove', { baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }], { value: { foo: 'bar' } }],
    ['replace', { baz: 'qux' }, [{ op: 'replace', path: '/baz', value: 'boo' }], { value: { baz: 'boo' } }],
    [
      'move',
      { foo: { bar: 'baz' } },
      [{ op: 'move', from: '/foo/bar', path: '/qux' }],
      { value: { foo: {}, qux: 'baz' } },
    ],
    ['copy', { a: 1 }, [{ op: 'copy', from: '/a', path: '/b' }], { value: { a: 1, b: 1 } }],
    [
      'a failed test',
      { baz: 'qux' },
      [{ op: 'test', path: '/baz', value: 'bar' }],
      { error: 'operation 0 (test): /baz is not the value tested' },
    ],
    ['a missing target', { a: 1 }, [{ op: 'remove', path: '/b' }], { error: 'operation 0 (remove): /b is not there' }],
    ['no array', { a: 1 }, { op: 'remove' }, { error: 'a JSON Patch is an array of operations (RFC 6902 section 3)' }],
  ])('%s', (_name, target, operations, result) => {
    expect(jsonPatch(target, operations)).toEqual(result);
  });

  it('leaves the target as it was when an operation fails', () => {
    const target = { a: 1 };
    jsonPatch(target, [
      { op: 'add', path: '/b', value: 2 },
      { op: 'remove', path: '/c' },
    ]);
    expect(target).toEqual({ a: 1 });
  });
});
