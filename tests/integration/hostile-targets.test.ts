// Targets that try to take the credentials elsewhere or to be misreported (issue 11, items 1 and 19), over real
// sockets: a redirect is reported and never followed; headers over the limit and a stalled body say what they are.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultServer, type Fault } from '../helpers/fault-server.js';
import { runCli } from '../helpers/run-cli.js';

const env = {
  CLIENT_SESSION_API_KEY: 'hostile-key-5f2a91',
  CLIENT_SESSION_CLIENT_TOKEN: 'hostile-token-0c7e44',
  WEBHOOKS_TOKEN: 'hostile-bearer-aa19d3',
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-hostile-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Report {
  targets: Record<string, string>;
  results: { api: string; operation: string; check: string; status: string; findings: { message: string }[] }[];
}

/** A server that only counts: any connection to it at all means a request left for another origin. */
async function startCounter(): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  const server = http.createServer((_request, response) => response.end('{}'));
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('a target that redirects elsewhere', () => {
  it.each([302, 307])(
    '%i: nothing reaches the other origin, and the report attributes the redirect to the target with its Location',
    async (status) => {
      const elsewhere = await startCounter();
      const target = await startFaultServer({ redirect: { to: elsewhere.url, status } });
      try {
        const json = path.join(dir, `redirect-${status}.json`);
        const result = await runCli(['check', '--base-url', target.url, '--report', `json:${json}`], { env });
        expect(elsewhere.connections(), 'connections to the other origin').toBe(0);
        expect(result.code, result.stderr).toBe(1);
        const report = JSON.parse(await readFile(json, 'utf8')) as Report;
        expect(report.targets).toEqual({ 'client-session': target.url, 'repository-webhooks': target.url });
        const judged = (operation: string) =>
          report.results.find((r) => r.operation === operation && r.check === 'status_code_conformance');
        // The Location echoed the API key: it is shown, redacted.
        expect(judged('retrieveClientSession')?.status).toBe('failed');
        expect(judged('retrieveClientSession')?.findings[0]?.message).toBe(
          `status ${status} is not documented for retrieveClientSession (documented: 200); it redirects to ${elsewhere.url}/client-session?clientToken=[REDACTED]&seen=[REDACTED] (not followed)`,
        );
        expect(judged('createWebhook')?.findings[0]?.message).toMatch(
          new RegExp(
            `^status ${status} is not documented for createWebhook .*; it redirects to ${elsewhere.url}/repos/octo/app/hooks \\(not followed\\)$`,
          ),
        );
        expect(result.stdout).toContain(`it redirects to ${elsewhere.url}/client-session`);
        expect(result.stdout + result.stderr).not.toContain(env.CLIENT_SESSION_API_KEY);
      } finally {
        await target.close();
        await elsewhere.close();
      }
    },
  );
});

describe('answers that cannot be read say why', () => {
  const cases: [string, { fault: Fault; says: string; never: string }][] = [
    [
      'a 64 KB response header',
      { fault: 'huge_header', says: 'response headers too large (over 16384 bytes', never: 'cannot reach' },
    ],
    [
      'a body that stalls after the headers',
      {
        fault: 'stalled_body',
        says: 'timed out: the response body did not arrive within 1000 ms (--timeout)',
        never: 'the connection broke',
      },
    ],
  ];
  it.each(cases)('%s', async (_name, { fault, says, never }) => {
    const server = await startFaultServer({ faults: [fault] });
    try {
      const started = Date.now();
      const result = await runCli(['check', '--api', 'client-session', '--base-url', server.url, '--timeout', '1000'], {
        env,
      });
      expect(result.stderr).toContain(`${server.url} (GET /client-session)`);
      expect(result.stderr).toContain(says);
      expect(result.stderr).not.toContain(never);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.code).toBe(2);
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      await server.close();
    }
  });
});
