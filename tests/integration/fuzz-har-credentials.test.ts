// `contracts fuzz --har-out` against a loopback service secured by a bearer token and a session cookie, read back by
// `contracts validate --har` (issue 42, item 18): the capture keeps each credential's shape with its secret redacted
// (`Bearer [REDACTED]`, `sid=[REDACTED]`), so the requests that carried credentials read back as carrying them, and
// no secret is in the file in any encoding.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { securedSpec } from '../helpers/secured-spec.js';

const token = 'har-bearer-token-61f0d2';
const session = 'har-session-cookie-3b9e71';
const env = { CONTRACTS_WIDGETS_TOKEN: token, CONTRACTS_WIDGETS_SESSION: session };

let server: http.Server;
let baseUrl: string;
let dir: string;

beforeAll(async () => {
  // 401 without both credentials; a widget for an id in range; 400 for anything else.
  server = http.createServer((request, response) => {
    request.resume();
    const url = new URL(request.url ?? '/', 'http://service.invalid');
    const id = /^\/widgets\/(\d+)$/.exec(url.pathname)?.[1];
    const signedIn =
      request.headers.authorization === `Bearer ${token}` && (request.headers.cookie ?? '').includes(`sid=${session}`);
    response.setHeader('content-type', 'application/json');
    if (!signedIn) response.writeHead(401).end();
    else if (id === undefined || Number(id) < 1 || Number(id) > 1000) response.writeHead(400).end();
    else response.writeHead(200).end(JSON.stringify({ id: Number(id) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-har-credentials-'));
  await writeFile(
    path.join(dir, 'widgets.json'),
    securedSpec(
      { bearer: { type: 'http', scheme: 'bearer' }, session: { type: 'apiKey', in: 'cookie', name: 'sid' } },
      [{ bearer: [], session: [] }],
    ),
  );
  await writeFile(
    path.join(dir, 'contracts.config.yaml'),
    [
      'apis:',
      '  - name: widgets',
      '    spec: widgets.json',
      '    credentials:',
      '      - { env: CONTRACTS_WIDGETS_TOKEN, securityScheme: bearer }',
      '      - { env: CONTRACTS_WIDGETS_SESSION, securityScheme: session }',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

interface Entry {
  request: { headers: { name: string; value: string }[] };
  _contracts: { request: string };
}
interface Verdict {
  index: number;
  findings: { check: string; message: string }[];
}

/** The secret as a HAR or a report may hold it: as is, base64 (a Basic header), JSON- and percent-encoded. */
const forms = (secret: string) => [
  secret,
  Buffer.from(secret).toString('base64'),
  JSON.stringify(secret).slice(1, -1),
  encodeURIComponent(secret),
];

describe('fuzz --har-out read back by validate --har', () => {
  it('shows the credentials each request carried, their secrets redacted in every form', async () => {
    const har = path.join(dir, 'run.har');
    const fuzz = await runCli(
      ['fuzz', '--api', 'widgets', '--base-url', baseUrl, '--seed', '1', '--max-examples', '5', '--har-out', har],
      { cwd: dir, env },
    );
    expect([0, 1], fuzz.stderr).toContain(fuzz.code);
    const text = await readFile(har, 'utf8');
    for (const secret of [token, session])
      for (const form of forms(secret)) expect(text, `the HAR holds ${form}`).not.toContain(form);
    const entries = (JSON.parse(text) as { log: { entries: Entry[] } }).log.entries;
    const carrying = entries.filter((entry) => entry._contracts.request !== 'no credentials');
    expect(carrying.length).toBeGreaterThan(0);
    for (const entry of carrying) {
      const header = (name: string) =>
        entry.request.headers.find((candidate) => candidate.name.toLowerCase() === name)?.value;
      expect(header('authorization')).toBe('Bearer [REDACTED]');
      expect(header('cookie')).toBe('sid=[REDACTED]');
    }

    const validate = await runCli(['validate', '--api', 'widgets', '--har', har, '--format', 'json'], {
      cwd: dir,
      env: {},
    });
    const verdicts = (JSON.parse(validate.stdout) as { results: Verdict[] }).results;
    const lacking = verdicts.filter((verdict) =>
      verdict.findings.some((finding) => finding.check === 'request_security_conformance'),
    );
    // Only the requests the run sent without credentials on purpose lack them.
    expect(lacking.map((verdict) => entries[verdict.index - 1]?._contracts.request)).toEqual(
      lacking.map(() => 'no credentials'),
    );
    expect(verdicts.length - lacking.length).toBe(carrying.length);
  }, 120_000);
});
