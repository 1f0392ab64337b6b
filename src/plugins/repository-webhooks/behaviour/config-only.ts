// config_only: the config endpoints return only the config properties, not the webhook (webhooks seed: rule 1).
// `url` is a config property too (the delivery address), so it does not count.
import type { Finding } from '../../../core/finding.js';
import { behaviourFinding } from './behaviour-finding.js';

/** Fields of the webhook resource that are not config fields. */
export const webhookOnlyFields = [
  'type',
  'id',
  'name',
  'active',
  'events',
  'config',
  'created_at',
  'updated_at',
  'test_url',
  'ping_url',
  'deliveries_url',
  'last_response',
] as const;

export function configOnly(operation: string, body: unknown): Finding[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  const present = webhookOnlyFields.filter((field) => Object.hasOwn(body, field));
  if (present.length === 0) return [];
  return [
    behaviourFinding(
      'config_only',
      operation,
      `the config endpoint returned webhook fields: ${present.join(', ')} (it must return only the config)`,
      { expected: 'config properties only', actual: present },
    ),
  ];
}
