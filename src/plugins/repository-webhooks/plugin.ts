// The repository-webhooks example API as a plug-in: its check sequence (the hooks' lifecycle, the deliveries at an
// embedded receiver), its fuzz fixtures (the hooks a run makes), the options of both, and its credentials' variable.
import type { ApiPlugin } from '../api-plugin.js';
import { webhooksCheckOptions, webhooksFuzzOptions } from './options.js';

export const repositoryWebhooksPlugin: ApiPlugin = {
  name: 'repository-webhooks',
  check: async () => (await import('./check/check-plugin.js')).repositoryWebhooksCheck,
  fuzz: async () => (await import('./fuzz/fuzz-plugin.js')).repositoryWebhooksFuzz,
  options: { check: webhooksCheckOptions, fuzz: webhooksFuzzOptions },
  variables: ['WEBHOOKS_TOKEN'],
};
