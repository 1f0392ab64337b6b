// An API's `webhooks:` config block (schema: schemas/contracts-config.schema.json) → its delivery convention
// (src/core/delivery/delivery-convention.ts). The schema checks each field's shape; what a scheme needs and refuses
// is said here, one line at its place: a stray `prefix` on a stripe scheme would otherwise be silently unused.
import { ContractsError } from '../core/errors.js';
import {
  defaultTolerance,
  type DeliveryConvention,
  type SignatureScheme,
} from '../core/delivery/delivery-convention.js';
import type { JsonPath } from '../core/source-locator.js';

export interface RawSignature {
  scheme: SignatureScheme['scheme'];
  header?: string;
  prefix?: string;
  algorithm?: 'sha1' | 'sha256' | 'sha512';
  secretEnv: string;
  tolerance?: number;
}

export interface RawWebhooks {
  eventHeader?: string;
  signature?: RawSignature | RawSignature[];
}

/** The fields each scheme takes besides `scheme` and `secretEnv`, and those it needs. */
const fields: Record<SignatureScheme['scheme'], { takes: string[]; needs: string[] }> = {
  hmac: { takes: ['header', 'prefix', 'algorithm'], needs: ['header', 'algorithm'] },
  'standard-webhooks': { takes: ['tolerance'], needs: [] },
  stripe: { takes: ['header', 'tolerance'], needs: [] },
};

export function webhookConvention(
  raw: RawWebhooks,
  where: JsonPath,
  at: (p: JsonPath) => { file: string; line: number; column: number },
): DeliveryConvention {
  const list = raw.signature === undefined ? [] : Array.isArray(raw.signature) ? raw.signature : [raw.signature];
  const signatures = list.map((signature, index): SignatureScheme => {
    const place: JsonPath = Array.isArray(raw.signature) ? [...where, 'signature', index] : [...where, 'signature'];
    const name = place
      .map((step) => (typeof step === 'number' ? `[${step}]` : `.${step}`))
      .join('')
      .slice(1);
    const { takes, needs } = fields[signature.scheme];
    for (const field of ['header', 'prefix', 'algorithm', 'tolerance'] as const) {
      if (signature[field] !== undefined && !takes.includes(field))
        throw new ContractsError(
          'CONFIG_INVALID',
          `${name}: the ${signature.scheme} scheme takes no "${field}"`,
          at([...place, field]),
        );
      if (signature[field] === undefined && needs.includes(field))
        throw new ContractsError(
          'CONFIG_INVALID',
          `${name}: the ${signature.scheme} scheme needs "${field}"`,
          at(place),
        );
    }
    const tolerance = signature.tolerance ?? defaultTolerance;
    switch (signature.scheme) {
      case 'hmac':
        return {
          scheme: 'hmac',
          header: signature.header!,
          prefix: signature.prefix ?? '',
          algorithm: signature.algorithm!,
          secretEnv: signature.secretEnv,
        };
      case 'standard-webhooks':
        return { scheme: 'standard-webhooks', secretEnv: signature.secretEnv, tolerance };
      case 'stripe':
        return {
          scheme: 'stripe',
          header: signature.header ?? 'Stripe-Signature',
          secretEnv: signature.secretEnv,
          tolerance,
        };
    }
  });
  return { ...(raw.eventHeader === undefined ? {} : { eventHeader: raw.eventHeader }), signatures };
}
