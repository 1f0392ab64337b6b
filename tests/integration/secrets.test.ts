// Every command, run with canary credentials: no byte it writes (stdout, stderr, report files) holds one, in any
// encoding. The canaries hold `"&<\`, so each has distinct JSON-, XML- and URL-encoded forms; targets echo them in
// bodies, headers, a redirect's Location, a body that is not JSON and a duplicate key written with an escape.
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
  CLIENT_SESSION_API_KEY: 'canary"&<\\apikey-9d1e55',
  CLIENT_SESSION_CLIENT_TOKEN: 'canary"&<\\clienttoken-41bb0c',
  WEBHOOKS_TOKEN: 'canary"&<\\bearer-77aa31',
};
const webhookSecret = 'canary-webhook-secret-c3f0';
const signature = 'sha256=3f1c8a9d0e4b7c6a5f2e1d0c9b8a7f6e5d4c3b2a19f8e7d6c5b4a39281706f5e';
// Credentials nobody registered, in a HAR's URLs and a --base-url: only their place says what they are.
const inUrls = {
  userinfo: 'canary-harpassword-1b7d',
  client_secret: 'canary-clientsecret-5e02',
  'X-Amz-Signature': 'canary-amzsig-88c4',
  refresh_token: 'canary-refresh-d93a',
  'api-key': 'canary-apikeyparam-06f1',
  baseUrlPassword: 'canary-baseurlpw-7a3c',
};
const all = [...Object.values(canaries), webhookSecret, signature.slice('sha256='.length), ...Object.values(inUrls)];

const json = (text: string) => JSON.stringify(text).slice(1, -1);
const xml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
/** A secret as console, JSON and JUnit output may hold it, and as URLs carry it. */
const forms = (secret: string) => [
  secret,
  json(secret),
  json(json(secret)),
  xml(secret),
  xml(json(secret)),
  encodeURIComponent(secret),
  new URLSearchParams({ s: secret }).toString().slice(2),
  new URL(`http://h/?${secret}`).search.slice(1),
];

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
  const child = spawn(process.execPath, [path.join(root, 'bin/contracts.js'), ...args], {
    cwd: root,
    env: { ...process.env, SCARF_ANALYTICS: 'false', ...canaries },
  });
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

