// `npm run test:real`: the real-server lane (tests/real/), which installs and starts Directus and PostgreSQL itself.
// Its files end in .real.ts, so `npm test` and the slow lane (vitest.config.ts: tests/**/*.test.ts) never run them.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['tests/real/**/*.real.ts'],
    maxWorkers: 1,
    typecheck: { enabled: false },
  },
});
