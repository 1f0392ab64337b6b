// Swagger 2.0 section "Parameter Object": a `formData` parameter with `required: true` must be sent, so a request
// without a body cannot carry it. The converter gathers the form parameters into a Request Body Object whose schema
// lists them as `required`, but leaves the body itself optional (OpenAPI 3.0 section 4.7.13: `required` defaults to
// false): a request with no body at all then reads as valid, and fuzz would call a server wrong for refusing it.
// This marks such a body required, after conversion, on the operation's own (inline) requestBody.
import { resolvePointer } from '../source-locator.js';

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Whether a 2.0 parameter list (local `$ref`s followed) has a required formData parameter. */
function requiresForm(record: Json, lists: unknown[]): boolean {
  return lists.some(
    (list) =>
      Array.isArray(list) &&
      list.some((entry) => {
        const parameter =
          isObject(entry) && typeof entry.$ref === 'string' && entry.$ref.startsWith('#/')
            ? resolvePointer(record, entry.$ref)
            : entry;
        return isObject(parameter) && parameter.in === 'formData' && parameter.required === true;
      }),
  );
}

/** Marks `required: true` on each converted inline requestBody whose 2.0 operation has a required formData field. */
export function requireFormBodies(record: Json, document: Json): void {
  const sourcePaths = isObject(record.paths) ? record.paths : {};
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [route, item] of Object.entries(sourcePaths)) {
    const converted = paths[route];
    if (!isObject(item) || !isObject(converted)) continue;
    for (const method of methods) {
      const operation = item[method];
      const body = isObject(converted[method]) ? (converted[method] as Json).requestBody : undefined;
      if (!isObject(operation) || !isObject(body) || body.$ref !== undefined) continue;
      if (requiresForm(record, [item.parameters, operation.parameters])) body.required = true;
    }
  }
}
