// Ctrl-C or SIGTERM in the middle of a full run: the webhooks the run created are deleted before it exits.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFaultServer } from '../helpers/fault-server.js';
import { root } from '../helpers/paths.js';

describe('contracts check, interrupted', () => {
  it.each([
    ['SIGINT', 'while pinging', '/pings'],
    ['SIGTERM', 'while updating events', '/hooks/101'],
    ['SIGINT', 'while creating the second hook', '/repos/octo/app/hooks'],
  ] as const)('on %s %s deletes every webhook it created and exits 2', async (signal, _when, pathSuffix) => {
    let child: ReturnType<typeof spawn> | undefined;
    let sent = false;
    const server = await startFaultServer({
      slow: {
        pathSuffix,
        ms: 1500,
        onRequest: () => {
          // The first create is let through so that there is something to clean up.
          if (!sent && child && (pathSuffix !== '/repos/octo/app/hooks' || server.liveHooks().length > 0)) {
            sent = true;
            child.kill(signal);
          }
        },
      },
    });
    try {
      child = spawn(
        process.execPath,
        [
          path.join(root, 'bin/contracts.js'),
          'check',
          '--api',
          'repository-webhooks',
          '--base-url',
          server.url,
          '--owner',
          'octo',
          '--repo',
          'app',
        ],
        {
          cwd: root,
          env: { ...process.env, SCARF_ANALYTICS: 'false' },
        },
      );
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child!.once('exit', (c) => resolve(c)));
      expect(sent).toBe(true);
      expect(stderr).toContain(`${signal}: stopping after the request in flight`);
      expect(stderr).toMatch(/deleting the \d+ webhooks? this run created/);
      expect(stderr).toContain('interrupted');
      expect(code).toBe(2);
      // Give a request the server was still answering time to finish, then nothing may be left.
      await new Promise((resolve) => setTimeout(resolve, 1600));
      expect(server.liveHooks()).toEqual([]);
      expect(server.requests.some((r) => r.startsWith('DELETE'))).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('contracts check, interrupted before it created anything', () => {
  it('says what did not run, and nothing about deleting webhooks', async () => {
    let child: ReturnType<typeof spawn> | undefined;
    const server = await startFaultServer({
      slow: { pathSuffix: '/client-session', ms: 800, onRequest: () => child?.kill('SIGINT') },
    });
    try {
      child = spawn(process.execPath, [path.join(root, 'bin/contracts.js'), 'check', '--base-url', server.url], {
        cwd: root,
        env: { ...process.env, SCARF_ANALYTICS: 'false' },
      });
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child!.once('exit', (c) => resolve(c)));
      expect(stderr).toContain('SIGINT: stopping after the request in flight');
      expect(stderr).not.toContain('deleting');
      expect(stdout).toMatch(/Not run \(the run was interrupted\): \d+ checks of .*createWebhook/);
      expect(code).toBe(2);
      expect(server.requests.some((r) => r.startsWith('POST'))).toBe(false);
    } finally {
      await server.close();
    }
  });
});
