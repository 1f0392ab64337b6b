// The spec's examples kept in one field while the others are generated: a business rule that refuses random values
// ("flexibleRollout" is the one strategy name the server knows) hid a server error behind it from every random
// request; Schemathesis reached two server errors on Unleash that way.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSpec } from '../../src/core/load-spec.js';
import { examplesPhase } from '../../src/fuzz/generate-cases.js';
import { operationModels } from '../../src/fuzz/request-model.js';
import { runCli } from '../helpers/run-cli.js';
import { scratchProject, type ScratchProject } from '../helpers/user-project.js';

const spec = `openapi: 3.1.0
info: { title: flags, version: "1" }
paths:
  /strategies:
    post:
      operationId: addStrategy
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name, rollout]
              properties:
                name: { type: string, example: flexibleRollout }
                rollout: { type: integer }
      responses: { "200": { description: ok }, "400": { description: unknown strategy } }
`;

let project: ScratchProject;

beforeAll(async () => {
  project = await scratchProject(
    'contracts-examples-mixed-',
    { 'flags.yaml': spec, 'contracts.config.yaml': 'apis:\n  - name: flags\n    spec: flags.yaml\n' },
    (request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => {
        let body: { name?: unknown; rollout?: unknown } = {};
        try {
          body = JSON.parse(text);
        } catch {}
        if (body?.name !== 'flexibleRollout') return response.writeHead(400).end();
        // The bug behind the business rule: a rollout past 100 percent.
        response.writeHead(typeof body.rollout === 'number' && body.rollout > 100 ? 500 : 200).end();
      });
    },
  );
});
afterAll(() => project.stop());

describe('examples mixed with generated values', () => {
  it('keeps a body field at its example in the examples phase, the rest at its smallest', () => {
    const loaded = parseSpec('flags.yaml', spec);
    const model = operationModels(loaded)[0]!;
    const cases = examplesPhase({ api: 'flags', document: loaded.document, model });
    expect(cases.map(({ phase, note, intent, request }) => ({ phase, note, intent, request })).slice(1)).toEqual([
      {
        phase: 'examples',
        note: 'body/name = its example "flexibleRollout"',
        intent: 'derive',
        request: { path: {}, query: {}, headers: {}, body: { name: 'flexibleRollout', rollout: 1 } },
      },
    ]);
  });

  it('reaches the server error behind the business rule with default settings', async () => {
    const { code, stdout } = await runCli(
      ['fuzz', '--api', 'flags', '--base-url', project.baseUrl, '--seed', '1', '--report', 'json:r.json'],
      { cwd: project.dir },
    );
    expect(code, stdout).toBe(1);
    const report = JSON.parse(await readFile(path.join(project.dir, 'r.json'), 'utf8')) as {
      failures: { check: string; operation: string; status: number }[];
    };
    expect(
      report.failures
        .filter((failure) => failure.check === 'not_a_server_error')
        .map(({ check, operation, status }) => ({ check, operation, status })),
    ).toEqual([{ check: 'not_a_server_error', operation: 'addStrategy', status: 500 }]);
  }, 120_000);
});
