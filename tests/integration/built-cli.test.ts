// The CLI as the package ships it: `npm run build` compiles src/ to dist/ with tsc, and bin/contracts.js runs dist/
// wherever there is no src/ beside it (an installed package) or CONTRACTS_BUILT=1 says so. Here: the build, then the
// built CLI's version, a validate and a refused input, as real processes with no tsx loader in them.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin', 'contracts.js');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'contracts-built-'));
const env = { ...process.env, CONTRACTS_BUILT: '1', NODE_OPTIONS: '' };
const run = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { cwd: root, env, encoding: 'utf8', timeout: 60_000 });

beforeAll(() => {
  const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(built.status, built.stdout + built.stderr).toBe(0);
}, 150_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the built CLI (dist/)', () => {
  it('is JavaScript with types beside it, and the file tsc does not copy', () => {
    for (const file of [
      ...['src/cli/run-cli.js', 'src/cli/run-cli.d.ts', 'src/config/project.d.ts', 'src/mock/exit-with-parent.cjs'],
      ...['cli/run-cli.js', 'cli/har-worker.js', 'cli/exit-with-parent.cjs'],
    ])
      expect(existsSync(path.join(root, 'dist', file)), file).toBe(true);
  });

  it('prints the package version, loading no TypeScript', () => {
    const result = run('--version');
    expect(result.status, result.stderr).toBe(0);
    const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
    expect(result.stdout.trim()).toBe(version);
  });

  it('validates a body against a shipped spec and says what is wrong with a bad one', () => {
    const bad = path.join(scratch, 'bad.json');
    writeFileSync(bad, JSON.stringify({ clientToken: 5 }));
    const checked = run(
      'validate',
      ...['--api', 'client-session', '--operation', 'retrieveClientSession', '--status', '200'],
      ...['--header', 'Content-Type: application/json', '--body', bad],
    );
    // The verdict of the built checks: a body with no paymentMethod breaks the seed's placement rule (exit 1).
    expect(checked.status, checked.stderr).toBe(1);
    expect(checked.stdout).toMatch(/✗ payment_method_placement: paymentMethod is missing/);
    expect(checked.stderr).not.toMatch(/at .*\.js:\d+/);
    const missing = run(
      'validate',
      ...['--api', 'client-session', '--operation', 'retrieveClientSession', '--status', '200'],
      ...['--body', path.join(scratch, 'none.json')],
    );
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/none\.json/);
  });
});
