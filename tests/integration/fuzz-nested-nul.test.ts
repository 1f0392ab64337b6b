// A server that breaks on a NUL inside an array item (the Unleash server died on one in an export body, a value the
// run never sent): fuzz with its default settings sends that value there and reports the server error, with the
// field it varied.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { scratchProject, type ScratchProject } from '../helpers/user-project.js';

const spec = `openapi: 3.1.0
info: { title: flags, version: "1" }
paths:
  /export:
    post:
      operationId: exportFeatures
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [environment]
              properties:
                environment: { type: string }
                features:
                  type: array
                  items:
                    type: object
                    required: [name]
                    properties: { name: { type: string } }
      responses: { "200": { description: ok }, "400": { description: not JSON } }
`;

let project: ScratchProject;

beforeAll(async () => {
  project = await scratchProject(
    'contracts-nested-nul-',
    { 'flags.yaml': spec, 'contracts.config.yaml': 'apis:\n  - name: flags\n    spec: flags.yaml\n' },
    (request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => {
        let body: { features?: { name?: unknown }[] };
        try {
          body = JSON.parse(text);
        } catch {
          return response.writeHead(400).end();
        }
        // As a database refusing NUL in text would: only a name inside an array item reaches it.
        const features = Array.isArray(body?.features) ? body.features : [];
        const nul = features.some((item) => typeof item?.name === 'string' && item.name.includes('\u0000'));
        response.writeHead(nul ? 500 : 200).end();
      });
    },
  );
});
afterAll(() => project.stop());

interface Failure {
  check: string;
  operation: string;
  status: number;
  phase: string;
  note: string;
}

describe('fuzz with default settings against a server that breaks on a NUL inside an array item', () => {
  it('sends the NUL there and reports the server error', async () => {
    const { code, stdout } = await runCli(
      ['fuzz', '--api', 'flags', '--base-url', project.baseUrl, '--seed', '1', '--report', 'json:r.json'],
      { cwd: project.dir },
    );
    expect(code, stdout).toBe(1);
    const report = JSON.parse(await readFile(path.join(project.dir, 'r.json'), 'utf8')) as { failures: Failure[] };
    const serverErrors = report.failures
      .filter((failure) => failure.check === 'not_a_server_error')
      .map(({ check, operation, status, phase, note }) => ({ check, operation, status, phase, note }));
    expect(serverErrors[0]).toEqual({
      check: 'not_a_server_error',
      operation: 'exportFeatures',
      status: 500,
      phase: 'boundaries',
      note: 'body/features/0/name = "a\\u0000b"',
    });
  }, 120_000);
});
