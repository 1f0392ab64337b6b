// OpenAPI 3.2 (https://spec.openapis.org/oas/v3.2.0): the same Schema Object dialect as 3.1 (JSON Schema 2020-12),
// read as written by every command of ours. What it adds that our own code acts on: the `query` method and
// `additionalOperations` (section 4.10, Path Item Object), `in: querystring` (section 4.12.2), `itemSchema` for
// sequential media types (section 4.14). Tools that know only 3.1 (Spectral, swagger-parser, openapi-typescript,
// Prism) get a 3.1 view of the document (openapi-31-view.ts).

/** Whether an `openapi` field names a 3.2 version (3.2.0, 3.2.1, ...). */
export function isOpenApi32(version: unknown): boolean {
  return typeof version === 'string' && /^3\.2\.\d+$/.test(version);
}
