// A value put on the wire as a form, the inverse of decode-form-body.ts under the same plan (OpenAPI 3.1 sections
// 4.8.14.4, 4.8.14.5 and 4.8.15): urlencoded (https://url.spec.whatwg.org/#urlencoded-serializing) or
// multipart/form-data (RFC 7578). An array repeats its field, an object goes as JSON text (its part typed
// application/json), a field the Encoding Object styles is written in its style, and one it gives a JSON
// contentType goes whole as JSON. What the fuzzer sends is what the request check reads back.
import { encodeParameter } from '../parameter-style.js';
import { isJsonType } from '../media-type.js';
import type { FormField, FormPlan } from './form-plan.js';

// Fixed, so a run repeats byte for byte; generated values never hold it (their strings are short or of one letter).
const boundary = 'contracts-fuzz-7d2f9a1c';

export function encodeForm(
  multipart: boolean,
  value: Record<string, unknown>,
  plan?: FormPlan,
): { contentType: string; body: string } {
  const fieldOf = (name: string): FormField | undefined => (plan ? (plan.fields.get(name) ?? plan.others) : undefined);
  if (!multipart) {
    const pairs = Object.entries(value).flatMap(([name, item]) => pairsOf(name, item, fieldOf(name)));
    return { contentType: 'application/x-www-form-urlencoded', body: pairs.join('&') };
  }
  const parts = Object.entries(value).flatMap(([name, item]) => {
    const field = fieldOf(name);
    const whole = field?.contentTypes?.some(isJsonType) === true;
    const items = Array.isArray(item) && !whole ? item : [item];
    return items.map((entry) => {
      const type = whole || (entry !== null && typeof entry === 'object') ? 'application/json' : declared(field);
      const head = `Content-Disposition: form-data; name="${name.replace(/["\r\n]/g, '_')}"`;
      const content = whole ? JSON.stringify(entry) : text(entry);
      return `--${boundary}\r\n${head}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n${content}\r\n`;
    });
  });
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: `${parts.join('')}--${boundary}--\r\n` };
}

/** The first concrete media type an Encoding Object names (not a range), for a part it types. */
function declared(field: FormField | undefined): string | undefined {
  return field?.contentTypes?.find((type) => !type.includes('*'));
}

/** A urlencoded field's pairs, encoded: in its style (the parameter style codec's, as a query's), whole as JSON,
 * or an array's items each under the name. */
function pairsOf(name: string, item: unknown, field: FormField | undefined): string[] {
  if (field?.style) {
    const { style, explode } = field.style;
    const wire = encodeParameter({ name, in: 'query', style, explode }, item) ?? [];
    return (wire as [string, string][]).map(([pairName, text]) => `${pairName}=${text}`);
  }
  if (field?.contentTypes?.some(isJsonType) === true) return [pair(name, JSON.stringify(item) ?? '')];
  return Array.isArray(item) ? item.map((entry) => pair(name, text(entry))) : [pair(name, text(item))];
}

/** `name=value` as URLSearchParams writes it (https://url.spec.whatwg.org/#urlencoded-serializing). */
function pair(name: string, value: string): string {
  return new URLSearchParams([[name, value]]).toString();
}

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
