// `contracts fuzz --coverage`: what the generated cases exercised, against the embedded sandbox.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CoverageReport } from '../../src/core/coverage.js';
import { runCli } from '../helpers/run-cli.js';

describe('contracts fuzz --coverage', () => {
  it('writes the coverage of the cases sent, with the parameters they carried, and fails under --min-coverage', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'contracts-fuzz-coverage-'));
    try {
      const file = path.join(dir, 'coverage.json');
      const result = await runCli([
        'fuzz',
        '--api',
        'repository-webhooks',
        '--seed',
        '3',
        '--max-examples',
        '5',
        '--coverage',
        file,
        '--min-coverage',
        '100',
      ]);
      const report = JSON.parse(await readFile(file, 'utf8')) as CoverageReport;
      expect(report.operations.exercised).toBe(12);
      const list = report.perOperation.find((entry) => entry.operationId === 'listWebhooks')!;
      expect(list.requestsSeen).toBeGreaterThan(0);
      expect(list.parameters['query per_page']).toBe(true);
      expect(result.stdout).toMatch(
        /coverage: 12\/12 operations exercised; \d+\/28 documented operation × status pairs seen/,
      );
      expect(result.stdout).toMatch(/is under --min-coverage 100%/);
      expect(result.code).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
