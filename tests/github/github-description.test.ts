// GitHub's own OpenAPI description (@octokit/openapi, 13 MB, OpenAPI 3.0.3): it loads, and `validate` judges the
// description's own examples for its 12 repository webhook operations.
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/core/load-spec.js';
import { runCli } from '../helpers/run-cli.js';
import { githubDescription, webhookOperationsHar } from './github-har.js';

describe("GitHub's OpenAPI description", () => {
  it('loads as OpenAPI 3.0.3, upgraded to 3.1', async () => {
    const spec = await loadSpec(githubDescription);
    expect(spec.sourceVersion).toBe('3.0.3');
    expect(spec.document.openapi).toBe('3.1.0');
    expect(Object.keys(spec.document.paths ?? {}).length).toBeGreaterThan(500);
  }, 120_000);

  it("accepts the description's own examples for its 12 repository webhook operations, but one null for an object", async () => {
    const { har, operationIds } = webhookOperationsHar();
    expect(operationIds).toHaveLength(12);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-github-'));
    const file = path.join(dir, 'webhooks.har');
    await writeFile(file, JSON.stringify(har));
    const result = await runCli(['validate', '--spec', githubDescription, '--har', file, '--side', 'response']);
    // GitHub documents 202 Accepted (components/responses/accepted) as `type: object` with the example `null`:
    // a 3.0 schema without `nullable: true` does not take null, so that one example does not conform.
    expect(result.stdout).toContain('12 exchanges: 11 conform, 1 fail, 0 match no operation');
    expect(result.stdout).toMatch(
      /POST \/repos\/octo\/app\/hooks\/42\/deliveries\/7\/attempts → 202 {2}\(repos\/redeliver-webhook-delivery\)\n.*response_schema_conformance.*must be object/,
    );
    expect(result.code).toBe(1);
  }, 180_000);
});
