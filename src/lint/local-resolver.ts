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
