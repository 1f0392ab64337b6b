// secret_masked: a webhook secret never comes back in clear; config responses mask it with asterisks (seed,
// config table). The finding says where, never what.
import type { Finding } from '../../../core/finding.js';
import { behaviourFinding } from './behaviour-finding.js';

export function secretMasked(operation: string, secret: string, bodyText: string, body: unknown): Finding[] {
  if (secret.length === 0 || !bodyText.includes(secret)) return [];
  const where = pathOf(body, secret) ?? '';
  return [
    behaviourFinding(
      'secret_masked',
      operation,
      `the response carries the webhook secret in clear${where ? ` at ${where}` : ''}: it must be masked with asterisks`,
      { instancePath: where },
    ),
  ];
}

/** Where in the body the secret stands (iterative: a hostile body may nest deeper than the call stack). */
function pathOf(root: unknown, secret: string): string | undefined {
  const stack: [unknown, string][] = [[root, '']];
  while (stack.length > 0) {
    const [value, at] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes(secret)) return at;
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) stack.push([child, `${at}/${key}`]);
    }
  }
  return undefined;
}
