// secret_masked: a webhook secret never comes back in clear; config responses mask it with asterisks (seed,
// config table). The finding says where, never what.
import type { Finding } from '../finding.js';
import { behaviourFinding } from './behaviour-finding.js';

export function secretMasked(operation: string, secret: string, bodyText: string, body: unknown): Finding[] {
  if (secret.length === 0 || !bodyText.includes(secret)) return [];
  const where = pathOf(body, secret) ?? '';
  return [behaviourFinding('secret_masked', operation, `the response carries the webhook secret in clear${where ? ` at ${where}` : ''}: it must be masked with asterisks`, { instancePath: where })];
}

function pathOf(value: unknown, secret: string, at = ''): string | undefined {
  if (typeof value === 'string') return value.includes(secret) ? at : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    const found = pathOf(child, secret, `${at}/${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}
