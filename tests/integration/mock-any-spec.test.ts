// `contracts mock` on specs users really have: a webhooks-only spec has nothing to serve (Prism's help text was
// pasted into the error), and a big spec may need longer than a fixed 20 s to start (Stripe's): --start-timeout,
// with a default that grows with the spec.
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';
import { freePort } from '../helpers/free-port.js';

async function mock(spec: string, args: string[]) {
  const project = await mkdtemp(path.join(os.tmpdir(), 'contracts-mock-any-'));
  await writeFile(path.join(project, 'api.yaml'), spec);
  const port = await freePort();
  await writeFile(
    path.join(project, 'contracts.config.yaml'),
    `apis:\n  - name: events\n    spec: api.yaml\n    mockPort: ${port}\n`,
  );
  return runMain(['mock', '--api', 'events', ...args], project);
}

const webhooksOnly = `openapi: 3.1.0
info: { title: events, version: "1" }
webhooks:
  itemCreated:
    post:
      requestBody: { content: { application/json: { schema: { type: object } } } }
      responses: { "200": { description: ok } }
`;
const oneOperation = `openapi: 3.1.0
info: { title: events, version: "1" }
paths:
  /items:
    get:
      responses: { "200": { description: ok } }
`;

describe('contracts mock on any spec', () => {
  it('says a webhooks-only spec has nothing to serve, in one line, exit 2', async () => {
    const result = await mock(webhooksOnly, []);
    expect(result.output).toMatch(
      /^contracts mock: \S*api\.yaml has no operations under paths \(only webhooks, which the API sends rather than serves\): a mock serves operations, so there is nothing to start for events$/m,
    );
    expect(result.output).not.toMatch(/Usage|--help|Options:/);
    expect(result.code).toBe(2);
  });

  it('names --start-timeout when Prism is not up in time', async () => {
    const result = await mock(oneOperation, ['--start-timeout', '0.05']);
    expect(result.output).toMatch(
      /did not answer on http:\/\/127\.0\.0\.1:\d+ within 0\.1 s: a big spec may need longer \(--start-timeout SECONDS\), or serve it without Prism: --engine own$/m,
    );
    expect(result.code).toBe(2);
  }, 30_000);

  it.each(['abc', '0', '1e3', '4000'])('refuses --start-timeout %s in one line', async (value) => {
    const result = await mock(oneOperation, ['--start-timeout', value]);
    expect(result.output).toMatch(/--start-timeout takes a number of seconds from 1 to 3600/);
    expect(result.code).toBe(2);
  });
});
