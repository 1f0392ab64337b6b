// Spectral's resolver, made to follow local pointers (`#/components/…`) only: the document it lints is already
// bundled by our resolver (src/core/resolve-refs.ts), and a `$ref` it still holds to a file or a URL sits in literal
// data (an example, a default, an enum), where it is data. Spectral's own resolver would read or fetch it.
import { Resolver } from '@stoplight/spectral-ref-resolver';

export function localOnlyResolver(): Resolver {
  return new Resolver({
    resolvers: {},
    getRef: (_key: string, value: unknown) => {
      const ref = value !== null && typeof value === 'object' ? (value as { $ref?: unknown }).$ref : undefined;
      return typeof ref === 'string' && ref.startsWith('#') ? ref : undefined;
    },
  });
}

/**
 * How many JSON nodes `data` has once its local `$ref`s are expanded as Spectral expands them (a `$ref` back into a
 * cycle stays a `$ref`), counted up to `cap` + 1 and no further: time bounded by the cap, not by the expansion,
 * which grows exponentially with nesting (schemas that share schemas).
 */
export async function resolvedNodes(data: unknown, cap: number): Promise<number> {
  const resolved = (await localOnlyResolver().resolve(data, {})).result;
  let count = 0;
  const stack: unknown[] = [resolved];
  while (stack.length > 0 && count <= cap) {
    const value = stack.pop();
    count++;
    if (value !== null && typeof value === 'object')
      for (const key of Object.keys(value)) stack.push((value as Record<string, unknown>)[key]);
  }
  return count;
}
