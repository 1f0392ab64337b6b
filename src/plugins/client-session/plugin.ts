// The client-session example API as a plug-in: its check sequence and its credentials' variables.
import type { ApiPlugin } from '../api-plugin.js';

export const clientSessionPlugin: ApiPlugin = {
  name: 'client-session',
  check: async () => (await import('./check-plugin.js')).clientSessionCheck,
  fuzz: async () => (await import('./fuzz-plugin.js')).clientSessionFuzz,
  variables: ['CLIENT_SESSION_API_KEY', 'CLIENT_SESSION_CLIENT_TOKEN'],
};
