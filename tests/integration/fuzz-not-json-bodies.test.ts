// A server that parses a JSON body without checking it answers 500 to a body that is not JSON: fuzz with default
// settings sends one (the valid body cut short) and reports the server error, with a curl line that sends that text.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { scratchProject, type ScratchProject } from '../helpers/user-project.js';

const spec = `openapi: 3.1.0
info: { title: pets, version: "1" }
paths:
  /pets:
    post:
      operationId: addPet
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, required: [name], properties: { name: { type: string } } }
      responses: { "200": { description: ok }, "400": { description: refused } }
`;

let project: ScratchProject;

beforeAll(async () => {
  project = await scratchProject(
    'contracts-not-json-',
    { 'pets.yaml': spec, 'contracts.config.yaml': 'apis:\n  - name: pets\n    spec: pets.yaml\n' },
    (request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          return response.writeHead(text === '' ? 400 : 500).end();
        }
        const named =
          body !== null && typeof body === 'object' && typeof (body as { name?: unknown }).name === 'string';
        response.writeHead(named ? 200 : 400).end();
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
  curl: string;
}

describe('fuzz with default settings against a server that breaks on a body that is not JSON', () => {
  it('sends such a body and reports the server error', async () => {
    const { code, stdout } = await runCli(
      ['fuzz', '--api', 'pets', '--base-url', project.baseUrl, '--seed', '1', '--report', 'json:r.json'],
      { cwd: project.dir },
    );
    expect(code, stdout).toBe(1);
    const report = JSON.parse(await readFile(path.join(project.dir, 'r.json'), 'utf8')) as { failures: Failure[] };
    expect(
      report.failures.map(({ check, operation, status, phase, note, curl }) => ({
        check,
        operation,
        status,
        phase,
        note,
        curl,
      })),
    ).toEqual([
      {
        check: 'not_a_server_error',
        operation: 'addPet',
        status: 500,
        phase: 'negative',
        note: 'body: not JSON: the valid body cut short',
        curl: `curl -sS -i -X POST '${project.baseUrl}/pets' -H 'content-type: application/json' --data-raw '{"name":"a"'`,
      },
    ]);
  }, 120_000);
});
