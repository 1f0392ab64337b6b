// Issue #47: a read of an item the store does not hold is answered 404 where the spec documents it. Where the read
// documents no 404 (nor 4XX nor default), an undocumented 404 failed the sandbox's own checks and went out as its
// 500 "no valid answer", so fuzz counted the check as not exercised: the sandbox now answers the operation's
// documented 4xx (410, else 400, else 422, else the lowest other than 401/403/407), with the spec's body.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkExchange } from '../../../src/core/check-exchange.js';
import { loadSpec } from '../../../src/core/load-spec.js';
import { mockRefusal } from '../../../src/core/mock-refusal.js';
import { engineAnswer } from '../../../src/mock/engine/dynamic-answer.js';
import { statefulEngine } from '../../../src/mock/engine/stateful-engine.js';

/** A things API whose read documents `readStatuses` besides 200. */
function spec(readStatuses: string[]): string {
  const refusals = readStatuses
    .map(
      (status) =>
        `        "${status}":\n          description: refused\n          content:\n            application/json:\n              schema: { $ref: "#/components/schemas/Error" }`,
    )
    .join('\n');
  return `openapi: 3.1.0
info: { title: things, version: "1" }
paths:
  /things:
    post:
      operationId: createThing
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/Thing" }
      responses:
        "201":
          description: made
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Thing" }
  /things/{thingId}:
    parameters:
      - { name: thingId, in: path, required: true, schema: { type: string } }
    get:
      operationId: getThing
      responses:
        "200":
          description: the thing
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Thing" }
${refusals}
components:
  schemas:
    Thing:
      type: object
      required: [id, name]
      properties:
        id: { type: string, readOnly: true }
        name: { type: string }
    Error:
      type: object
      required: [message]
      properties:
        message: { type: string }
`;
}

async function missingRead(readStatuses: string[]) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-missing-item-'));
  try {
    await writeFile(path.join(dir, 'things.yaml'), spec(readStatuses));
    const stateful = statefulEngine(await loadSpec(path.join(dir, 'things.yaml')));
    const answer = engineAnswer(stateful, { method: 'GET', path: '/things/nope', query: '', headers: {}, body: '' });
    const judged = checkExchange(stateful.engine.contract, { method: 'GET', path: '/things/nope', ...answer });
    return {
      status: answer.status,
      refusal: mockRefusal(answer),
      errors: judged.findings.filter((finding) => finding.severity === 'error').map((finding) => finding.check),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('the stateful sandbox, reading an item it does not hold', () => {
  it.each([
    { documented: ['404', '400'], status: 404 },
    { documented: ['400', '422'], status: 400 },
    { documented: ['422', '410'], status: 410 },
    { documented: ['401', '403', '429'], status: 429 },
    { documented: ['default'], status: 404 },
  ])('answers a documented status when the read documents $documented', async ({ documented, status }) => {
    expect(await missingRead(documented)).toEqual({ status, refusal: undefined, errors: [] });
  });

  it('answers its own 500 when the read documents no refusal at all, never an undocumented 404', async () => {
    expect(await missingRead(['401'])).toEqual({
      status: 500,
      refusal: expect.stringContaining('the mock could not make a valid answer'),
      errors: ['status_code_conformance'],
    });
  });
});
