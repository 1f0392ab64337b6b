// repository-webhooks' part of `contracts check`: its sequence, and in a full run (a target the run may change) the
// embedded receiver its hooks deliver to, started once per run and stopped at its end.
import type { CheckPlugin } from '../../../runner/check-plugin.js';
import { startReceiver } from '../../../receiver/start-receiver.js';
import { runRepositoryWebhooks, type WebhooksTarget } from './check-sequence.js';
import { DeliveryWatch } from './delivery-watch.js';
import { seedBehaviour } from '../../seed-rules.js';

export const repositoryWebhooksCheck: CheckPlugin = {
  behaviour: seedBehaviour('repository-webhooks'),
  async prepare({ mode, receiver: setting, interrupted, settings }) {
    // The check command's --owner, --repo, --hook-id, --hook-url and --delivery-wait (src/cli/check-command.ts).
    const target = settings as unknown as Omit<WebhooksTarget, 'deliveries'>;
    if (mode !== 'full' || !('port' in setting)) return { run: (context) => runRepositoryWebhooks(context, target) };
    let watch: DeliveryWatch | undefined;
    const receiver = await startReceiver({
      port: setting.port,
      host: setting.host ?? '127.0.0.1',
      ...DeliveryWatch.receiverOptions(() => watch),
    });
    watch = new DeliveryWatch(receiver, interrupted);
    const deliveries = watch;
    return {
      run: (context) => runRepositoryWebhooks(context, { ...target, deliveries }),
      stop: () => receiver.stop(),
    };
  },
};
