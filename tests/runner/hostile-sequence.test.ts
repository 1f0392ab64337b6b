// Property test (issue "Hostile targets", item 6): whatever JSON a target answers, at any status, the full
// sequence neither crashes nor leaves a hook behind: no internal error, a DELETE for every hook id the target
// handed out in a 201, and reports that are written whole.
import fc from 'fast-check';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redactor } from '../../src/reports/redact.js';
import { writeReports } from '../../src/reports/write-reports.js';
import { CheckRunner } from '../../src/runner/run-check.js';
import { repositoryWebhooksCheck } from '../../src/plugins/repository-webhooks/check/check-plugin.js';
import { seedProject } from '../../src/config/seed-project.js';

interface Answer {
  status: number;
  body: unknown;
}

let server: http.Server;
let url: string;
let script: Answer[] = [];
let requests: string[] = [];
let handedOut: number[] = [];
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-hostile-'));
  server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const line = `${request.method} ${new URL(request.url ?? '/', 'http://x').pathname}`;
      requests.push(line);
      const answer = script.shift() ?? { status: 404, body: { message: 'Not Found' } };
      const id = (answer.body as { id?: unknown } | null)?.id;
      if (line === 'POST /repos/octo/app/hooks' && answer.status === 201 && Number.isSafeInteger(id))
        handedOut.push(id as number);
      const text = answer.status === 204 ? '' : (JSON.stringify(answer.body) ?? 'null');
      response.writeHead(answer.status, text ? { 'content-type': 'application/json' } : {});
      response.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

const hookLike = fc.record(
  {
    id: fc.oneof(fc.nat(), fc.jsonValue()),
    events: fc.jsonValue(),
    config: fc.oneof(fc.jsonValue(), fc.record({ url: fc.string() })),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  hookLike,
  fc.array(fc.oneof(fc.constant(null), hookLike, fc.jsonValue({ maxDepth: 2 })), { maxLength: 5 }),
);
const answer = fc.record({ status: fc.constantFrom(200, 201, 201, 202, 204, 400, 404, 406, 422, 500), body });

describe('the full webhooks sequence against a target answering arbitrary JSON', () => {
  it('never ends in an internal error, deletes every hook it was handed, and writes its reports', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(answer, { minLength: 1, maxLength: 60 }), async (answers) => {
        script = [...answers];
        requests = [];
        handedOut = [];
        const redactor = new Redactor();
        const runner = new CheckRunner({
          apis: [seedProject.api('repository-webhooks')],
          baseUrl: url,
          timeoutMs: 2000,
          retries: 0,
          env: {},
          redactor,
          plugins: () => repositoryWebhooksCheck,
          settings: { owner: 'octo', repo: 'app', hookUrl: 'http://127.0.0.1:9/x', deliveryWaitMs: 300 },
        });
        const run = await runner.run();
        expect(run.error?.code, run.error?.message).not.toBe('INTERNAL');
        for (const id of handedOut) expect(requests, `hook ${id}`).toContain(`DELETE /repos/octo/app/hooks/${id}`);
        const file = path.join(dir, 'report.json');
        await writeReports(run, [{ kind: 'json', file }], redactor);
        const written = JSON.parse(await readFile(file, 'utf8')) as { results: unknown[] };
        expect(written.results.length).toBe(run.results.length);
        expect(run.summary.failed + run.summary.passed).toBe(run.results.length);
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
