// The spec's examples kept in one field while the others are generated: a business rule that refuses random values
// ("flexibleRollout" is the one strategy name the server knows) hid a server error behind it from every random
// request; Schemathesis reached two server errors on Unleash that way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSpec } from '../../src/core/load-spec.js';
import { examplesPhase } from '../../src/fuzz/generate-cases.js';
import { operationModels } from '../../src/fuzz/request-model.js';
import { fuzzProject } from '../helpers/fuzz-project.js';
import { onBodyText, scratchApi, type ScratchProject } from '../helpers/user-project.js';

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
  project = await scratchApi(
    'contracts-examples-mixed-',
    'flags',
    spec,
    onBodyText((text, response) => {
      let body: { name?: unknown; rollout?: unknown } = {};
      try {
        body = JSON.parse(text);
      } catch {}
      if (body?.name !== 'flexibleRollout') return response.writeHead(400).end();
      // The bug behind the business rule: a rollout past 100 percent.
      response.writeHead(typeof body.rollout === 'number' && body.rollout > 100 ? 500 : 200).end();
    }),
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
    const { code, stdout, report } = await fuzzProject<{
      failures: { check: string; operation: string; status: number }[];
    }>(project, 'flags', ['--seed', '1']);
    expect(code, stdout).toBe(1);
    expect(
      report.failures
        .filter((failure) => failure.check === 'not_a_server_error')
        .map(({ check, operation, status }) => ({ check, operation, status })),
    ).toEqual([{ check: 'not_a_server_error', operation: 'addStrategy', status: 500 }]);
  }, 120_000);
});
