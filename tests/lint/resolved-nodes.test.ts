// resolvedNodes: the size Spectral walks (local $refs expanded), counted no further than the cap.
import { describe, expect, it } from 'vitest';
import { localOnlyResolver, resolvedNodes } from '../../src/lint/local-resolver.js';

/** Schemas s0…sN where each holds two $refs to the one before: N+1 schemas in the text, 2^N copies expanded. */
function doubling(levels: number) {
  const schemas: Record<string, unknown> = { s0: { type: 'string' } };
  for (let i = 1; i <= levels; i++)
    schemas[`s${i}`] = {
      type: 'object',
      properties: { a: { $ref: `#/components/schemas/s${i - 1}` }, b: { $ref: `#/components/schemas/s${i - 1}` } },
    };
  return { openapi: '3.1.0', components: { schemas } };
}

/** resolvedNodes of a document as Spectral holds it (no source file). */
const count = (data: unknown, cap: number) => resolvedNodes(localOnlyResolver(), { data, source: null }, cap);

describe('resolvedNodes', () => {
  it('counts the document with its $refs expanded, each copy counted', async () => {
    // s0 is 2 nodes; s(i) is 1 + (1 + 1) + (1 + 2·s(i−1)) + … : one level more doubles it.
    const small = await count(doubling(3), 1e9);
    const larger = await count(doubling(4), 1e9);
    expect(larger - small).toBeGreaterThan(small / 2);
    expect(await count({ a: 1, b: [1, 2] }, 1e9)).toBe(5);
  });

  it('stops at the cap, on an expansion far past it (2^40 copies) and on a cycle', async () => {
    expect(await count(doubling(40), 1000)).toBe(1001);
    const cyclic = {
      components: {
        schemas: { node: { type: 'object', properties: { next: { $ref: '#/components/schemas/node' } } } },
      },
    };
    expect(await count(cyclic, 1e6)).toBeLessThan(20);
  });

  it('hands Spectral the resolve it made: the same document is expanded once', async () => {
    const resolver = localOnlyResolver();
    const data = doubling(3);
    await resolvedNodes(resolver, { data, source: 'spec.yaml' }, 1e9);
    const first = await resolver.resolve(data, { baseUri: 'spec.yaml' });
    expect(await resolver.resolve(data, { baseUri: 'spec.yaml' })).toBe(first);
    expect(await resolver.resolve(doubling(3), {})).not.toBe(first);
  });

  it('hands Spectral a resolved document it did not deep-freeze (no walk of it after each expansion)', async () => {
    const data = doubling(3);
    const { result } = await localOnlyResolver().resolve(data, {});
    const schemas = (result as ReturnType<typeof doubling>).components.schemas as Record<string, object>;
    expect([result, schemas.s3, schemas.s0].map((node) => Object.isFrozen(node))).toEqual([false, false, false]);
    expect(data.components.schemas.s0).toEqual({ type: 'string' });
  });
});
