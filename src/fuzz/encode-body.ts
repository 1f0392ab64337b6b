// A generated body as the operation's media type puts it on the wire (core/sendable-body.ts chose the type): JSON
// (and +json types, and `*/*` sent as application/json), a form
// (https://url.spec.whatwg.org/#urlencoded-serializing) or multipart/form-data (RFC 7578), the latter two by the
// core's form encoder (src/core/form-body/encode-form-body.ts), which the request check's decoder reads back; any
// other type (binary, text/*, XML given by a string schema) as the string's UTF-8 bytes. Before, every body went out
// as JSON, and an operation that takes only a form (Stripe's and Twilio's POSTs) or only bytes was sent none.
import { encodeForm } from '../core/form-body/encode-form-body.js';
import type { FormPlan } from '../core/form-body/form-plan.js';
import { bodyWire, textOnWire } from '../core/sendable-body.js';

/** `contentType`: the body model's (BodyModel.contentType), which also says how the value goes on the wire. */
export function encodeBody(
  contentType: string,
  value: unknown,
  plan?: FormPlan,
): { contentType: string; body: string } {
  const wire = bodyWire(contentType);
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (wire === 'form' && isRecord(value)) return encodeForm(type === 'multipart/form-data', value, plan);
  if (wire === 'text') return { contentType, body: textOnWire(value) };
  return { contentType: wire === 'json' ? contentType : 'application/json', body: JSON.stringify(value) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
