// `contracts receive` as a user runs it: one line per delivery, reports at exit, exit 1 when one broke the
// contract, and neither the secret nor a signature in anything it writes.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sign } from '@octokit/webhooks-methods';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

const secret = 'receive-cli-secret-98765';

async function post(url: string, body: string, key: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'test',
      'x-service-delivery': '0b989ba4-242f-11e5-81e1-c7b6966d2516',
      'x-service-event': 'issues',
      'x-service-hook-id': '7',
      'x-service-hook-installation-target-id': '2',
      'x-service-hook-installation-target-type': 'repository',
      'x-hub-signature-256': await sign(key, body),
      'x-hub-signature': `sha1=${createHmac('sha1', key).update(body).digest('hex')}`,
    },
  });
  return response.status;
}

describe('contracts receive', () => {
  it('checks each delivery, writes its reports at exit and exits 1 when one broke the contract', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'receive-'));
    const report = path.join(dir, 'deliveries.json');
    const child = spawn(
      process.execPath,
      [
        path.join(root, 'bin/contracts.js'),
        'receive',
        '--port',
        '0',
        '--count',
        '2',
        '--secret-env',
        'HOOK_SECRET',
        '--report',
        `json:${report}`,
      ],
      {
        cwd: root,
        env: { ...process.env, HOOK_SECRET: secret },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /Receiving webhook deliveries at (\S+)/.exec(stdout);
        if (match) resolve(match[1]!);
      });
      child.once('exit', () => reject(new Error(`receive exited early: ${stderr}`)));
    });
    const issues = JSON.stringify({ action: 'opened', issue: { body: 'b' }, repository: { id: 2 } });
    expect(await post(url, issues, secret)).toBe(200);
    expect(await post(url, issues, 'the-wrong-secret-1234')).toBe(200);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stdout).toMatch(/✓ issues 0b989ba4-242f-11e5-81e1-c7b6966d2516 hook 7 → 200/);
    expect(stdout).toMatch(/✗ issues .* → 200\n\s+delivery_signature: X-Hub-Signature-256 does not verify/);
    const json = await readFile(report, 'utf8');
    const parsed = JSON.parse(json) as {
      mode: string;
      results: { operation: string; check: string; status: string }[];
    };
    expect(parsed.mode).toBe('receive');
    expect(parsed.results).toContainEqual(
      expect.objectContaining({ operation: 'issuesDeliveryReceived', check: 'delivery_signature', status: 'failed' }),
    );
    expect(parsed.results).toContainEqual(
      expect.objectContaining({
        operation: 'issuesDeliveryReceived',
        check: 'delivery_payload_schema',
        status: 'passed',
      }),
    );
    for (const text of [stdout, stderr, json]) {
      expect(text).not.toContain(secret);
      expect(text).not.toMatch(/sha(1|256)=[0-9a-f]{8}/);
    }
  });

  it.each([
    [['--count', '0'], /--count must be a whole number/],
    [['--secret-env', 'A-B'], /--secret-env must name an environment variable/],
    [['--port', 'x'], /--port must be a port number/],
  ])('refuses %j in one line with exit 2', async (args, message) => {
    const result = await runCli(['receive', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
