// `contracts mock` as a user runs it: a real process, real Prism children, Ctrl-C, and nothing left behind.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

function startCli(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [path.join(root, 'bin/contracts.js'), 'mock', ...args], {
    cwd: root,
    env: { ...process.env, SCARF_ANALYTICS: 'false' },
  });
}

function waitForOutput(child: ChildProcessWithoutNullStreams, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      if (pattern.test(text)) {
        child.stdout.off('data', onData);
        resolve(text);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`contracts mock exited (${code}) before printing ${pattern}: ${text}`)),
    );
  });
}

const exited = (child: ChildProcessWithoutNullStreams) =>
  new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('contracts mock (real process)', () => {
  it('serves both APIs, prints their URLs, and leaves no Prism process after Ctrl-C', async () => {
    const [csPort, whPort] = [await freePort(), await freePort()];
    const child = startCli(['--port-client-session', String(csPort), '--port-repository-webhooks', String(whPort)]);
    const output = await waitForOutput(child, /Ctrl-C to stop/);
    expect(output).toContain(`client-session       http://127.0.0.1:${csPort}`);
    expect(output).toContain(`repository-webhooks  http://127.0.0.1:${whPort}`);
    const pids = [...output.matchAll(/Prism pid (\d+)/g)].map((m) => Number(m[1]));
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(isAlive(pid)).toBe(true);

    const session = await fetch(`http://127.0.0.1:${csPort}/client-session`, {
      headers: { 'X-API-KEY': 'k', 'X-API-VERSION': '2.4' },
    });
    expect(session.status).toBe(200);
    const hooks = await fetch(`http://127.0.0.1:${whPort}/repos/o/r/hooks`);
    expect(hooks.status).toBe(200);

    const done = exited(child);
    child.kill('SIGINT');
    expect(await done).toBe(0);
    for (const pid of pids) expect(isAlive(pid), `Prism pid ${pid} still running`).toBe(false);
  });

  it('does not show its own readiness probes as errors in --verbose', async () => {
    const child = startCli([
      '--verbose',
      '--port-client-session',
      String(await freePort()),
      '--port-repository-webhooks',
      String(await freePort()),
    ]);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await waitForOutput(child, /Mocks ready/);
    child.kill('SIGINT');
    await exited(child);
    expect(stderr).toContain('Prism is listening');
    // Prism marks errors with ✖ (its info lines carry random path words, "error" among them).
    expect(stderr, stderr).not.toMatch(/NO_PATH_MATCHED|✖/);
  });

  it('stops its Prism children on SIGTERM too', async () => {
    const child = startCli(['--api', 'client-session', '--port-client-session', '0']);
    const output = await waitForOutput(child, /Ctrl-C to stop/);
    const pids = [...output.matchAll(/Prism pid (\d+)/g)].map((m) => Number(m[1]));
    expect(pids).toHaveLength(1);
    expect(output).not.toContain('repository-webhooks');
    const done = exited(child);
    child.kill('SIGTERM');
    expect(await done).toBe(0);
    expect(isAlive(pids[0]!)).toBe(false);
  });

  it('exits 2 and stops the other mock when one Prism process dies', async () => {
    const child = startCli(['--port-client-session', '0', '--port-repository-webhooks', '0']);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const output = await waitForOutput(child, /Ctrl-C to stop/);
    const [sessionPid, hooksPid] = [...output.matchAll(/Prism pid (\d+)/g)].map((m) => Number(m[1]));
    const done = exited(child);
    process.kill(sessionPid!, 'SIGKILL');
    expect(await done).toBe(2);
    expect(stderr).toContain('Prism for client-session stopped unexpectedly (SIGKILL)');
    expect(isAlive(hooksPid!)).toBe(false);
  });

  it('leaves no Prism process behind even when it is killed with SIGKILL', async () => {
    const child = startCli(['--port-client-session', '0', '--port-repository-webhooks', '0']);
    const output = await waitForOutput(child, /Ctrl-C to stop/);
    const pids = [...output.matchAll(/Prism pid (\d+)/g)].map((m) => Number(m[1]));
    const done = exited(child);
    child.kill('SIGKILL');
    await done;
    const deadline = Date.now() + 5000;
    while (pids.some(isAlive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    for (const pid of pids) expect(isAlive(pid), `Prism pid ${pid} outlived its parent`).toBe(false);
  });

  it('exits 2 naming the port when it is taken, and starts nothing', async () => {
    const blocker = net.createServer();
    const port = await new Promise<number>((resolve) =>
      blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as net.AddressInfo).port)),
    );
    try {
      const result = await runCli(['mock', '--port-repository-webhooks', String(port), '--port-client-session', '0']);
      expect(result.stderr).toContain(`port ${port} for the repository-webhooks mock is already in use`);
      expect(result.stdout).not.toContain('Prism pid');
      expect(result.code).toBe(2);
    } finally {
      blocker.close();
    }
  });

  it.each([
    ['a port that is not a number', ['--port-client-session', 'abc'], /--port-client-session must be a port number/],
    ['an unknown API', ['--api', 'payments'], /unknown API "payments"/],
    ['--seed without --dynamic', ['--seed', '7'], /--seed has no effect without --dynamic/],
  ])('exits 2 with a clear line for %s', async (_name, args, message) => {
    const result = await runCli(['mock', ...args]);
    expect(result.stderr).toMatch(message);
    expect(result.code).toBe(2);
  });

  it('serves generated bodies in --dynamic mode, the same for the same --seed', async () => {
    const bodies: string[] = [];
    for (let run = 0; run < 2; run++) {
      const port = await freePort();
      const child = startCli([
        '--api',
        'repository-webhooks',
        '--port-repository-webhooks',
        String(port),
        '--dynamic',
        '--seed',
        '42',
      ]);
      await waitForOutput(child, /Ctrl-C to stop/);
      const response = await fetch(`http://127.0.0.1:${port}/repos/o/r/hooks/1/config`);
      bodies.push(await response.text());
      const done = exited(child);
      child.kill('SIGINT');
      await done;
    }
    expect(bodies[0]).toBe(bodies[1]);
    expect(bodies[0]).not.toContain('https://example.com/webhook');
  });
});
