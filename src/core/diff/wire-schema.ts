// A parameter's schema as its values travel: text in a path, a query string or a header. On the wire a numeral or
// `true` is also a valid string, and a form-style array of one item is the item alone (`?token=x`). Compared as JSON,
// `type: number` → `type: string` was called narrowing, and a scalar → an array of it a type change (oasdiff's a100
// and a103); compared as what the server reads, both accept every request they accepted before.
import { resolvePointer } from '../load-spec.js';
import { typesOf } from '../request-model.js';

type Schema = Record<string, unknown>;

const scalarTexts = ['number', 'integer', 'boolean'];
/** Keywords that constrain a string's text: a numeral or `true` need not satisfy them, so such a string stays one. */
const textConstraints = ['enum', 'const', 'pattern', 'format', 'minLength', 'maxLength'];

function resolved(document: unknown, schema: unknown): Schema | undefined {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return undefined;
  const own = schema as Schema;
  if (typeof own.$ref !== 'string') return own;
  const target = resolvePointer(document, own.$ref);
  if (target === null || typeof target !== 'object') return undefined;
  const { $ref: _ref, ...siblings } = own;
  return { ...(target as Schema), ...siblings };
}

/**
 * HEAD's parameter schema widened where the wire lets it read what BASE sent: an unconstrained string where BASE had
 * numbers or booleans also reads those; an array where BASE had a scalar also reads the scalar as its one item.
 * Walked in parallel (properties by name, items); only HEAD changes, so an unchanged schema stays unchanged.
 */
export function wireHead(baseDoc: unknown, base: unknown, headDoc: unknown, head: unknown, depth = 0): unknown {
  const b = resolved(baseDoc, base);
  const h = resolved(headDoc, head);
  if (depth > 16 || !b || !h) return head;
  const wired: Schema = { ...h };
  const baseTypes = typesOf(b);
  const headTypes = typesOf(h);
  if (h.properties && typeof h.properties === 'object' && b.properties && typeof b.properties === 'object') {
    const before = b.properties as Schema;
    wired.properties = Object.fromEntries(
      Object.entries(h.properties as Schema).map(([name, sub]) => [
        name,
        name in before ? wireHead(baseDoc, before[name], headDoc, sub, depth + 1) : sub,
      ]),
    );
  }
  if (h.items !== undefined && b.items !== undefined)
    wired.items = wireHead(baseDoc, b.items, headDoc, h.items, depth + 1);
  const texts = baseTypes.filter((type) => scalarTexts.includes(type) && !headTypes.includes(type));
  if (headTypes.includes('string') && texts.length > 0 && !textConstraints.some((keyword) => keyword in h))
    wired.type = [...headTypes, ...texts];
  const scalarBase = baseTypes.length > 0 && !baseTypes.includes('array') && !baseTypes.includes('object');
  if (headTypes.includes('array') && scalarBase && h.items !== undefined)
    return { anyOf: [wired, wireHead(baseDoc, b, headDoc, h.items, depth + 1)] };
  return wired;
}
