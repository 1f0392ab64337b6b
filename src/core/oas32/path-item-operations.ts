// The operations of a Path Item Object, with their methods. OpenAPI 3.1 section 4.8.9 has eight fixed fields (get,
// put, post, delete, options, head, patch, trace); 3.2 section 4.10 adds `query` (the QUERY method: a safe,
// idempotent request with a body) and `additionalOperations`, a map from any other method, "with the same
// capitalization that is to be sent in the request", to its Operation Object; it "MUST NOT contain any entry for
// the methods that can be defined by other fixed fields", so such an entry is not read (the fixed field is the
// operation). Only a 3.2 document is read so: in 3.0 and 3.1 these keys are not Path Item fields.
// Methods are kept in lower case, as the eight always were (a request's method is compared in lower case).
import { isOpenApi32 } from './openapi-32.js';

export const fixedMethods31 = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const fixedMethods32: readonly string[] = [...fixedMethods31, 'query'];

// RFC 9110 section 9.1: a method is a token.
const methodToken = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export interface PathItemOperation {
  /** The method, in lower case. */
  method: string;
  /** Where the Operation Object is under its Path Item: [method], or ['additionalOperations', KEY]. */
  key: string[];
  operation: object;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Each operation of a Path Item, fixed fields first, in the order the methods are listed above, then the others. */
export function pathItemOperations(item: unknown, version: unknown): PathItemOperation[] {
  if (!isObject(item)) return [];
  const three2 = isOpenApi32(version);
  const fixed = three2 ? fixedMethods32 : fixedMethods31;
  const found: PathItemOperation[] = [];
  for (const method of fixed) {
    const operation = Object.hasOwn(item, method) ? item[method] : undefined;
    if (isObject(operation)) found.push({ method, key: [method], operation });
  }
  const more = three2 ? item.additionalOperations : undefined;
  if (!isObject(more)) return found;
  for (const [written, operation] of Object.entries(more)) {
    const method = written.toLowerCase();
    if (!methodToken.test(written) || !isObject(operation)) continue;
    if (fixed.includes(method) || found.some((other) => other.method === method)) continue;
    found.push({ method, key: ['additionalOperations', written], operation });
  }
  return found;
}

/** The operation of a Path Item for one method (lower case), if it has one. */
export function pathItemOperation(item: unknown, method: string, version: unknown): PathItemOperation | undefined {
  return pathItemOperations(item, version).find((entry) => entry.method === method);
}
