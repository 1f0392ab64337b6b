import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// The tests Stryker runs against each mutant of the core (`npm run test:mutation`): the core's own tests (what
// test:coverage runs), no type tests, no processes. (Not merged with vitest.config.ts: mergeConfig would add these includes to its own.)
export default defineConfig({
  ssr: { resolve: { conditions: ['contracts-source'] } },
  test: {
    include: [
      'tests/core/**/*.test.ts',
      'tests/plugins/repository-webhooks/behaviour/**/*.test.ts',
      'tests/diff/**/*.test.ts',
      'tests/specs/**/*.test.ts',
    ],
    testTimeout: 30_000,
    env: { SCARF_ANALYTICS: 'false', CONTRACTS_CACHE_DIR: path.join(os.tmpdir(), 'contracts-mutation-parse-cache') },
  },
});
