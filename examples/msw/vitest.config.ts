// The MSW example's own tests, apart from the toolkit's.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // In this repository `contracts-kit/msw` is the package's own TypeScript source; in yours, the installed package.
  ssr: { resolve: { conditions: ['contracts-source'] } },
  test: { include: ['examples/msw/*.test.ts'], env: { SCARF_ANALYTICS: 'false' } },
});
