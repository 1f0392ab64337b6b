// Spectral's resolver, made to follow local pointers (`#/components/…`) only: the document it lints is already
// bundled by our resolver (src/core/resolve-refs.ts), and a `$ref` it still holds to a file or a URL sits in literal
// data (an example, a default, an enum), where it is data. Spectral's own resolver would read or fetch it.
import { createRequire } from 'node:module';
import { Resolver } from '@stoplight/spectral-ref-resolver';

type ResolveResult = Awaited<ReturnType<Resolver['resolve']>>;

/**
 * Resolves a document once: lint counts the resolved document's size (resolvedNodes) before Spectral runs, and
 * Spectral's own resolve of the same document gets that result instead of expanding it a second time (a second of
 * work on GitHub's description). Local pointers only, so the result does not depend on the options Spectral adds.
 */
class LocalOnlyResolver extends Resolver {
  private last: { data: unknown; result: Promise<ResolveResult> } | undefined;

  override resolve(data: unknown, options?: Parameters<Resolver['resolve']>[1]): Promise<ResolveResult> {
    if (this.last !== undefined && this.last.data === data) return this.last.result;
    const result = super.resolve(data, options);
    this.last = { data, result };
    return result;
  }
}

export function localOnlyResolver(): Resolver {
  unfrozenResults();
  return new LocalOnlyResolver({
    resolvers: {},
    getRef: (_key: string, value: unknown) => {
      const ref = value !== null && typeof value === 'object' ? (value as { $ref?: unknown }).$ref : undefined;
      return typeof ref === 'string' && ref.startsWith('#') ? ref : undefined;
    },
  });
}

/**
 * How many JSON nodes `document` (Spectral's) has once its local `$ref`s are expanded as Spectral expands them (a
 * `$ref` back into a cycle stays a `$ref`), counted up to `cap` + 1 and no further: time bounded by the cap, not by
 * the expansion, which grows exponentially with nesting (schemas that share schemas). The resolve is `resolver`'s, with
 * the base Spectral gives it, so the same resolver hands Spectral this result.
 */
export async function resolvedNodes(
  resolver: Resolver,
  document: { data: unknown; source: string | null },
  cap: number,
): Promise<number> {
  const resolved = (await resolver.resolve(document.data, document.source !== null ? { baseUri: document.source } : {}))
    .result;
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

/**
 * Spectral's resolver (@stoplight/json-ref-resolver) writes each expansion with immer, which deep-freezes every result
 * it returns by default: a walk of the whole resolved document after each write (a million nodes on GitHub's
 * description). Nothing in lint writes to that document, and a frozen root also turns off nimma's zoned traversal
 * (it walks only the parts of the document a rule's path can reach, through proxies it will not set on frozen
 * objects). The immer copy is the resolver's own (found from it): no other package lint loads uses immer.
 */
function unfrozenResults(): void {
  const fromSpectral = createRequire(createRequire(import.meta.url).resolve('@stoplight/spectral-ref-resolver'));
  const fromResolver = createRequire(fromSpectral.resolve('@stoplight/json-ref-resolver'));
  (fromResolver('immer') as { setAutoFreeze(on: boolean): void }).setAutoFreeze(false);
}
