// Safe on staging: Ctrl-C stops a fuzz run after the request in flight and deletes every webhook it created; a
// target that cannot be reached ends the run with one line and exit 2, never as a "finding".
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/plugins/example-sandbox.js';
import { freePort } from '../helpers/free-port.js';
import { root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

describe('contracts fuzz when stopped or when the target is gone', () => {
  it('on SIGINT deletes every webhook it created, says so, and exits 2', async () => {
    const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
    try {
      const child = spawn(
        process.execPath,
        [
          path.join(root, 'bin/contracts.js'),
          'fuzz',
          '--api',
          'repository-webhooks',
          '--base-url',
          sandbox.url,
          '--rate',
          '25',
          '--seed',
          '3',
        ],
        {
          cwd: root,
          env: { ...process.env, SCARF_ANALYTICS: 'false' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const hooks = async () =>
        (await (await fetch(`${sandbox.url}/repos/octo/app/hooks?per_page=100`)).json()) as unknown[];
      // Wait until the run holds hooks of its own, then interrupt it.
      for (let waited = 0; (await hooks()).length === 0 && waited < 60_000; waited += 100)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await hooks()).length).toBeGreaterThan(0);
      child.kill('SIGINT');
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(2);
      expect(stderr).toContain('SIGINT: stopping after the request in flight');
      expect(stderr).toMatch(/interrupted/);
      expect(await hooks()).toEqual([]);
    } finally {
      await sandbox.stop();
    }
  }, 120_000);

  it('exits 2 with one line naming the URL when nothing listens', async () => {
    const port = await freePort();
    const { code, stderr, stdout } = await runCli(['fuzz', '--base-url', `http://127.0.0.1:${port}`, '--seed', '1'], {
      env: { CLIENT_SESSION_API_KEY: 'fuzz-test-key-0001' },
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(`cannot reach http://127\\.0\\.0\\.1:${port} .*ECONNREFUSED`));
    // The line naming the config whose credentials are sent (main.ts), the run's rate, then the one about the target.
    expect(stderr.trim().split('\n')).toHaveLength(3);
    expect(stderr).toContain('contracts fuzz: rate: unlimited (a loopback target; --rate n caps it)\n');
    expect(stderr).toMatch(/^contracts fuzz: sending credentials as the config \S+ names them\n/);
    expect(stdout).toMatch(/^Not run: \d+ checks \(the run stopped: TARGET_UNREACHABLE\)$/m);
  }, 60_000);

  it('reports the request after which the target went away in a random phase (exit 1), and stops instead of shrinking', async () => {
    let served = 0;
    const server = http.createServer((request, response) => {
      // Five answers, then every connection is cut: an outage inside fast-check's property.
      if (++served > 5) return request.socket.destroy();
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const { code, stdout, stderr } = await runCli([
        'fuzz',
        '--api',
        'client-session',
        '--phases',
        'random',
        '--base-url',
        url,
        '--seed',
        '1',
        '--rate',
        '0',
      ]);
      // The target died on its sixth request (issue #44, item 4): that request is the one failure, then the run stops.
      expect(stdout).toMatch(/^ {2}\[[0-9a-f]+\] not_a_server_error · \w+ · 0 · ordinary values · 1 occurrence$/m);
      expect(stdout.match(/^ {2}\[[0-9a-f]+\] .* · 0 · /gm)).toHaveLength(1);
      expect(stderr.trim().split('\n').at(-1)).toMatch(
        /^contracts fuzz: the target stopped answering after the request of failure \[[0-9a-f]+\] \(its curl line is above\): the run stopped there$/,
      );
      expect(code).toBe(1);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);
});
