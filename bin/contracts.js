#!/usr/bin/env node
// The installed package runs the JavaScript that `npm run build` wrote to dist/cli/ (scripts/build.ts). A checkout
// (src/ beside this folder) runs the TypeScript through tsx's loader, so it needs no build step; CONTRACTS_BUILT=1
// runs dist/ there too.
import { existsSync } from 'node:fs';

const checkout = existsSync(new URL('../src/cli/run-cli.ts', import.meta.url));
if (checkout && process.env.CONTRACTS_BUILT !== '1') {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/run-cli.ts');
} else {
  await import('../dist/cli/run-cli.js');
}
