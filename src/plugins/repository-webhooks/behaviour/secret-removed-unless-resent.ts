// secret_removed_unless_resent: when a secret was set, an update must carry the same secret or a new one, or the
// secret is removed (webhooks seed: rule 3). Judged by the config read after each update: a masked secret after one
// that carried it, none after one whose config left it out.
import type { Finding } from '../../../core/finding.js';
import { behaviourFinding } from './behaviour-finding.js';

export function secretRemovedUnlessResent(
  operation: string,
  sentSecret: boolean,
  readStatus: number,
  config: unknown,
): Finding[] {
  if (readStatus !== 200)
    return [
      behaviourFinding(
        'secret_removed_unless_resent',
        operation,
        `reading the config after the update answered ${readStatus}, not 200`,
        { expected: 200, actual: readStatus },
      ),
    ];
  const secret = config !== null && typeof config === 'object' ? (config as { secret?: unknown }).secret : undefined;
  const hasSecret = typeof secret === 'string' && secret !== '';
  if (hasSecret === sentSecret) return [];
  const message = sentSecret
    ? 'an update whose config carried the secret must keep it, but the config read afterwards shows none'
    : 'an update whose config left the secret out must remove it, but the config read afterwards still shows one';
  return [
    behaviourFinding('secret_removed_unless_resent', operation, message, {
      instancePath: '/secret',
      expected: sentSecret ? 'a (masked) secret' : 'no secret',
      actual: hasSecret ? 'a secret' : (secret ?? null),
    }),
  ];
}
