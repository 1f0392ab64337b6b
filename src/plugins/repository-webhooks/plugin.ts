// The repository-webhooks example API as a plug-in: its check sequence (the hooks' lifecycle, the deliveries at an
// embedded receiver), its fuzz fixtures (the hooks a run makes), the options of both, its sandbox (hooks and signed
// deliveries in memory) and its credentials' variable.
import type { ApiPlugin } from '../api-plugin.js';
import { webhooksCheckOptions, webhooksFuzzOptions } from './options.js';

export const repositoryWebhooksPlugin: ApiPlugin = {
  name: 'repository-webhooks',
  check: async () => (await import('./check/check-plugin.js')).repositoryWebhooksCheck,
  fuzz: async () => (await import('./fuzz/fuzz-plugin.js')).repositoryWebhooksFuzz,
  options: { check: webhooksCheckOptions, fuzz: webhooksFuzzOptions },
  sandbox: {
    describe: [
      'repository-webhooks: a webhook you create is the one you get back. Repositories that exist are octo/app and',
      'any given with --repository; others are 404. Ping, test and redelivery POST a signed payload',
      "(X-Hub-Signature-256 with the hook's secret) to the hook's config.url and record the target's answer as a",
      'delivery. A config.url must be an absolute http(s) URL that is not the sandbox itself (422 otherwise).',
      'Deliveries carry X-Sandbox-Delivery-Depth; what a request carrying it triggers goes one level deeper, and',
      'nothing past 3 is sent. Deliveries kept: --max-deliveries per hook, and --max-delivery-memory for all hooks',
      'together; past either, the oldest go first: no longer listed, and reading one answers 422.',
    ],
    command: {
      options: [
        {
          name: 'repository',
          type: 'string',
          valueName: 'owner/name',
          multiple: true,
          description: 'A repository that exists (octo/app always does)',
        },
        {
          name: 'max-deliveries',
          type: 'string',
          valueName: 'n',
          description: 'Deliveries kept per hook; older ones are dropped',
          default: '1000',
        },
        {
          name: 'max-delivery-memory',
          type: 'string',
          valueName: 'MB',
          description:
            "Memory all hooks' deliveries may hold; past it the oldest, of any hook, are dropped (no longer listed)",
          default: '64',
        },
      ],
      read: async (values) => (await import('./sandbox/sandbox-options.js')).readRepositoryWebhooksOptions(values),
    },
    load: async () => (await import('./sandbox/sandbox-plugin.js')).repositoryWebhooksSandbox,
  },
  variables: ['WEBHOOKS_TOKEN'],
};