// Each command is a child process (about 2 s each on a loaded machine), and several run per test.
describe('secrets never leave the process', () => {
  it('lint, generate, mock, sandbox', async () => {
    await run(['lint']);
    await run(['generate', '--check']);
    await runUntilReady(
      ['mock', '--port-client-session', '0', '--port-repository-webhooks', '0', '--verbose'],
      /Ctrl-C to stop/,
    );
    const sessions = path.join(dir, 'sessions.json');
    await writeFile(sessions, JSON.stringify({ [canaries.CLIENT_SESSION_CLIENT_TOKEN]: { paymentMethod: {} } }));
    await runUntilReady(['sandbox', '--port', '0', '--sessions', sessions], /Ctrl-C to stop/);
  }, 120_000);

  it('check, against the mocks and against a server that echoes every credential back, with reports', async () => {
    await run([
      'check',
      '--report',
      `json:${path.join(dir, 'mock.json')}`,
      '--report',
      `junit:${path.join(dir, 'mock.xml')}`,
    ]);
    const server = await startFaultServer({ faults: ['echo_secrets', 'secret_in_hook', 'schema'] });
    try {
      const result = await run([
        'check',
        '--base-url',
        server.url,
        '--strict',
        '--report',
        `json:${path.join(dir, 'echo.json')}`,
        '--report',
        `junit:${path.join(dir, 'echo.xml')}`,
      ]);
      expect(result.code).toBe(1);
      // The generated webhook secret reached the server, so the test would see a leak.
      expect(server.secretsSeen.length).toBeGreaterThan(0);
      all.push(...server.secretsSeen);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('check against targets that echo the key in headers, in a body that is not JSON, in an escaped duplicate key', async () => {
    for (const fault of ['echo_in_headers', 'echo_not_json', 'echo_duplicate_key'] as const) {
      const server = await startFaultServer({ faults: [fault, 'echo_secrets', 'schema'] });
      try {
        const name = path.join(dir, `echo-${fault}`);
        const result = await run([
          'check',
          '--api',
          'client-session',
          '--base-url',
          server.url,
          '--strict',
          '--report',
          `json:${name}.json`,
          '--report',
          `junit:${name}.xml`,
        ]);
        expect(result.code, fault).toBe(1);
      } finally {
        await server.close();
      }
    }
  }, 120_000);

  it('check against a target that redirects, with the key in the Location, and with a --base-url carrying a password', async () => {
    const elsewhere = await startFaultServer();
    for (const status of [302, 307]) {
      const server = await startFaultServer({ redirect: { to: elsewhere.url, status } });
      try {
        const result = await run([
          'check',
          '--base-url',
          server.url,
          '--report',
          `json:${path.join(dir, `redirect-${status}.json`)}`,
          '--report',
          `junit:${path.join(dir, `redirect-${status}.xml`)}`,
        ]);
        expect(result.code).toBe(1);
        expect(result.stdout).toContain(
          `redirects to ${elsewhere.url}/client-session?clientToken=[REDACTED]&seen=[REDACTED]`,
        );
      } finally {
        await server.close();
      }
    }
    expect(elsewhere.requests).toEqual([]);
    await elsewhere.close();
    const refused = await run(['check', '--base-url', `http://user:${inUrls.baseUrlPassword}@127.0.0.1:9`]);
    expect(refused.code).toBe(2);
  }, 120_000);

  it('check against a target that cannot be reached, with the client token in the query', async () => {
    const port = await freePort();
    const result = await run([
      'check',
      '--api',
      'client-session',
      '--base-url',
      `http://127.0.0.1:${port}`,
      '--report',
      `json:${path.join(dir, 'down.json')}`,
    ]);
    expect(result.code).toBe(2);
  });

  it('validate, one response and a HAR capture that carry credentials', async () => {
    const body = JSON.stringify({
      paymentMethod: {},
      metadata: { echoed: canaries.CLIENT_SESSION_API_KEY },
      currencyCode: canaries.WEBHOOKS_TOKEN,
    });
    await run(
      [
        'validate',
        '--api',
        'client-session',
        '--operation',
        'retrieveClientSession',
        '--status',
        '200',
        '--header',
        'content-type: application/json',
        '--body',
        '-',
        '--format',
        'json',
      ],
      body,
    );
    const har = path.join(dir, 'capture.har');
    const entry = (url: string, status: number, text: string) => ({
      request: { method: 'GET', url, headers: [{ name: 'X-API-KEY', value: canaries.CLIENT_SESSION_API_KEY }] },
      response: {
        status,
        headers: [
          { name: 'content-type', value: 'application/json' },
          { name: 'X-Hub-Signature-256', value: signature },
        ],
        content: { text },
      },
    });
    await writeFile(
      har,
      JSON.stringify({
        log: {
          entries: [
            entry(
              `https://api.example.com/client-session?clientToken=${canaries.CLIENT_SESSION_CLIENT_TOKEN}`,
              418,
              body,
            ),
            entry(
              `https://api.example.com/repos/o/r/hooks/1/config?token=${webhookSecret}`,
              200,
              JSON.stringify({ secret: webhookSecret }),
            ),
            entry(`https://api.example.com/unknown?key=${canaries.WEBHOOKS_TOKEN}`, 200, '{}'),
          ],
        },
      }),
    );
    const urls = path.join(dir, 'urls.har');
    const query = `client_secret=${inUrls.client_secret}&X-Amz-Signature=${inUrls['X-Amz-Signature']}&refresh_token=${inUrls.refresh_token}&api-key=${inUrls['api-key']}`;
    await writeFile(
      urls,
      JSON.stringify({
        log: {
          entries: [
            entry(`https://admin:${inUrls.userinfo}@api.example.com/client-session?${query}`, 418, body),
            entry(`https://admin:${inUrls.userinfo}@api.example.com/unknown?${query}`, 200, '{}'),
          ],
        },
      }),
    );
    for (const file of [har, urls]) {
      const result = await run(['validate', '--api', 'all', '--har', file, '--format', 'json']);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('[REDACTED]');
      await run(['validate', '--api', 'all', '--har', file]);
    }
    // A body that writes the key with escapes, as a value and as a duplicated key.
    const key = canaries.CLIENT_SESSION_API_KEY;
    const escaped = `\\u0063${json(key.slice(1)).replace(/</g, '\\u003c')}`;
    const echoing = `{"paymentMethod":{},"metadata":{"seen":"${escaped}","${escaped}":1,${JSON.stringify(key)}:2},"currencyCode":"${escaped}"}`;
    for (const format of ['json', 'text']) {
      await run(
        [
          'validate',
          '--api',
          'client-session',
          '--operation',
          'retrieveClientSession',
          '--status',
          '200',
          '--header',
          'content-type: application/json',
          '--body',
          '-',
          '--strict',
          '--format',
          format,
        ],
        echoing,
      );
    }
  }, 120_000);

  it('in every byte written, in any encoding', async () => {
    for (const file of await readdir(dir))
      if (/\.(json|xml)$/.test(file) && file !== 'sessions.json')
        written.push(await readFile(path.join(dir, file), 'utf8'));
    expect(written.length).toBeGreaterThan(30);
    const text = written.join('\n');
    for (const secret of all)
      for (const form of forms(secret))
        expect(text.includes(form), `leaked ${JSON.stringify(form.slice(0, 14))}…`).toBe(false);
    // Each canary ends in characters no encoding changes: whatever form escaped the list above, its tail is caught.
    for (const secret of all)
      expect(text.includes(secret.slice(-6)), `leaked the tail of ${secret.slice(0, 14)}…`).toBe(false);
  });

  it('not even a piece of a canary', () => {
    // A parser message quotes a window of the body (`Unexpected token 'c', "canary"&<\\"...`): the window cannot
    // be redacted, as it holds only part of the key. Issue 11 item 3 (fixed in check-exchange.ts) reports the
    // position instead; until that fix is merged this assertion fails on the echo_not_json run.
    const text = written.join('\n');
    const pieces = [...text.matchAll(/canary/gi)].map((piece) =>
      text.slice(Math.max(0, piece.index - 60), piece.index + 40),
    );
    expect(pieces).toEqual([]);
  });
});
