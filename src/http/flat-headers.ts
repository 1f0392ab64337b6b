// A request's headers as node:http gives them (a repeated one as an array) flattened to one value per name, joined
// with ", " as RFC 9110 section 5.3 lets a recipient combine field lines; names stay as node gives them (lower case).
import type { IncomingHttpHeaders } from 'node:http';

export function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}
