import { describe, expect, it } from 'vitest';
import { maxNestingDepth, shortPointer, tooDeepAt } from '../../src/core/nesting-depth.js';

/** `{ a: { a: … } }`, `levels` objects deep. */
function nested(levels: number): unknown {
  let node: unknown = {};
  for (let level = 1; level < levels; level++) node = { a: node };
  return node;
}

/** Schemas C0 … Cn, each an allOf of a $ref to the next: three levels a link. */
function chain(links: number): unknown {
  const schemas: Record<string, unknown> = { [`C${links}`]: { type: 'string' } };
  for (let index = 0; index < links; index++)
    schemas[`C${index}`] = { allOf: [{ $ref: `#/components/schemas/C${index + 1}` }] };
  return { components: { schemas } };
}

describe('tooDeepAt', () => {
  it.each([
    ['objects as deep as the limit', nested(maxNestingDepth), undefined],
    ['one level more', nested(maxNestingDepth + 1), maxNestingDepth],
    ['arrays in objects', { a: JSON.parse(`${'['.repeat(300)}${']'.repeat(300)}`) }, maxNestingDepth],
  ])('%s', (_name, document, segments) => {
    const at = tooDeepAt(document);
    expect(at?.length).toBe(segments);
  });

  it('follows a chain of $refs: each link nests as deeply as one written inline', () => {
    expect(tooDeepAt(chain(60))).toBeUndefined();
    const at = tooDeepAt(chain(200));
    expect(at?.slice(0, 2)).toEqual(['components', 'schemas']);
  });

  it('does not count a recursive schema (a $ref back to itself) as depth', () => {
    const tree = {
      components: { schemas: { Node: { properties: { children: { items: { $ref: '#/components/schemas/Node' } } } } } },
    };
    expect(tooDeepAt(tree)).toBeUndefined();
  });

  it('walks a chain once however many $refs name its links (time linear in the document)', () => {
    const document = chain(60) as { components: { schemas: Record<string, unknown> } };
    for (let index = 0; index < 20_000; index++)
      document.components.schemas[`U${index}`] = { $ref: '#/components/schemas/C0' };
    const started = performance.now();
    expect(tooDeepAt(document)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('shows a long pointer by its first and last segments', () => {
    expect(shortPointer(['components', 'schemas', 'Deep', ...Array(300).fill('allOf')])).toBe(
      '#/components/schemas/Deep/allOf/allOf/…/allOf/allOf',
    );
  });
});
