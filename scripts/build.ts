// `npm run build`: the TypeScript of src/ compiled by tsc into dist/ (JavaScript, .d.ts types, the same module
// layout, so relative imports and the package root are found as in the checkout), plus the files tsc does not copy.
// tsc for the library (every module importable on its own, with its .d.ts). The command line runs an esbuild bundle
// of that output, dist/cli/: one file per command (split at main's dynamic imports) with ajv and yaml inside, which
// start-up needs: loading their ~190 CommonJS files one by one was a fifth of a cold `validate` (0.205 s → 0.165 s).
// Packages only some commands need (Prism, Spectral, TypeScript, puppeteer) stay outside, loaded where they are.
// dist/cjs/ holds CommonJS bundles of the jest and Playwright matcher entries, for test runs that require() them.
// Built beside dist/ and moved into place at the end, so two builds at once (a test and a benchmark) never see a
// half-written or half-deleted dist/.
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The packages the bundle carries: those a cold `validate` or `--version` loads. Every other one is imported. */
const bundled = new Set([
  'ajv',
  'ajv-formats',
  'yaml',
  'js-yaml',
  'fast-uri',
  'json-schema-traverse',
  'fast-deep-equal',
]);
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
  for (const [from, to] of [
    ['src/mock/exit-with-parent.cjs', 'src/mock/exit-with-parent.cjs'],
    ['src/mock/exit-with-parent.cjs', 'cli/exit-with-parent.cjs'],
  ]) {
    mkdirSync(path.dirname(path.join(fresh, to!)), { recursive: true });
    copyFileSync(path.join(root, from!), path.join(fresh, to!));
  }
  await bundleCli(fresh);
  await bundleCommonJsMatchers(fresh);
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

/**
 * dist/cli/: run-cli.js and the worker har-jobs.ts starts (`./har-worker.js` beside the code that starts it, as in
 * dist/src/runner/), with chunks shared between them; start-mocks.ts finds exit-with-parent.cjs beside it likewise.
 */
async function bundleCli(out: string): Promise<void> {
  const result = await build({
    entryPoints: {
      'run-cli': path.join(out, 'src/cli/run-cli.js'),
      'har-worker': path.join(out, 'src/har/har-worker.js'),
    },
    outdir: path.join(out, 'cli'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // ajv and yaml are CommonJS: their require() of Node's own modules needs a require in an ES module.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
    plugins: [
      {
        name: 'bundle-only-start-up-packages',
        setup(on) {
          on.onResolve({ filter: /^[^./]/ }, ({ path: specifier }) => {
            if (specifier.startsWith('node:')) return { external: true };
            const name = specifier.startsWith('@') ? specifier.split('/', 2).join('/') : specifier.split('/')[0]!;
            return bundled.has(name) ? undefined : { external: true };
          });
        },
      },
    ],
  });
  if (result.errors.length > 0) throw new Error(`esbuild failed: ${result.errors.map((e) => e.text).join('; ')}`);
}

/**
 * dist/cjs/jest.cjs and playwright.cjs, the "require" condition of `contracts-kit/jest` and `/playwright`: a
 * CommonJS jest run (jest's default) or a CommonJS Playwright project cannot require() an ES module on Node < 24.9
 * (jest says "Must use import to load ES Module"). Our modules are bundled; packages stay outside (those the
 * matchers load are CommonJS), and `@jest/globals` is answered by jest's runtime itself. import.meta.url becomes the
 * bundle's own URL: package-root.ts finds package.json above dist/cjs/ as it does above dist/src/config/.
 */
async function bundleCommonJsMatchers(out: string): Promise<void> {
  const result = await build({
    entryPoints: {
      jest: path.join(out, 'src/jest/setup.js'),
      playwright: path.join(out, 'src/playwright/index.js'),
    },
    outdir: path.join(out, 'cjs'),
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    define: { 'import.meta.url': '__contractsModuleUrl' },
    banner: { js: "const __contractsModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
    logLevel: 'warning',
  });
  if (result.errors.length > 0) throw new Error(`esbuild failed: ${result.errors.map((e) => e.text).join('; ')}`);
}
