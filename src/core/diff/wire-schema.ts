// A parameter's schema as its values travel: text in a path, a query string or a header. On the wire a numeral or
// `true` is also a valid string, and a form-style array of one item is the item alone (`?token=x`). Compared as JSON,
// `type: number` → `type: string` was called narrowing, and a scalar → an array of it a type change (oasdiff's a100
// and a103); compared as what the server reads, both accept every request they accepted before.
import { resolvePointer } from '../load-spec.js';
import { typesOf } from '../request-model.js';

type Schema = Record<string, unknown>;

const scalarTexts = ['number', 'integer', 'boolean'];
/**
 * An XML body is text all through: an element declared `type: string` holds whatever a structured one held (oasdiff
 * calls these types "loosely typed": its a174 and a212). Arrays stay arrays: XML has no one-item shorthand.
 */
export const xmlWire: WireOptions = { texts: [...scalarTexts, 'object', 'array'], oneItemArrays: false, both: true };
const parameterWire: WireOptions = { texts: scalarTexts, oneItemArrays: true, both: false };

export interface WireOptions {
  /** Types a plain string also reads on this wire. */
  texts: string[];
  /** Whether an array reads a scalar as its one item (form-style query values). */
  oneItemArrays: boolean;
  /** Whether a structured value (object, array) also reads a plain string (the wire is text both ways: XML). */
  both: boolean;
}

/** Whether a media type's body is XML (`application/xml`, `text/xml`, `application/atom+xml`). */
export const isXmlMedia = (type: string) => /^[^;]*[/+]xml\s*(;|$)/i.test(type);
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
export function wireHead(
  baseDoc: unknown,
  base: unknown,
  headDoc: unknown,
  head: unknown,
  options: WireOptions = parameterWire,
  depth = 0,
): unknown {
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
        Object.hasOwn(before, name) ? wireHead(baseDoc, before[name], headDoc, sub, options, depth + 1) : sub,
      ]),
    );
  }
  if (h.items !== undefined && b.items !== undefined)
    wired.items = wireHead(baseDoc, b.items, headDoc, h.items, options, depth + 1);
  const texts = baseTypes.filter((type) => options.texts.includes(type) && !headTypes.includes(type));
  if (headTypes.includes('string') && texts.length > 0 && !textConstraints.some((keyword) => keyword in h))
    wired.type = [...headTypes, ...texts];
  const plainText = (schema: Schema) => !textConstraints.some((keyword) => keyword in schema);
  if (
    options.both &&
    baseTypes.includes('string') &&
    plainText(b) &&
    !headTypes.includes('string') &&
    headTypes.some((type) => type === 'object' || type === 'array')
  )
    wired.type = [...headTypes, 'string'];
  const scalarBase = baseTypes.length > 0 && !baseTypes.includes('array') && !baseTypes.includes('object');
  if (options.oneItemArrays && headTypes.includes('array') && scalarBase && h.items !== undefined)
    return { anyOf: [wired, wireHead(baseDoc, b, headDoc, h.items, options, depth + 1)] };
  return wired;
}
