// `npm run build`: the TypeScript of src/ compiled by tsc into dist/ (JavaScript, .d.ts types, the same module
// layout, so relative imports and the package root are found as in the checkout), plus the files tsc does not copy.
// tsc rather than a bundler: the package is a CLI and a library over Node's own module loader, every module stays
// importable on its own (the CLI loads a command's modules only when it runs), and no dependency is added.
// Built beside dist/ and moved into place at the end, so two builds at once (a test and a benchmark) never see a
// half-written or half-deleted dist/.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
const fresh = mkdtempSync(path.join(root, '.dist-'));
try {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const built = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json'), '--outDir', fresh], {
    encoding: 'utf8',
  });
  if (built.status !== 0) {
    // tsc writes its errors to standard output.
    process.stderr.write(`tsc failed:\n${built.stdout}${built.stderr}`);
    process.exit(1);
  }
  for (const file of ['src/mock/exit-with-parent.cjs']) {
    mkdirSync(path.dirname(path.join(fresh, file)), { recursive: true });
    copyFileSync(path.join(root, file), path.join(fresh, file));
  }
  chmodSync(fresh, 0o755); // mkdtemp made it private; dist/ is for everyone to read
  const old = `${fresh}-old`;
  try {
    renameSync(dist, old);
  } catch {}
  try {
    renameSync(fresh, dist);
  } catch {
    // Another build moved its dist/ in first: the same sources, the same output.
  }
  rmSync(old, { recursive: true, force: true });
  console.log(`built ${path.relative(root, dist)}/`);
} finally {
  rmSync(fresh, { recursive: true, force: true });
}
