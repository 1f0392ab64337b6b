import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { root } from '../helpers/paths.js';

interface Step {
  name?: string;
  run?: string;
}
const workflow = parse(readFileSync(path.join(root, '.github/workflows/contracts.yml'), 'utf8')) as {
  jobs: Record<string, { if?: string; env?: Record<string, string>; steps: Step[] }>;
};

const specsCommitted = () =>
  spawnSync('git', ['status', '--porcelain', 'specs'], { cwd: root, encoding: 'utf8' }).stdout === '';

describe('the contracts workflow', () => {
  const job = workflow.jobs['spec-changes']!;

  it('runs contracts diff on pull requests only, with the base branch fetched', () => {
    expect(job.if).toBe("github.event_name == 'pull_request'");
    expect(job.env?.BASE_REF).toBe('${{ github.base_ref }}');
    expect(job.steps.some((step) => JSON.stringify(step).includes('"fetch-depth":0'))).toBe(true);
  });

  it('writes markdown to the job summary and annotations, with commands the CLI accepts', () => {
    const diffSteps = job.steps.filter((step) => step.run?.includes('contracts diff'));
    expect(diffSteps.map((step) => step.run!.match(/--format (\w+)/)?.[1])).toEqual(['markdown', 'github']);
    const dir = mkdtempSync(path.join(tmpdir(), 'contracts-workflow-'));
    try {
      const summary = path.join(dir, 'summary.md');
      for (const step of diffSteps) {
        // The same script, against HEAD of this checkout instead of the pull request's base branch.
        const script = step
          .run!.replace(/npx contracts/g, `node ${JSON.stringify(path.join(root, 'bin/contracts.js'))}`)
          .replace('"origin/${BASE_REF}"', 'HEAD');
        const result = spawnSync('bash', ['-e', '-c', script], {
          cwd: root,
          env: { ...process.env, GITHUB_STEP_SUMMARY: summary },
          encoding: 'utf8',
          timeout: 60_000,
        });
        expect(result.stderr).toMatch(/changes?: \d+ breaking/);
        // 0 on a clean checkout; a developer's uncommitted spec edit may make it 1, never 2 (could not run).
        if (specsCommitted()) expect(result.status).toBe(0);
        else expect(result.status).not.toBe(2);
      }
      expect(readFileSync(summary, 'utf8')).toMatch(/^### API changes: HEAD → working tree/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
