import { describe, expect, it } from 'vitest';
import { renderValue, valueAtPointer } from '../../src/core/render-value.js';

describe('renderValue', () => {
  it.each([
    ['a short string', 'XXX', 80, '"XXX"'],
    ['a number', -5, 80, '-5'],
    ['null', null, 80, 'null'],
    ['a small object', { a: [1, 'b'] }, 80, '{"a":[1,"b"]}'],
    ['a long string, cut', 'x'.repeat(100), 10, `"${'x'.repeat(9)}…`],
    ['a wide array, cut', Array.from({ length: 100 }, () => 1), 10, '[1,1,1,1,1…'],
  ])('renders %s as JSON within its budget', (_name, value, budget, want) => {
    expect(renderValue(value, budget)).toBe(want);
  });

  it('hides the value of a field whose name says it is a credential', () => {
    expect(renderValue({ url: 'https://x', secret: 'hunter2-secret', nested: { api_key: 'k-123' } }, 200)).toBe(
      '{"url":"https://x","secret":"[hidden: a credential field]","nested":{"api_key":"[hidden: a credential field]"}}',
    );
  });

  it('costs the budget, not the size of the value: a million-item array renders at once', () => {
    const huge = Array.from({ length: 1_000_000 }, (_, index) => ({ index }));
    const started = performance.now();
    expect(renderValue(huge, 40)).toBe('[{"index":0},{"index":1},{"index":2},{"i…');
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('valueAtPointer', () => {
  it.each([
    ['', { a: 1 }, { a: 1 }],
    ['/a/0/b~1c', { a: [{ 'b/c': 'here' }] }, 'here'],
    ['/missing', { a: 1 }, undefined],
    ['/a/b', { a: 'text' }, undefined],
    ['/__proto__', {}, undefined],
  ])('finds %s', (pointer, root, want) => {
    expect(valueAtPointer(root, pointer)).toEqual(want);
  });
});
