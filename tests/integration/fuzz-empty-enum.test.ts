// `enum: []` admits no value (JSON Schema 2020-12 §6.1.2). Discord's description has one beside an allOf, and fuzz
// ended there with "internal error: fc.constantFrom expects at least one parameter". The operation that needs such
// a value gets no valid request, said with the reason; the rest of the spec is fuzzed, and nothing crashes.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';
import { scratchProject, type ScratchProject } from '../helpers/user-project.js';

const spec = (kind: string) => `openapi: 3.1.0
info: { title: pets, version: "1" }
paths:
  /pets:
    post:
      operationId: addPet
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [kind]
              properties:
                kind: ${kind}
      responses: { "200": { description: ok }, "400": { description: refused } }
  /ok:
    get:
      operationId: listPets
      responses: { "200": { description: ok } }
`;

interface Result {
  operation: string;
  check: string;
  status: string;
  reason?: string;
}

const cases: [string, string][] = [
  ['an empty enum beside an allOf', '{ allOf: [{ type: string }], enum: [] }'],
  ['an empty enum alone', '{ type: string, enum: [] }'],
  ['an empty enum inside an allOf part', '{ allOf: [{ type: string }, { enum: [] }] }'],
];

describe.each(cases)('fuzz of a spec with %s', (_name, kind) => {
  let project: ScratchProject;
  beforeAll(async () => {
    project = await scratchProject(
      'contracts-empty-enum-',
      { 'pets.yaml': spec(kind), 'contracts.config.yaml': 'apis:\n  - name: pets\n    spec: pets.yaml\n' },
      (request, response) => {
        // A server that refuses every body: what it is sent for addPet breaks the spec anyway.
        request.resume().on('end', () => response.writeHead(request.method === 'POST' ? 400 : 200).end());
      },
    );
  });
  afterAll(() => project.stop());

  it('says no valid request could be made for that operation and fuzzes the others', async () => {
    const { code, output } = await runMain(
      [
        'fuzz',
        '--api',
        'pets',
        '--base-url',
        project.baseUrl,
        '--max-examples',
        '5',
        '--rate',
        '0',
        '--report',
        'json:r.json',
      ],
      project.dir,
    );
    expect(output).not.toContain('internal error');
    expect(code).toBe(1);
    const report = JSON.parse(await readFile(path.join(project.dir, 'r.json'), 'utf8')) as { results: Result[] };
    const addPet = report.results.filter((result) => result.operation === 'addPet' && result.reason !== undefined);
    expect(addPet.map(({ check, status, reason }) => ({ check, status, reason }))).toEqual([
      {
        check: 'status_code_conformance',
        status: 'failed',
        reason: expect.stringMatching(/^no valid request to addPet could be generated \(body\/kind .*\): not tested$/),
      },
      {
        check: 'positive_data_acceptance',
        status: 'failed',
        reason: expect.stringMatching(/^no valid request to addPet could be generated \(body\/kind .*\): not tested$/),
      },
    ]);
    expect(
      report.results
        .filter((result) => result.operation === 'listPets')
        .map(({ check, status }) => ({ check, status })),
    ).toContainEqual({ check: 'status_code_conformance', status: 'passed' });
  }, 60_000);
});
