// A server that breaks on a NUL inside an array item (the Unleash server died on one in an export body, a value the
// run never sent): fuzz with its default settings sends that value there and reports the server error, with the
// field it varied.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzProject } from '../helpers/fuzz-project.js';
import { onBodyText, scratchApi, type ScratchProject } from '../helpers/user-project.js';

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
  project = await scratchApi(
    'contracts-nested-nul-',
    'flags',
    spec,
    onBodyText((text, response) => {
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
}

describe('fuzz with default settings against a server that breaks on a NUL inside an array item', () => {
  it('sends the NUL there and reports the server error', async () => {
    const { code, stdout, report } = await fuzzProject<{ failures: Failure[] }>(project, 'flags', ['--seed', '1']);
    expect(code, stdout).toBe(1);
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
