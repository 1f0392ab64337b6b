// A generated body as the operation's media type puts it on the wire: JSON (and +json types), a form
// (https://url.spec.whatwg.org/#urlencoded-serializing) or multipart/form-data (RFC 7578), the latter two by the
// core's form encoder (src/core/form-body/encode-form-body.ts), which the request check's decoder reads back. Before,
// every body went out as JSON, and an operation that takes only a form (Stripe's and Twilio's POSTs) was sent none.
import { encodeForm } from '../core/form-body/encode-form-body.js';
import type { FormPlan } from '../core/form-body/form-plan.js';

export function encodeBody(mediaType: string, value: unknown, plan?: FormPlan): { contentType: string; body: string } {
  const type = mediaType.split(';')[0]!.trim().toLowerCase();
  if ((type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') && isRecord(value))
    return encodeForm(type === 'multipart/form-data', value, plan);
  return { contentType: type.endsWith('json') ? mediaType : 'application/json', body: JSON.stringify(value) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
