// A refusal of a bad request is fine, documented or not (src/core/refusal-rule.ts); a refusal status the operation
// does not document is a spec-quality warning, once per operation and status, in the text and JSON reports, and
// the exit code stays 0. Unleash answered 401 on 44 operations and 400 on 33 that document neither.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzProject } from '../helpers/fuzz-project.js';
import { onBodyText, scratchApi, type ScratchProject } from '../helpers/user-project.js';

const body = `
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name]
              properties: { name: { type: string, maxLength: 5 } }`;
const spec = `openapi: 3.1.0
info: { title: pets, version: "1" }
paths:
  /pets:
    post:
      operationId: addPet${body}
      responses: { "200": { description: ok }, "422": { description: never sent } }
  /toys:
    post:
      operationId: addToy${body}
      responses: { "200": { description: ok }, "4XX": { description: refused } }
`;

let project: ScratchProject;

beforeAll(async () => {
  project = await scratchApi(
    'contracts-undocumented-refusals-',
    'pets',
    spec,
    onBodyText((text, response) => {
      let valid = false;
      try {
        const parsed = JSON.parse(text) as { name?: unknown };
        valid =
          parsed !== null &&
          typeof parsed === 'object' &&
          !Array.isArray(parsed) &&
          typeof parsed.name === 'string' &&
          [...parsed.name].length <= 5;
      } catch {}
      response.writeHead(valid ? 200 : 400).end();
    }),
  );
});
afterAll(() => project.stop());

interface Result {
  operation: string;
  check: string;
  status: string;
  findings: { severity: string }[];
}

describe('fuzz of operations whose refusals the spec does not document', () => {
  it('warns once per operation and status, and passes', async () => {
    const { code, stdout, report } = await fuzzProject<{ results: Result[] }>(project, 'pets', ['--rate', '0']);
    expect(code, stdout).toBe(0);
    const warning = '      ! POST /pets answered 400, which the operation does not document (spec quality)';
    expect(stdout.split('\n').filter((line) => line.includes('does not document'))).toEqual([warning]);
    const warnings = report.results.flatMap((result) =>
      result.findings.filter((finding) => finding.severity === 'warning').map((finding) => ({ result, finding })),
    );
    expect(warnings.map(({ result, finding }) => ({ status: result.status, finding }))).toEqual([
      {
        status: 'passed',
        finding: {
          check: 'negative_data_rejection',
          severity: 'warning',
          operation: 'addPet',
          instancePath: '',
          message: 'POST /pets answered 400, which the operation does not document (spec quality)',
          expected: ['200', '422'],
          actual: 400,
        },
      },
    ]);
  }, 120_000);
});
