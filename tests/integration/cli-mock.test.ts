// `contracts mock` as a user runs it: a real process, real Prism children, Ctrl-C, and nothing left behind.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { githubDescription } from '../github/github-har.js';
import { root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

function startCli(args: string[], cwd = root, command = 'mock'): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [path.join(root, 'bin/contracts.js'), command, ...args], {
    cwd,
    env: { ...process.env, SCARF_ANALYTICS: 'false' },
  });
}

/** A project of a user's own: one API, `events`, with its own small spec (or the spec file given). */
async function project(spec?: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-cli-mock-'));
  if (spec === undefined)
    await writeFile(
      path.join(dir, 'api.yaml'),
      'openapi: 3.1.0\ninfo: { title: events, version: "1" }\npaths:\n  /items:\n    get:\n      responses:\n        "200":\n          description: ok\n          content: { application/json: { example: [1] } }\n',
    );
  else await copyFile(spec, path.join(dir, 'api.yaml'));
  await writeFile(
    path.join(dir, 'contracts.config.yaml'),
    'apis:\n  - name: events\n    spec: api.yaml\n    mockPort: 4999\n',
  );
  return dir;
}

/** The Prism processes the CLI `pid` started (its other children: tsx's esbuild service). */
function prismChildrenOf(pid: number): number[] {
  const listed = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' }).stdout;
  return listed
    .split('\n')
    .filter((line) => /prism/.test(line))
    .map((line) => Number(line.trim().split(/\s+/)[0]))
    .filter((child) => child > 0);
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

  it("takes --port-NAME for an API of the user's config, and names it in --help", async () => {
    const dir = await project();
    const help = await runCli(['mock', '--help'], { cwd: dir });
    expect(help.stdout).toMatch(/--port-events <port>\s+Port of the events mock/);
    expect(help.stdout).not.toContain('client-session');
    const port = await freePort();
    const child = startCli(['--port-events', String(port)], dir);
    const output = await waitForOutput(child, /Ctrl-C to stop/);
    expect(output).toContain(`events               http://127.0.0.1:${port}`);
    expect((await fetch(`http://127.0.0.1:${port}/items`)).status).toBe(200);
    const done = exited(child);
    child.kill('SIGINT');
    expect(await done).toBe(0);
  });

  // GitHub's description (13 MB) keeps Prism busy for seconds before it answers: Ctrl-C then must not wait for it.
  it.each([
    ['mock', []],
    ['fuzz', ['--max-examples', '1', '--mock-engine', 'prism']],
  ])(
    '%s: Ctrl-C while Prism starts stops it at once and leaves no Prism behind',
    async (command, args) => {
      const dir = await project(githubDescription);
      const child = startCli(args, dir, command);
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const done = exited(child);
      let prism: number[] = [];
      for (let waited = 0; prism.length === 0 && waited < 60_000; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        prism = prismChildrenOf(child.pid!);
      }
      expect(prism.length, `Prism never started: ${stderr}`).toBeGreaterThan(0);
      const signalled = Date.now();
      child.kill('SIGINT');
      expect(await done).toBe(2);
      expect(Date.now() - signalled).toBeLessThan(8000);
      expect(stderr).toMatch(new RegExp(`contracts ${command}: interrupted while Prism for events was starting`));
      for (const pid of prism) expect(isAlive(pid), `Prism pid ${pid} outlived the interrupted ${command}`).toBe(false);
    },
    90_000,
  );

  // A terminal's Ctrl-C signals the whole process group: Prism ends of it too, perhaps before the CLI's own handler
  // runs. That is the user stopping the mocks (exit 0), not a Prism that died (the corpus saw exit 2 once in 570).
  it('stops cleanly when Ctrl-C reaches the whole process group, Prism included', async () => {
    const child = spawn(
      process.execPath,
      [path.join(root, 'bin/contracts.js'), 'mock', '--api', 'client-session', '--port-client-session', '0'],
      { cwd: root, env: { ...process.env, SCARF_ANALYTICS: 'false' }, detached: true },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const output = await waitForOutput(child, /Ctrl-C to stop/);
    const done = exited(child);
    process.kill(-child.pid!, 'SIGINT');
    expect(await done, stderr).toBe(0);
    expect(stderr).not.toContain('stopped unexpectedly');
    const pids = [...output.matchAll(/Prism pid (\d+)/g)].map((m) => Number(m[1]));
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
  });
});
