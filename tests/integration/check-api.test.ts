// `contracts check` in a user's project whose config lists only its own CRUD API (tests/runner/fixtures/inventory.yaml,
// served by inventory-service.ts), as a real process: the generic conformance pass creates an item, reads, lists,
// updates and deletes it with the id the create answered, judges every answer, and reports the operation it cannot
// bind with the reason. Before it, check refused every API but the two examples ("no check sequence for inventory").
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';
import { startInventory, type InventoryService } from '../runner/fixtures/inventory-service.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-check-api-'));
  await copyFile(path.join(root, 'tests/runner/fixtures/inventory.yaml'), path.join(dir, 'inventory.yaml'));
  await writeFile(path.join(dir, 'contracts.config.yaml'), 'apis:\n  - name: inventory\n    spec: inventory.yaml\n');
});

afterAll(() => rm(dir, { recursive: true, force: true }));

const unboundReason =
  'path parameter reportId: no operation creates or lists a report: give it a value (an example, a default or a variable), or add a link';

/** Runs check against a fresh service; returns the CLI's result, the JSON report and the service. */
async function check(service: InventoryService, args: string[] = []) {
  const report = path.join(dir, `report-${Date.now()}.json`);
  try {
    const result = await runCli(['check', '--base-url', service.baseUrl, '--report', `json:${report}`, ...args], {
      cwd: dir,
    });
    const json = JSON.parse(await readFile(report, 'utf8')) as { results: Record<string, unknown>[] };
    return { result, results: json.results };
  } finally {
    await service.stop();
  }
}

describe('contracts check on a user API with no sequence of its own (real process)', () => {
  it('is green on a correct service: create first, deletes last, with the id the create answered', async () => {
    const service = await startInventory();
    const junit = path.join(dir, 'report.xml');
    const html = path.join(dir, 'report.html');
    const { result } = await check(service, ['--report', `junit:${junit}`, '--report', `html:${html}`]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    // The lifecycle rules' follow-ups (lifecycle-hooks.ts): the create read and listed, the PATCH read back, the
    // delete read again.
    expect(service.requests).toEqual([
      'POST /items',
      'GET /items/i1',
      'GET /items',
      'GET /items',
      'GET /items/i1',
      'PATCH /items/i1',
      'GET /items/i1',
      'DELETE /items/i1',
      'GET /items/i1',
    ]);
    expect(service.items()).toBe(0);
    // ensure_resource_availability, listed_after_create, read_after_write and use_after_free judged and passed.
    expect(result.stdout).toContain('23 passed, 0 failed, 4 skipped');
    expect(result.stderr).toContain(
      // getItem's 404: the read after the delete (use_after_free).
      'contracts check: inventory: documented statuses seen: 6 of 10; not seen: createItem 400, deleteItem 404, updateItem 404, getReport 200',
    );
    // Every report names the user's API and operations, and nothing of the example APIs.
    const texts = [result.stdout, result.stderr, await readFile(junit, 'utf8'), await readFile(html, 'utf8')];
    for (const text of texts) {
      expect(text).toContain('updateItem');
      expect(text).not.toMatch(/client-session|repository-webhooks|webhook|X-API-KEY/i);
    }
  }, 60_000);

  it('is red on a service that answers a wrong field type, naming the operation and the rule', async () => {
    const { result, results } = await check(await startInventory({ bug: 'quantity-as-string' }));
    expect(result.code, result.stdout + result.stderr).toBe(1);
    // The reads after the create and after the PATCH show it too; read_after_write leaves a value of another type
    // to this rule.
    const finding = (actual: string) => ({
      check: 'response_schema_conformance',
      severity: 'error',
      operation: 'getItem',
      instancePath: '/quantity',
      schemaPath: '/properties/quantity/type',
      message: `/quantity must be integer, not "${actual}"`,
      actual,
    });
    expect(results.filter((entry) => entry.status === 'failed')).toEqual([
      {
        api: 'inventory',
        operation: 'getItem',
        check: 'response_schema_conformance',
        status: 'failed',
        findings: [{ ...finding('3'), count: 2 }, finding('5')],
        durationMs: expect.any(Number),
      },
    ]);
  }, 60_000);

  it('reports an operation whose path it cannot bind as not exercised, with the reason; --strict fails it', async () => {
    const plain = await check(await startInventory());
    const strict = await check(await startInventory(), ['--strict']);
    const report = (results: Record<string, unknown>[]) =>
      results.filter((entry) => entry.operation === 'getReport' && entry.check === 'status_code_conformance');
    expect(report(plain.results)).toEqual([
      {
        api: 'inventory',
        operation: 'getReport',
        check: 'status_code_conformance',
        status: 'skipped',
        findings: [],
        reason: `not exercised: ${unboundReason}`,
        durationMs: 0,
      },
    ]);
    expect(plain.result.code).toBe(0);
    expect(report(strict.results)).toEqual([
      {
        api: 'inventory',
        operation: 'getReport',
        check: 'status_code_conformance',
        status: 'failed',
        findings: [
          {
            check: 'status_code_conformance',
            severity: 'error',
            operation: 'getReport',
            instancePath: '',
            message: `could not be exercised: ${unboundReason}`,
          },
        ],
        reason: unboundReason,
        durationMs: 0,
      },
    ]);
    expect(strict.result.code).toBe(1);
  }, 90_000);

  it('checks every API of the config against its embedded mock without --base-url', async () => {
    const result = await runCli(['check'], { cwd: dir });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^inventory \(embedded stateful sandbox at http:\/\/127\.0\.0\.1:\d+\)$/m);
    expect(result.stdout).toContain('19 passed, 0 failed, 4 skipped');
  }, 90_000);

  it('says in --help what check does for the user API, naming none of the example APIs or their variables', async () => {
    const result = await runCli(['check', '--help'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('inventory or all');
    expect(result.stdout).not.toMatch(/client-session|repository-webhooks|X-API-KEY|CLIENT_SESSION|WEBHOOKS_TOKEN/);
  });

  it('deletes what it created when the target goes away mid-run, and ends in one line, exit 2', async () => {
    const service = await startInventory({ bug: 'drop-on-patch' });
    try {
      const result = await runCli(['check', '--base-url', service.baseUrl, '--retries', '0'], { cwd: dir });
      expect(result.code, result.stdout + result.stderr).toBe(2);
      expect(service.requests.slice(-2)).toEqual(['PATCH /items/i1', 'DELETE /items/i1']);
      expect(service.items()).toBe(0);
      expect(result.stderr).toContain('contracts check: cleanup: deleteItem answered 204');
      expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
    } finally {
      await service.stop();
    }
  }, 60_000);
});
