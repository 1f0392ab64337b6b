// The example APIs this package ships (specs/), as this repository's contracts.config.yaml lists them: the project
// the library adapters (sandbox, matchers without a config, startMocks without apis) default to. Frozen.
import { exampleConvention } from '../core/delivery/delivery-convention.js';
import { packageRoot } from './package-root.js';
import { makeProject, type Project } from './project.js';

/** The seed APIs: their check sequences, sandbox and placement rule key on these names. */
export const seedApiNames: readonly string[] = Object.freeze(['client-session', 'repository-webhooks']);

/** Whether the check sequences, the sandbox and the placement rule know this API (see seedApiNames). */
export function isSeedApi(value: string): boolean {
  return seedApiNames.includes(value);
}

/** The shipped example APIs as a Project (their specs in this package's specs/); plain data, cheap to build. */
export const seedProject: Project = makeProject({
  root: packageRoot,
  apis: [
    {
      name: 'client-session',
      spec: 'specs/client-session.yaml',
      generated: 'generated/client-session.ts',
      mockPort: 4010,
      credentials: [
        { env: 'CLIENT_SESSION_API_KEY', securityScheme: 'apiKey' },
        { env: 'CLIENT_SESSION_CLIENT_TOKEN', query: 'clientToken' },
      ],
      baseDir: packageRoot,
    },
    {
      name: 'repository-webhooks',
      spec: 'specs/repository-webhooks.yaml',
      generated: 'generated/repository-webhooks.ts',
      mockPort: 4011,
      credentials: [{ env: 'WEBHOOKS_TOKEN', header: 'Authorization', prefix: 'Bearer ' }],
      webhooks: exampleConvention,
      baseDir: packageRoot,
    },
  ],
});
