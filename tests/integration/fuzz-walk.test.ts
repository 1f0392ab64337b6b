// `contracts fuzz` on a user's own API, as a real process against a real service: the stateful walk over its
// resource model finds each planted bug by its own lifecycle rule, and the bug-free twin exits 0 with every check
// exercised. A check the spec gives no way to exercise is skipped, saying why, unless --require-all.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { type CrudBug, crudKey, crudSpec, startCrudService } from '../fuzz/stateful/crud-service.js';

interface Report {
  results: { operation: string; check: string; status: string; reason?: string }[];
  failures: { check: string; operation: string; phase: string; script: string }[];
}

const lifecycle = [
  'ensure_resource_availability',
  'use_after_free',
  'read_after_write',
  'listed_after_create',
  'paging_consistent',
  'conflict_documented',
  'ignored_auth',
];

let project: string;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  project = await mkdtemp(path.join(os.tmpdir(), 'contracts-walk-'));
  await writeFile(path.join(project, 'shop.yaml'), crudSpec);
  // The same API without its read: the rules that need one cannot be exercised.
  await writeFile(
    path.join(project, 'unread.yaml'),
    crudSpec.replace(/\n {4}get:\n {6}operationId: getItem[\s\S]*?(?=\n {4}patch:)/, ''),
  );
  // The same API whose patch must change something: its smallest body, `{}`, is not a valid request.
  await writeFile(
    path.join(project, 'nonempty.yaml'),
    crudSpec.replace(
      '    ItemPatch:\n      type: object\n',
      '    ItemPatch:\n      type: object\n      minProperties: 1\n',
    ),
  );
  const credentials = '    credentials:\n      - { env: CONTRACTS_SHOP_KEY, securityScheme: key }\n';
  await writeFile(
    path.join(project, 'contracts.config.yaml'),
    `apis:\n  - name: shop\n    spec: shop.yaml\n${credentials}  - name: unread\n    spec: unread.yaml\n${credentials.replace('SHOP', 'UNREAD')}` +
      `  - name: nonempty\n    spec: nonempty.yaml\n${credentials.replace('SHOP', 'NONEMPTY')}`,
  );
});

afterEach(async () => {
  await close?.();
  close = undefined;
});

async function fuzz(api: string, bugs: CrudBug[], extra: string[]) {
  const service = await startCrudService(bugs);
  close = service.close;
  const result = await runCli(
    ['fuzz', '--api', api, '--base-url', service.url, '--seed', '1', ...extra, '--report', 'json:r.json'],
    {
      cwd: project,
      env: { CONTRACTS_SHOP_KEY: crudKey, CONTRACTS_UNREAD_KEY: crudKey, CONTRACTS_NONEMPTY_KEY: crudKey },
    },
  );
  const report = JSON.parse(await readFile(path.join(project, 'r.json'), 'utf8')) as Report;
  return { ...result, report };
}

describe('contracts fuzz walks a user API by its resource model', () => {
  it('exits 0 on the correct service, every lifecycle check exercised and passed, in one default run', async () => {
    const { code, stdout, stderr, report } = await fuzz('shop', [], []);
    expect(code, stdout + stderr).toBe(0);
    expect(
      report.results.filter((result) => result.status !== 'passed' && result.check !== 'negative_data_rejection'),
    ).toEqual([]);
    const judged = new Set(
      report.results.filter((result) => lifecycle.includes(result.check)).map((result) => result.check),
    );
    expect([...judged].sort()).toEqual([...lifecycle].sort());
    expect(stderr).toMatch(/^contracts fuzz: rate: unlimited \(a loopback target; --rate n caps it\)$/m);
  }, 120_000);

  it('probes a PATCH without credentials with a valid body when its smallest one is refused (minProperties)', async () => {
    const { code, stdout, stderr, report } = await fuzz('nonempty', [], []);
    // The service takes `{}`, which this spec's minProperties refuses: the phases' smallest PATCH, sent to an item the
    // run made (live-instances.ts), shows it; on a made-up id it was answered 404. The one failure of the run.
    expect(code, stdout + stderr).toBe(1);
    expect(report.failures.map(({ check, operation, phase }) => ({ check, operation, phase }))).toEqual([
      { check: 'negative_data_rejection', operation: 'updateItem', phase: 'examples' },
    ]);
    expect(
      report.results.filter((result) => result.operation === 'updateItem' && result.check === 'ignored_auth'),
    ).toEqual([expect.objectContaining({ operation: 'updateItem', check: 'ignored_auth', status: 'passed' })]);
  }, 120_000);

  it('finds a PATCH answered but not stored in one default run, and nothing else', async () => {
    const { code, report } = await fuzz('shop', ['not-stored'], []);
    expect(code).toBe(1);
    expect(report.failures.map(({ check, operation, phase }) => ({ check, operation, phase }))).toEqual([
      { check: 'read_after_write', operation: 'updateItem', phase: 'stateful' },
    ]);
    // Its script starts with the create that made the item, reads the id from its answer, and reproduces the
    // failure in bash against a fresh target (exit 1), not against the fixed one (exit 0).
    const file = path.join(project, 'not-stored.sh');
    await writeFile(file, report.failures[0]!.script);
    const outcomes: (number | null)[] = [];
    for (const bugs of [['not-stored'], []] as CrudBug[][]) {
      const fresh = await startCrudService(bugs);
      // Not spawnSync: the service answers from this process.
      const child = spawn('bash', [file], {
        env: { ...process.env, BASE_URL: fresh.url, CONTRACTS_SHOP_KEY: crudKey },
        stdio: 'ignore',
      });
      outcomes.push(await new Promise<number | null>((resolve) => child.on('close', resolve)));
      await fresh.close();
    }
    expect(outcomes).toEqual([1, 0]);
  }, 120_000);

  it.each([
    ['unreadable', 'ensure_resource_availability', 'createItem'],
    ['still-there', 'use_after_free', 'deleteItem'],
    ['unlisted', 'listed_after_create', 'createItem'],
    ['page-repeat', 'paging_consistent', 'listItems'],
    ['archive-twice', 'conflict_documented', 'archiveItem'],
    ['delete-ignores-key', 'ignored_auth', 'deleteItem'],
  ] as const)(
    'finds the planted bug %s by %s alone',
    async (bug, check, operation) => {
      const { code, report } = await fuzz('shop', [bug], ['--phases', 'stateful']);
      expect(code).toBe(1);
      expect(report.failures.map((failure) => ({ check: failure.check, operation: failure.operation }))).toEqual([
        { check, operation },
      ]);
    },
    120_000,
  );

  it('skips what the spec gives no way to exercise, saying why; --require-all makes it exit 1', async () => {
    const plain = await fuzz('unread', [], ['--phases', 'stateful']);
    expect(plain.code, plain.stdout + plain.stderr).toBe(0);
    expect(plain.report.results.filter((result) => result.check === 'use_after_free')).toEqual([
      {
        api: 'unread',
        operation: 'deleteItem',
        check: 'use_after_free',
        status: 'skipped',
        reason: 'not exercised: no operation reads a Item by its id: add a GET on /items/{itemId}',
        findings: [],
        durationMs: 0,
      },
    ]);
    const strict = await fuzz('unread', [], ['--phases', 'stateful', '--require-all']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/exit 1: --require-all, and \d+ checks were not exercised/);
  }, 120_000);
});
