// What the core leaves out of a response's findings is still counted in every report (issue 11, item 7).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specPath } from '../../src/config/project.js';
import { seedProject } from '../../src/config/seed-project.js';
import { compileContract } from '../../src/core/compile-contract.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { HttpCapture } from '../../src/http/http-capture.js';
import { consoleReport } from '../../src/reports/console-report.js';
import { jsonReport } from '../../src/reports/json-report.js';
import { junitReport } from '../../src/reports/junit-report.js';
import { ResultCollector, summarize } from '../../src/reports/results.js';
import type { CheckRun } from '../../src/reports/check-run.js';
import { observe, type SequenceContext } from '../../src/runner/sequence-context.js';

let server: Server;
let baseUrl: string;
beforeAll(async () => {
  // A hooks list of 500 items that are not hooks: 500 schema errors in one response.
  server = createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(`[${Array(500).fill('1').join(',')}]`),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('a response with more findings than the core keeps', () => {
  it('is reported with its first findings and how many more there were, in the console, JSON and JUnit', async () => {
    const capture = new HttpCapture({ timeoutMs: 5_000 });
    const results = new ResultCollector();
    const context = {
      api: 'repository-webhooks',
      baseUrl,
      contract: compileContract(await loadSpec(specPath(seedProject.api('repository-webhooks')))),
      capture,
      results,
      mode: 'read-only',
      strict: false,
      env: {},
      credentials: [],
      addSecret: () => undefined,
      log: () => undefined,
    } satisfies SequenceContext;
    await observe(context, 'listWebhooks', () => capture.fetch(new Request(`${baseUrl}/repos/o/r/hooks`)));

    const result = results.get('repository-webhooks', 'listWebhooks', 'response_schema_conformance')!;
    expect(result).toMatchObject({ status: 'failed', omitted: 400 });
    expect(result.findings).toHaveLength(100);
    const run: CheckRun = {
      mode: 'read-only',
      targets: { 'repository-webhooks': baseUrl },
      results: results.all(),
      summary: summarize(results.all()),
      notRun: [],
      durationMs: 1,
    };
    expect(consoleReport(run)).toContain('… and 490 more'); // 10 shown in the console, of 500
    expect(JSON.parse(jsonReport(run)).results).toContainEqual(
      expect.objectContaining({ check: 'response_schema_conformance', omitted: 400 }),
    );
    expect(junitReport(run)).toContain('… and 400 more');
    expect(jsonReport(run).length).toBeLessThan(50_000);
  });
});
