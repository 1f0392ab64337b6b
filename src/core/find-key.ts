// Where a document holds a key by one of some names, found by an iterative walk (any depth, no recursion). The tools
// we hand a spec to read some keys as their own members: see lint-spec.ts (Spectral) and generate-types.ts
// (openapi-typescript), which say so in one line rather than end in "internal error".
import type { JsonPath } from './source-locator.js';

interface Step {
  value: unknown;
  key?: string | number;
  parent?: Step;
}

/** The path of the first key of `document` that is one of `names` (an object's key, not an array index). */
export function findKey(document: unknown, names: readonly string[]): JsonPath | undefined {
  // Each step links to its parent, and the path is built only for the key found: a walk of every lint does not
  // copy a path per node (GitHub's description has millions).
  const stack: Step[] = [{ value: document }];
  while (stack.length > 0) {
    const step = stack.pop() as Step;
    const { value } = step;
    if (value === null || typeof value !== 'object') continue;
    const array = Array.isArray(value);
    for (const key of Object.keys(value)) {
      if (!array && names.includes(key)) return [...pathOf(step), key];
      stack.push({ value: (value as Record<string, unknown>)[key], key: array ? Number(key) : key, parent: step });
    }
  }
  return undefined;
}

function pathOf(step: Step): JsonPath {
  const path: (string | number)[] = [];
  for (let at: Step | undefined = step; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse() as JsonPath;
}
