// `contracts-kit/jest` and `contracts-kit/playwright` as a user's project loads them: the package built (dist/, as
// `npm pack` ships it) and linked into a scratch project outside the repository, beside links to this repository's
// jest and @playwright/test. Each runner runs a test file with a passing and a failing expectation against a real
// loopback server the file starts; the run must fail exactly once, with the finding's check in the message.
// jest runs twice: CommonJS (its default; on Node 20 it can only require() the package's CommonJS bundle) and ESM
// (--experimental-vm-modules, which imports the ES module). Playwright's `request` fixture needs no browser.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';

const spec = `openapi: 3.1.0
info: { title: inventory, version: "1" }
paths:
  /items/{id}:
    get:
      operationId: getItem
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        "200":
          description: an item
          content:
            application/json:
              schema: { type: object, required: [id], properties: { id: { type: integer } } }
`;

/** A server that answers /items/7 as the spec says and any other item with a string id, which it forbids. */
const serverCode = `
  server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(req.url === '/items/7' ? '{"id":7}' : '{"id":"eight"}');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = 'http://127.0.0.1:' + server.address().port;
`;

const jestCommonJs = `const http = require('node:http');
let server;
let base = '';
beforeAll(async () => {${serverCode}});
afterAll(() => new Promise((resolve) => server.close(resolve)));
test('a conforming answer passes', async () => {
  await expect(await fetch(base + '/items/7')).toSatisfyContract({ api: 'inventory' });
});
test('a breaking answer fails', async () => {
  await expect(await fetch(base + '/items/8')).toSatisfyContract({ api: 'inventory' });
});
`;

const jestEsm = `import http from 'node:http';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import 'contracts-kit/jest';
let server;
let base = '';
beforeAll(async () => {${serverCode}});
afterAll(() => new Promise((resolve) => server.close(resolve)));
test('a conforming answer passes', async () => {
  await expect(await fetch(base + '/items/7')).toSatisfyContract({ api: 'inventory' });
});
test('a breaking answer fails', async () => {
  await expect(await fetch(base + '/items/8')).toSatisfyContract({ api: 'inventory' });
});
`;

const playwrightSpec = `import http from 'node:http';
import { test } from '@playwright/test';
import { expect } from 'contracts-kit/playwright';
let server: http.Server;
let base = '';
test.beforeAll(async () => {${serverCode.replace('server.address().port', '(server.address() as { port: number }).port')}});
test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
test('a conforming answer passes', async ({ request }) => {
  await expect(await request.get(base + '/items/7')).toSatisfyContract({ api: 'inventory' });
});
test('a breaking answer fails', async ({ request }) => {
  await expect(await request.get(base + '/items/8')).toSatisfyContract({ api: 'inventory' });
});
`;

const finding = '- response_schema_conformance at /id: /id must be integer, not "eight"';
const scratches: string[] = [];
// What a user's shell has: no loader or config of this repository's test run.
const env = { PATH: process.env.PATH, HOME: process.env.HOME, SCARF_ANALYTICS: 'false', NO_COLOR: '1', CI: '1' };

/** A project of its own: the spec, its config, and links to the package and the runner it names. */
function scratchProject(type: 'commonjs' | 'module', runners: string[], files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'contracts-runner-'));
  scratches.push(dir);
  mkdirSync(path.join(dir, 'node_modules/@playwright'), { recursive: true });
  symlinkSync(root, path.join(dir, 'node_modules/contracts-kit'));
  for (const runner of runners)
    symlinkSync(path.join(root, 'node_modules', runner), path.join(dir, 'node_modules', runner));
  const all: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'scratch-service', version: '1.0.0', private: true, type }),
    'inventory.yaml': spec,
    'contracts.config.yaml': 'apis:\n  - name: inventory\n    spec: inventory.yaml\n',
    ...files,
  };
  for (const [name, text] of Object.entries(all)) writeFileSync(path.join(dir, name), text);
  return dir;
}

function run(cwd: string, args: string[], extraEnv: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, args, {
    cwd,
    env: { ...env, ...extraEnv },
    encoding: 'utf8',
    timeout: 180_000,
  });
  return { code: result.status, output: result.stdout + result.stderr };
}

beforeAll(() => {
  const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 400_000,
  });
  expect(built.status, built.stdout + built.stderr).toBe(0);
}, 420_000);

afterAll(() => {
  for (const dir of scratches) rmSync(dir, { recursive: true, force: true });
});

describe('the jest and Playwright matchers in a project of their own', () => {
  it('pass and fail under jest in a CommonJS project, registered by setupFilesAfterEnv', () => {
    const dir = scratchProject('commonjs', ['jest'], {
      'jest.config.cjs': "module.exports = { setupFilesAfterEnv: ['contracts-kit/jest'] };\n",
      'items.test.js': jestCommonJs,
    });
    const { code, output } = run(dir, ['node_modules/jest/bin/jest.js', '--ci']);
    expect(output).toMatch(/Tests:\s+1 failed, 1 passed, 2 total/);
    expect(output).toContain('✕ a breaking answer fails');
    expect(output).toContain('expected GET /items/8 → 200 to satisfy the inventory contract (getItem); 1 finding:');
    expect(output).toContain(finding);
    expect(code).toBe(1);
  }, 200_000);

  it('pass and fail under jest in an ES module project run with --experimental-vm-modules', () => {
    const dir = scratchProject('module', ['jest'], { 'items.test.js': jestEsm });
    const { code, output } = run(dir, ['node_modules/jest/bin/jest.js', '--ci'], {
      NODE_OPTIONS: '--experimental-vm-modules',
    });
    expect(output).toMatch(/Tests:\s+1 failed, 1 passed, 2 total/);
    expect(output).toContain(finding);
    expect(code).toBe(1);
  }, 200_000);

  it.each(['commonjs', 'module'] as const)(
    'pass and fail under `playwright test` with the request fixture (%s project)',
    (type) => {
      const dir = scratchProject(type, ['@playwright/test'], {
        'playwright.config.ts':
          "import { defineConfig } from '@playwright/test';\nexport default defineConfig({ testDir: '.', reporter: 'list', workers: 1 });\n",
        'items.spec.ts': playwrightSpec,
      });
      const { code, output } = run(dir, ['node_modules/@playwright/test/cli.js', 'test']);
      expect(output).toMatch(/1 failed[\s\S]*1 passed/);
      expect(output).toContain('expected GET /items/8 → 200 to satisfy the inventory contract (getItem); 1 finding:');
      expect(output).toContain(finding);
      expect(code).toBe(1);
    },
    200_000,
  );
});
