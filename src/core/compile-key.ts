// When two schema sites compile alike. ajv compiles the schema at a site from its text and the base URI the walk to
// it sets (a `$id` on the way changes it; JSON Schema 2020-12 section 8.2.1); the site's place shows only in the
// messages and error paths of the code. Two sites with the same key compile or fail alike, and their validators
// accept the same values: lint compiles each key once to know whether it compiles (Kubernetes' description has
// 9,861 schema sites and 684 keys).
import { exactInJson } from './exact-in-json.js';

/**
 * The key of the schema at `pointer` in ajv's copy of the document: its text, when nothing on the way to it sets a
 * base URI and JSON holds it exactly (no `.inf`, which JSON writes as null); otherwise undefined (compile it apart).
 */
export function compileKey(forAjv: unknown, pointer: string): string | undefined {
  let node = forAjv;
  if (setsBase(node)) return undefined;
  // A plain JSON pointer (RFC 6901), not a URI fragment: no percent-decoding.
  for (const segment of pointer === '' ? [] : pointer.slice(1).split('/')) {
    const key = segment.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
    if (setsBase(node)) return undefined;
  }
  if (node === undefined || !exactInJson(node)) return undefined;
  return JSON.stringify(node);
}

const setsBase = (node: unknown) => node !== null && typeof node === 'object' && Object.hasOwn(node, '$id');
