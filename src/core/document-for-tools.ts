// The document other tools get (Spectral, swagger-parser, openapi-typescript, Prism): ours, bundled, so that none of
// them reads a file or fetches a URL a spec names. Those tools follow every `$ref` they meet, in literal data
// (examples, defaults, enums) too, and openapi-typescript follows discriminator mappings. After bundling, only
// literal data can still hold a `$ref` to another file or a URL: there it is renamed `\$ref`, so no tool follows it;
// so is an Example Object's `externalValue` (a URL openapi-typescript fetched).
// A mapping value that still names a file (one the bundle did not bring in: DigitalOcean's published description
// maps to `models/…yml` files it does not ship), or a local pointer to nothing, is left out of the copy: openapi-
// typescript would try to read the one and stop on the other.
import { openApi31View } from './oas32/openapi-31-view.js';
import { isOpenApi32 } from './oas32/openapi-32.js';
import { resolvePointer } from './source-locator.js';
import { setOwn } from './own-key.js';

/**
 * A copy of `document` in which no `$ref` or discriminator mapping names another file or a URL; of a 3.2 document,
 * its 3.1 view (oas32/openapi-31-view.ts), as none of those tools knows 3.2.
 */
export function documentForTools<T>(given: T): T {
  const record = given as { openapi?: unknown } | null;
  const document = (isOpenApi32(record?.openapi) ? openApi31View(given as Record<string, unknown>) : given) as T;
  const copy = (value: unknown, parentKey: string | undefined): unknown => copyNode(document, value, parentKey, copy);
  return copy(document, undefined) as T;
}

type Copy = (value: unknown, parentKey: string | undefined) => unknown;

function copyNode(root: unknown, value: unknown, parentKey: string | undefined, copy: Copy): unknown {
  if (Array.isArray(value)) return value.map((item) => copy(item, undefined));
  if (value === null || typeof value !== 'object') return value;
  const mapping = parentKey === 'discriminator';
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    // An Example Object's externalValue is a URL openapi-typescript fetched (PeerTube's description: "fetch failed").
    const outside =
      typeof child === 'string' && ((key === '$ref' && !child.startsWith('#')) || key === 'externalValue');
    const outKey = outside ? `\\${key}` : key;
    // A key `__proto__` (a property a spec may name) is set as an own property: an assignment would set the prototype.
    setOwn(out, outKey, mapping && key === 'mapping' ? localMapping(root, child) : copy(child, key));
  }
  return out;
}

/** A mapping with only schema names and local pointers that resolve: any other value is dropped. */
function localMapping(root: unknown, mapping: unknown): unknown {
  if (mapping === null || typeof mapping !== 'object' || Array.isArray(mapping)) return mapping;
  const kept = (target: unknown) =>
    typeof target === 'string' &&
    (target.startsWith('#') ? resolvePointer(root, target) !== undefined : !/[/\\:]|\.(ya?ml|json)$/i.test(target));
  return Object.fromEntries(Object.entries(mapping).filter(([, target]) => kept(target)));
}
