// The document other tools get (Spectral, swagger-parser, openapi-typescript, Prism): ours, bundled, so that none of
// them reads a file or fetches a URL a spec names. Those tools follow every `$ref` they meet, in literal data
// (examples, defaults, enums) too. After bundling, only literal data can still hold a `$ref` to another file or a
// URL: there it is renamed `\$ref`, so no tool follows it.

/** A copy of `document` in which no `$ref` names another file or a URL. */
export function documentForTools<T>(document: T): T {
  return copy(document) as T;
}

function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const outKey = key === '$ref' && typeof child === 'string' && !child.startsWith('#') ? '\\$ref' : key;
    out[outKey] = copy(child);
  }
  return out;
}
