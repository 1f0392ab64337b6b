// The webhooks example's part in `contracts fuzz` (src/fuzz/fuzz-plugin.ts): the repository and the hooks and
// deliveries the run made are bound, not generated; the hooks are its fixtures (hook-fixtures.ts), made with what the
// command's webhooks options set; a reproduction binds the hook and delivery ids from the answers that gave them.
import { ContractsError } from '../../../core/errors.js';
import type { FuzzPlugin } from '../../../fuzz/fuzz-plugin.js';
import type { FuzzDeliveries } from './fuzz-deliveries.js';
import { HookFixtures, isHookBound, type HookSettings } from './hook-fixtures.js';

export const repositoryWebhooksFuzz: FuzzPlugin = {
  isBound: isHookBound,
  scriptIds: new Set(['hook_id', 'delivery_id']),
  fixtures: (executor, settings) => new HookFixtures(executor, hookSettings(settings)),
};

/** The settings as the command set them; a missing one is the command's fault, said in one line. */
function hookSettings(settings: Readonly<Record<string, unknown>>): HookSettings {
  const { owner, repo, hookUrl, readOnly, deliveries, deliveryWaitMs } = settings;
  if (typeof owner !== 'string' || typeof repo !== 'string' || typeof hookUrl !== 'string')
    throw new ContractsError('INTERNAL', 'internal error: the webhooks fixtures need an owner, a repo and a hook URL');
  return {
    owner,
    repo,
    hookUrl,
    readOnly: readOnly === true,
    ...(deliveries !== undefined ? { deliveries: deliveries as FuzzDeliveries | { off: string } } : {}),
    ...(typeof deliveryWaitMs === 'number' ? { deliveryWaitMs } : {}),
  };
}
