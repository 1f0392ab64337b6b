// `contracts check --coverage`: how much of the contract the shipped sequence exercises, against the real sandbox.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoverageReport } from '../../src/core/coverage.js';
import { startSandbox, type Sandbox } from '../../src/plugins/example-sandbox.js';
import { runCli } from '../helpers/run-cli.js';

let sandbox: Sandbox;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-check-coverage-'));
});
afterAll(async () => {
  await sandbox?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('contracts check --coverage', () => {
  it('writes and prints the coverage of the client-session sequence, and passes a threshold it meets', async () => {
    const file = path.join(dir, 'coverage.json');
    const result = await runCli([
      'check',
      '--api',
      'client-session',
      '--base-url',
      sandbox.url,
      '--coverage',
      file,
      '--min-coverage',
      '100',
    ]);
    expect(result.stdout).toContain(
      'coverage: 1/1 operations exercised; 1/1 documented operation × status pairs seen (100%)',
    );
    const report = JSON.parse(await readFile(file, 'utf8')) as CoverageReport;
    const session = report.perOperation[0]!;
    expect(session.statuses).toEqual({ '200': true });
    // The sequence's probes (no key, another version) get statuses the spec leaves undocumented.
    expect(session.undocumentedStatuses.sort()).toEqual([400, 401]);
    expect(session.placement).toEqual({ '/order/paymentMethod only': 1 });
    expect(result.code).toBe(0);
  }, 60_000);

  it('fails the run when the webhooks sequence covers fewer pairs than --min-coverage asks', async () => {
    const result = await runCli([
      'check',
      '--api',
      'repository-webhooks',
      '--base-url',
      sandbox.url,
      '--min-coverage',
      '90',
    ]);
    expect(result.stdout).toMatch(
      /coverage: 12\/12 operations exercised; \d+\/28 documented operation × status pairs seen/,
    );
    expect(result.stdout).toMatch(/coverage [\d.]+% is under --min-coverage 90%/);
    expect(result.stdout).toMatch(/\d+ passed, 0 failed/);
    expect(result.code).toBe(1);
  }, 120_000);
});
