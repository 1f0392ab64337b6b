// The client-session example API as a plug-in: its check sequence, its sandbox and its credentials' variables.
import type { ApiPlugin } from '../api-plugin.js';

export const clientSessionPlugin: ApiPlugin = {
  name: 'client-session',
  check: async () => (await import('./check-plugin.js')).clientSessionCheck,
  fuzz: async () => (await import('./fuzz-plugin.js')).clientSessionFuzz,
  sandbox: {
    describe: [
      'client-session: GET /client-session needs X-API-KEY (any value) and X-API-VERSION: 2.4; without clientToken',
      'it returns the demo session (client token demo-client-token), an unknown token gets 404; --sessions FILE',
      'adds sessions.',
    ],
    banner: (url) => [`  curl -s ${url}/client-session -H 'X-API-KEY: any' -H 'X-API-VERSION: 2.4'`],
    command: {
      options: [
        {
          name: 'sessions',
          type: 'string',
          valueName: 'file',
          description: 'JSON file of { "<client token>": <client session>, … } to serve besides the demo session',
        },
      ],
      read: async (values) => (await import('./sandbox/sandbox-options.js')).readClientSessionOptions(values),
    },
    load: async () => (await import('./sandbox/sandbox-plugin.js')).clientSessionSandbox,
  },
  variables: ['CLIENT_SESSION_API_KEY', 'CLIENT_SESSION_CLIENT_TOKEN'],
};
