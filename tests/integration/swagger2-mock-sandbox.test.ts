// A Swagger 2.0 description served (src/core/swagger2/ converts it at load): `contracts sandbox --spec` keeps what a
// create stores and refuses what the description refuses; `contracts mock` (Prism) answers from its schemas. Each a
// real process; every answer judged again by our own checks against the description.
import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkExchange } from '../../src/core/check-exchange.js';
import { compileContract } from '../../src/core/compile-contract.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { root } from '../helpers/paths.js';
import { spawnServer, type ServerProcess } from '../helpers/spawn-server.js';

const specFile = path.join(root, 'tests/fixtures/swagger2/pets-2.0.yaml');
const contract = compileContract(await loadSpec(specFile));
const key = { 'x-api-key': 'any' };
const json = { 'content-type': 'application/json' };

/** Sends one request; the answer with the error findings of our checks on it (judged at `judgedPath`). */
async function exchange(url: string, init: RequestInit, judgedPath: string) {
  const response = await fetch(url, init);
  const text = await response.text();
  const findings = checkExchange(contract, {
    method: init.method ?? 'GET',
    path: judgedPath,
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: text,
  }).findings.filter((finding) => finding.severity === 'error');
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown), findings };
}

describe('contracts sandbox --spec on a Swagger 2.0 description', () => {
  const children: ServerProcess[] = [];
  let base: string;
  beforeAll(async () => {
    const port = await spawnServer(
      ['sandbox', '--spec', specFile, '--port', '0'],
      /statefully at (http:\/\/\S+)/,
      children,
    );
    // basePath /v1 (Swagger 2.0 section "Swagger Object") is the server's base path.
    base = `http://127.0.0.1:${port}/v1`;
  }, 60_000);
  afterAll(() => children.forEach((child) => child.kill('SIGINT')));

  it('creates a pet, reads it back, and answers an unknown one with the documented 404', async () => {
    const created = await exchange(
      `${base}/pets`,
      { method: 'POST', headers: { ...key, ...json }, body: '{"name":"Rex"}' },
      '/pets',
    );
    const read = await exchange(`${base}/pets/1`, { headers: key }, '/pets/1');
    const unknown = await exchange(`${base}/pets/99`, { headers: key }, '/pets/99');
    expect([created, read, unknown]).toEqual([
      { status: 201, body: { name: 'Rex', id: 1 }, findings: [] },
      { status: 200, body: { name: 'Rex', id: 1 }, findings: [] },
      // getPet documents 404 with the Error definition: its required message carries the reason.
      { status: 404, body: { message: 'Pet "99" does not exist' }, findings: [] },
    ]);
  });

  it('refuses a create without its credential (securityDefinitions apiKey) with 401, storing nothing', async () => {
    const refused = await fetch(`${base}/pets`, { method: 'POST', headers: json, body: '{"name":"Tom"}' });
    expect({ status: refused.status, body: await refused.json() }).toEqual({
      status: 401,
      body: {
        type: 'about:blank',
        title: 'Request refused by the spec',
        status: 401,
        detail: 'the request lacks the credential its security requires: header X-Api-Key (scheme apiKey)',
      },
    });
    const state = await (await fetch(`http://${new URL(base).host}/__contracts/state`)).json();
    expect(state).toEqual({ Pet: [{ name: 'Rex', id: 1 }] });
  });
});

describe('contracts mock (Prism) on a Swagger 2.0 description', () => {
  let project: string;
  let child: ReturnType<typeof spawn>;
  let base: string;
  beforeAll(async () => {
    project = await mkdtemp(path.join(os.tmpdir(), 'contracts-swagger2-mock-'));
    await copyFile(specFile, path.join(project, 'pets-2.0.yaml'));
    await writeFile(path.join(project, 'contracts.config.yaml'), 'apis:\n  - name: pets\n    spec: pets-2.0.yaml\n');
    child = spawn(
      process.execPath,
      [path.join(root, 'bin/contracts.js'), 'mock', '--api', 'pets', '--port-pets', '0'],
      {
        cwd: project,
        env: { ...process.env, SCARF_ANALYTICS: 'false' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    base = await new Promise<string>((resolve, reject) => {
      const collect = (chunk: Buffer) => {
        output += chunk.toString();
        const url = /pets\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
        if (url && /Ctrl-C/.test(output)) resolve(url);
      };
      child.stdout!.on('data', collect);
      child.stderr!.on('data', collect);
      child.once('close', () => reject(new Error(`contracts mock exited: ${output}`)));
    });
  }, 90_000);
  afterAll(async () => {
    const closed = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGINT');
    await closed;
    await rm(project, { recursive: true, force: true });
  });

  // Prism routes at the root: it does not serve under the description's basePath (nor a 3.x server's path).
  it('answers a create and a read as the schemas say, and the documented 404 when asked for it', async () => {
    const created = await exchange(
      `${base}/pets`,
      { method: 'POST', headers: { ...key, ...json }, body: '{"name":"Rex"}' },
      '/pets',
    );
    const read = await exchange(`${base}/pets/1`, { headers: key }, '/pets/1');
    const refused = await exchange(`${base}/pets/1`, { headers: { ...key, prefer: 'code=404' } }, '/pets/1');
    expect([created, read, refused].map(({ status, findings }) => ({ status, findings }))).toEqual([
      { status: 201, findings: [] },
      { status: 200, findings: [] },
      { status: 404, findings: [] },
    ]);
    expect(refused.body).toEqual({ message: expect.any(String) });
  });

  it('refuses a create without its credential with 401', async () => {
    const refused = await fetch(`${base}/pets`, { method: 'POST', headers: json, body: '{"name":"Tom"}' });
    expect(refused.status).toBe(401);
  });
});
