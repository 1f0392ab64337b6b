// A spec split over files as DigitalOcean's is (tests/fixtures/multi-file): Path Items and responses in files, a
// `default` response in another file, pointers through a path key with braces, `properties: { $ref }`, an example in
// a file, a $ref to a $ref, a description in a file. Our bundle must read it as Redocly's does: the same findings,
// a client generated, and a mock that serves the `default` response.
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMocks } from '../../src/mock/start-mocks.js';
import { fixture, root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';
import { seedProject } from '../../src/config/seed-project.js';

const spec = fixture('multi-file', 'openapi.yaml');

interface Problem {
  file: string;
  line: number;
  column: number;
  severity: string;
  rule: string;
  message: string;
  pointer?: string;
}

function redoclyBundle(out: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(root, 'node_modules/@redocly/cli/bin/cli.js'), 'bundle', spec, '-o', out],
      {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        stdio: 'ignore',
      },
    );
    child.on('error', reject);
    child.on('close', resolve);
  });
}

async function lintJson(file: string): Promise<Problem[]> {
  const result = await runCli(['lint', '--format', 'json', file]);
  return (JSON.parse(result.stdout) as { problems: Problem[] }).problems;
}

// Where a finding is differs between the two documents (Redocly moves what files name to components); what it says
// does not.
function unlocated(problems: Problem[]) {
  return problems
    .map(({ file: _file, line: _line, column: _column, pointer: _pointer, ...rest }) => rest)
    .sort((a, b) => `${a.rule}${a.message}`.localeCompare(`${b.rule}${b.message}`));
}

describe('a multi-file spec in the layout DigitalOcean publishes', () => {
  it('lints as Redocly CLI bundles it: the same findings, a file-borne example among them', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-multi-file-'));
    const bundled = path.join(dir, 'bundled.yaml');
    expect(await redoclyBundle(bundled)).toBe(0);
    const ours = await lintJson(spec);
    expect(unlocated(ours)).toEqual(unlocated(await lintJson(bundled)));
    expect(ours.filter((problem) => problem.severity === 'error').map((problem) => problem.message)).toEqual([
      'example does not match its schema: /id must be integer',
      'example does not match its schema: /name must be string',
    ]);
  }, 120_000);

  it('generates a client: exit 0', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-multi-file-gen-'));
    await cp(path.dirname(spec), path.join(dir, 'spec'), { recursive: true });
    await writeFile(
      path.join(dir, 'contracts.config.yaml'),
      'apis:\n  - name: items\n    spec: spec/openapi.yaml\n    generated: generated/items.ts\n',
    );
    const result = await runCli(['generate'], { cwd: dir });
    expect([result.code, result.stderr]).toEqual([0, '']);
    const written = await readFile(path.join(dir, 'generated', 'items.ts'), 'utf8');
    expect(written).toContain('ping_get');
  }, 120_000);

  it('serves the default response that another file holds', async () => {
    const mocks = await startMocks({
      apis: [seedProject.api('client-session')],
      ports: { 'client-session': 0 },
      specFiles: { 'client-session': spec },
    });
    try {
      const answer = await fetch(`${mocks.mocks[0]!.url}/ping`, { headers: { authorization: 'Bearer x' } });
      expect([answer.status, await answer.json()]).toEqual([
        200,
        { id: 'unexpected', message: 'Something went wrong.' },
      ]);
    } finally {
      await mocks.stop();
    }
  }, 120_000);
});
