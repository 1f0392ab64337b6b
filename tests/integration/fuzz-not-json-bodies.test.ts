// A server that parses a JSON body without checking it answers 500 to a body that is not JSON: fuzz with default
// settings sends one (the valid body cut short) and reports the server error, with a curl line that sends that text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzProject } from '../helpers/fuzz-project.js';
import { onBodyText, scratchApi, type ScratchProject } from '../helpers/user-project.js';

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
  project = await scratchApi(
    'contracts-not-json-',
    'pets',
    spec,
    onBodyText((text, response) => {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return response.writeHead(text === '' ? 400 : 500).end();
      }
      const named = body !== null && typeof body === 'object' && typeof (body as { name?: unknown }).name === 'string';
      response.writeHead(named ? 200 : 400).end();
    }),
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
    const { code, stdout, report } = await fuzzProject<{ failures: Failure[] }>(project, 'pets', ['--seed', '1']);
    expect(code, stdout).toBe(1);
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
