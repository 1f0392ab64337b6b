// Every command, run with canary credentials: no byte it writes (stdout, stderr, report files) holds one.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultServer } from '../helpers/fault-server.js';
import { freePort } from '../helpers/free-port.js';
import { root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

const canaries = {
  CLIENT_SESSION_API_KEY: 'canary-apikey-9d1e55',
  CLIENT_SESSION_CLIENT_TOKEN: 'canary-clienttoken-41bb0c',
  WEBHOOKS_TOKEN: 'canary-bearer-77aa31',
};
const webhookSecret = 'canary-webhook-secret-c3f0';
const signature = 'sha256=3f1c8a9d0e4b7c6a5f2e1d0c9b8a7f6e5d4c3b2a19f8e7d6c5b4a39281706f5e';
const all = [...Object.values(canaries), webhookSecret, signature.slice('sha256='.length)];

let dir: string;
const written: string[] = [];
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-secrets-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function run(args: string[], input?: string) {
  const result = await runCli(args, { env: canaries, ...(input !== undefined ? { input } : {}) });
  written.push(result.stdout, result.stderr);
  return result;
}

/** Starts a long-running command, waits for its first line, stops it with SIGINT, returns all it wrote. */
async function runUntilReady(args: string[], ready: RegExp) {
  const child = spawn(process.execPath, [path.join(root, 'bin/contracts.js'), ...args], { cwd: root, env: { ...process.env, SCARF_ANALYTICS: 'false', ...canaries } });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (ready.test(out)) {
        clearInterval(timer);
        resolve();
      }
    }, 20);
    child.once('exit', (code) => reject(new Error(`${args[0]} exited ${code}: ${out}`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await exited;
  written.push(out);
}

describe('secrets never leave the process', () => {
  it('lint, generate, mock, sandbox', async () => {
    await run(['lint']);
    await run(['generate', '--check']);
    await runUntilReady(['mock', '--port-client-session', '0', '--port-repository-webhooks', '0', '--verbose'], /Ctrl-C to stop/);
    const sessions = path.join(dir, 'sessions.json');
    await writeFile(sessions, JSON.stringify({ [canaries.CLIENT_SESSION_CLIENT_TOKEN]: { paymentMethod: {} } }));
    await runUntilReady(['sandbox', '--port', '0', '--sessions', sessions], /Ctrl-C to stop/);
  });

  it('check, against the mocks and against a server that echoes every credential back, with reports', async () => {
    await run(['check', '--report', `json:${path.join(dir, 'mock.json')}`, '--report', `junit:${path.join(dir, 'mock.xml')}`]);
    const server = await startFaultServer({ faults: ['echo_secrets', 'secret_in_hook', 'schema'] });
    try {
      const result = await run(['check', '--base-url', server.url, '--strict', '--report', `json:${path.join(dir, 'echo.json')}`, '--report', `junit:${path.join(dir, 'echo.xml')}`]);
      expect(result.code).toBe(1);
      // The generated webhook secret reached the server, so the test would see a leak.
      expect(server.secretsSeen.length).toBeGreaterThan(0);
      all.push(...server.secretsSeen);
    } finally {
      await server.close();
    }
  });

  it('check against a target that cannot be reached, with the client token in the query', async () => {
    const port = await freePort();
    const result = await run(['check', '--api', 'client-session', '--base-url', `http://127.0.0.1:${port}`, '--report', `json:${path.join(dir, 'down.json')}`]);
    expect(result.code).toBe(2);
  });

  it('validate, one response and a HAR capture that carry credentials', async () => {
    const body = JSON.stringify({ paymentMethod: {}, metadata: { echoed: canaries.CLIENT_SESSION_API_KEY }, currencyCode: canaries.WEBHOOKS_TOKEN });
    await run(['validate', '--api', 'client-session', '--operation', 'retrieveClientSession', '--status', '200', '--header', 'content-type: application/json', '--body', '-', '--format', 'json'], body);
    const har = path.join(dir, 'capture.har');
    const entry = (url: string, status: number, text: string) => ({
      request: { method: 'GET', url, headers: [{ name: 'X-API-KEY', value: canaries.CLIENT_SESSION_API_KEY }] },
      response: { status, headers: [{ name: 'content-type', value: 'application/json' }, { name: 'X-Hub-Signature-256', value: signature }], content: { text } },
    });
    await writeFile(har, JSON.stringify({ log: { entries: [
      entry(`https://api.example.com/client-session?clientToken=${canaries.CLIENT_SESSION_CLIENT_TOKEN}`, 418, body),
      entry(`https://api.example.com/repos/o/r/hooks/1/config?token=${webhookSecret}`, 200, JSON.stringify({ secret: webhookSecret })),
      entry(`https://api.example.com/unknown?key=${canaries.WEBHOOKS_TOKEN}`, 200, '{}'),
    ] } }));
    const json = await run(['validate', '--api', 'all', '--har', har, '--format', 'json']);
    expect(json.code).toBe(1);
    expect(json.stdout).toContain('[REDACTED]');
    await run(['validate', '--api', 'all', '--har', har]);
  });

  it('in every byte written', async () => {
    for (const file of await readdir(dir)) if (/\.(json|xml)$/.test(file) && file !== 'sessions.json') written.push(await readFile(path.join(dir, file), 'utf8'));
    expect(written.length).toBeGreaterThan(15);
    const text = written.join('\n');
    for (const secret of all) expect(text.includes(secret), `leaked ${secret.slice(0, 12)}…`).toBe(false);
  });
});
