// GitHub's own description through `contracts lint`: problems found are data (exit 1), never "could not run" (2).
// Its own file, so vitest runs it beside the others: on a loaded 2-core machine it takes one to three minutes.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { githubDescription } from './github-har.js';

describe("GitHub's OpenAPI description, linted (real process)", () => {
  it('lints with exit 0 or 1, every problem on a line of the file', async () => {
    const result = await runCli(['lint', '--format', 'json', githubDescription]);
    expect(result.stderr).not.toMatch(/^contracts lint: /m);
    expect([0, 1]).toContain(result.code);
    const { problems } = JSON.parse(result.stdout) as { problems: { line: number; rule: string }[] };
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) expect(problem.line).toBeGreaterThan(0);
  }, 600_000);
});
