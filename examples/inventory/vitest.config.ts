// The inventory example's own tests (the vitest matchers against the running service), apart from the toolkit's.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // In this repository `contracts-kit/vitest` is the package's own TypeScript source; in yours, the installed package.
  ssr: { resolve: { conditions: ['contracts-source'] } },
  test: { root: import.meta.dirname, include: ['*.test.ts'], env: { SCARF_ANALYTICS: 'false' } },
});
