// Where a document holds a key by one of some names, found by an iterative walk (any depth, no recursion). The tools
// we hand a spec to read some keys as their own members: see lint-spec.ts (Spectral) and generate-types.ts
// (openapi-typescript), which say so in one line rather than end in "internal error".
import type { JsonPath } from './source-locator.js';

/** The path of the first key of `document` that is one of `names` (an object's key, not an array index). */
export function findKey(document: unknown, names: readonly string[]): JsonPath | undefined {
  const stack: [unknown, JsonPath][] = [[document, []]];
  while (stack.length > 0) {
    const [value, at] = stack.pop() as [unknown, JsonPath];
    if (value === null || typeof value !== 'object') continue;
    const array = Array.isArray(value);
    for (const key of Object.keys(value)) {
      if (!array && names.includes(key)) return [...at, key];
      stack.push([(value as Record<string, unknown>)[key], [...at, array ? Number(key) : key]]);
    }
  }
  return undefined;
}
