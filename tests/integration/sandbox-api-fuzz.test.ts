// The sandbox of a spec nobody wrote handlers for is one its own fuzz finds nothing wrong with: `contracts fuzz`
// against `contracts sandbox --api NAME` of each planted-bug service's spec (tests/fixtures/planted/) reports no
// failure and exits 0 (a check the spec gives no way to exercise, such as listed_after_create without a list, is
// skipped and said, which does not fail a run).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';
import type { ServerProcess } from '../helpers/spawn-server.js';

const children: ServerProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

const env = { CONTRACTS_NOTES_TOKEN: 't', CONTRACTS_NOTES_KEY: 'k', CONTRACTS_ORDERS_TOKEN: 't' };

function sandboxOf(api: string, dir: string): Promise<string> {
  const child: ServerProcess = spawn(
    process.execPath,
    [path.join(root, 'bin/contracts.js'), 'sandbox', '--api', api, '--port', '0'],
    { cwd: dir, env: { ...process.env, SCARF_ANALYTICS: 'false' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let stdout = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /statefully at (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    child.once('close', (code) => reject(new Error(`sandbox exited ${code}: ${stdout}`)));
  });
}

describe('contracts fuzz against the sandbox of a planted spec', () => {
  it.each(['notes', 'boards', 'orders'])('finds no failure in the %s sandbox', { timeout: 400_000 }, async (api) => {
    const dir = path.join(root, 'tests/fixtures/planted', api);
    const url = await sandboxOf(api, dir);
    const result = await runCli(['fuzz', '--api', api, '--base-url', url, '--seed', '1'], { cwd: dir, env });
    expect(/\d+ passed, (\d+) failed/.exec(result.stdout)?.[1]).toBe('0');
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/Failures \(/);
  });
});
