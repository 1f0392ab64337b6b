// An operation whose request the spec constrains in nothing but its API key (a secured GET with no parameters) has
// no negative case: the keyless request is ignored_auth's, not negative_data_rejection's. That check was planned
// anyway, never reached, and failed the run ("the sequence never reached it").
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { notesProject, type ScratchProject, scratchProject } from '../helpers/user-project.js';

let project: ScratchProject;

beforeAll(async () => {
  project = await scratchProject('contracts-nothing-to-break-', notesProject, (req, res) => {
    if (req.headers['x-notes-key'] !== 'right-key') res.writeHead(401).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end('["buy milk"]');
  });
});
afterAll(() => project.stop());

it('skips negative_data_rejection with its reason, judges ignored_auth, and passes a server that keeps the spec', async () => {
  const result = await runCli(
    ['fuzz', '--base-url', project.baseUrl, '--max-examples', '3', '--seed', '1', '--report', 'json:fuzz.json'],
    { cwd: project.dir, env: { CONTRACTS_NOTES_KEY: 'right-key' } },
  );
  expect(result.stdout).not.toContain('never reached');
  expect(result.stdout).toMatch(/\d+ passed, 0 failed/);
  expect(result.code).toBe(0);
  const report = JSON.parse(await readFile(path.join(project.dir, 'fuzz.json'), 'utf8')) as {
    results: { operation: string; check: string; status: string; reason?: string }[];
  };
  const of = (check: string) => report.results.find((r) => r.operation === 'listNotes' && r.check === check);
  expect(of('negative_data_rejection')).toMatchObject({
    status: 'skipped',
    reason: 'the spec constrains nothing of this request that can be broken',
  });
  expect(of('ignored_auth')?.status).toBe('passed');
});
