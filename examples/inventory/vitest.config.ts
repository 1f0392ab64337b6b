// The inventory example's own tests (the vitest matchers against the running service), apart from the toolkit's.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { root: import.meta.dirname, include: ['*.test.ts'], env: { SCARF_ANALYTICS: 'false' } },
});
