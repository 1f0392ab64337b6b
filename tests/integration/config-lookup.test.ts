// The user's repository is the default: contracts.config.yaml is looked for from the working directory upwards;
// with none, there are no APIs (the seed APIs are this repository's config, not every user's), commands that need
// one say where they looked and how to write one, and `--spec FILE` alone is an API of its own.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'contracts-config-lookup-'));
  cpSync(path.join(root, 'examples/inventory/openapi.yaml'), path.join(dir, 'openapi.yaml'));
  mkdirSync(path.join(dir, 'with-config/src/deep'), { recursive: true });
  cpSync(path.join(root, 'examples/inventory/openapi.yaml'), path.join(dir, 'with-config/openapi.yaml'));
  writeFileSync(
    path.join(dir, 'with-config/contracts.config.yaml'),
    'apis:\n  - name: stock\n    spec: openapi.yaml\n    generated: generated/stock.ts\n    mockPort: 4810\n',
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('without a config anywhere up from the working directory', () => {
  it.each([
    ['lint', ['lint']],
    ['generate', ['generate']],
    ['mock', ['mock']],
    ['fuzz', ['fuzz']],
    ['check', ['check']],
  ])('%s has no API: it says where it looked and how to write a config, exit 2', async (_name, args) => {
    const result = await runCli(args, { cwd: dir });
    expect(result.stderr).toContain(
      `no contracts.config.yaml in ${dir} or any folder above it: run \`contracts init SPEC\` to write one for your spec, or give --config FILE`,
    );
    expect(result.stderr).not.toContain('client-session');
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.code).toBe(2);
  });

  it('names no seed API in --help', async () => {
    const result = await runCli(['--help'], { cwd: dir });
    expect(result.stdout).not.toContain('client-session');
    expect(result.stdout).not.toContain('repository-webhooks');
  });

  it('lints a spec file given, and fuzzes one given with --spec (against its mock), named after the file', async () => {
    const lint = await runCli(['lint', 'openapi.yaml'], { cwd: dir });
    expect(lint.stderr).toContain('1 spec linted');
    const fuzz = await runCli(['fuzz', '--spec', 'openapi.yaml', '--max-examples', '2', '--seed', '1'], { cwd: dir });
    expect(fuzz.stdout).toMatch(/listItems\s+\d+ passed/);
    // --max-examples 2 cuts each operation's negative cases: the keyless one (ignored_auth's only case) comes first.
    expect(fuzz.stdout).not.toContain('never reached');
    expect(fuzz.stdout).toMatch(/\d+ passed, 0 failed/);
    expect(fuzz.code).toBe(0);
  });
});

describe('with a config in a folder above the working directory', () => {
  it('finds it and uses its APIs, relative to the config', async () => {
    const result = await runCli(['lint', '--api', 'stock'], { cwd: path.join(dir, 'with-config/src/deep') });
    expect(result.stderr).toContain('1 spec linted');
    expect(result.code).toBe(0);
    const unknown = await runCli(['lint', '--api', 'client-session'], { cwd: path.join(dir, 'with-config/src') });
    expect(unknown.stderr).toContain('unknown API "client-session"');
    expect(unknown.code).toBe(2);
  });
});
