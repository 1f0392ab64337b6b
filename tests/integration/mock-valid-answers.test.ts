// The README's first flow on a spec of one's own, as a real process: `init`, then `fuzz` without --base-url, which
// fuzzed the embedded Prism mock (now the stateful sandbox by default: these runs ask for Prism). Prism's static mode served "string" for a patterned field of a response without
// an example, and a spec's invalid example as it is: fuzz reported its own mock as broken (13 failures on a correct
// spec). The mock's validating front serves only answers the spec accepts, and Prism still refuses invalid requests.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkExchange } from '../../src/core/check-exchange.js';
import { compileContract } from '../../src/core/compile-contract.js';
import { parseSpec } from '../../src/core/load-spec.js';
import { startMocks } from '../../src/mock/start-mocks.js';
import { freePort } from '../helpers/free-port.js';
import { runCli } from '../helpers/run-cli.js';
import { seedProject } from '../../src/config/seed-project.js';

const spec = `openapi: 3.0.3
info: { title: Orders, version: 1.0.0 }
paths:
  /orders:
    get:
      operationId: listOrders
      parameters:
        - { name: status, in: query, schema: { type: string, enum: [open, closed] } }
      responses:
        '200':
          description: the orders, without an example
          headers:
            X-Request-Id: { required: true, schema: { type: string, pattern: '^req-[0-9a-f]{8}$' } }
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Order' } }
    post:
      operationId: createOrder
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [code]
              properties: { code: { $ref: '#/components/schemas/Code' } }
      responses:
        '201':
          description: created, with a valid example
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Order' }
              example: { id: 7, code: AB-1234, due: '2026-01-31', status: open, lines: [{ sku: X-1, quantity: 2 }] }
  /orders/{id}:
    get:
      operationId: getOrder
      parameters:
        - { name: id, in: path, required: true, schema: { type: integer, minimum: 1 } }
      responses:
        '200':
          description: one order, with an invalid example
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Order' }
              example: { id: 0, code: wrong, due: yesterday, status: lost, lines: [] }
components:
  schemas:
    Code: { type: string, pattern: '^[A-Z]{2}-[0-9]{4}$' }
    Order:
      type: object
      required: [id, code, due, status, lines]
      properties:
        id: { type: integer, minimum: 1 }
        code: { $ref: '#/components/schemas/Code' }
        due: { type: string, format: date }
        status: { type: string, enum: [open, closed] }
        lines:
          type: array
          items:
            type: object
            required: [sku, quantity]
            properties:
              sku: { type: string, pattern: '^[A-Z]-[0-9]+$' }
              quantity: { type: integer, minimum: 1, maximum: 99 }
`;

let project: string;

beforeAll(async () => {
  project = await mkdtemp(path.join(os.tmpdir(), 'contracts-mock-answers-'));
  await writeFile(path.join(project, 'openapi.yaml'), spec);
  const init = await runCli(['init', 'openapi.yaml', '--port', String(await freePort())], { cwd: project });
  expect(init.code, init.stderr).toBe(0);
});

describe("the embedded mock of a user's API (real Prism process)", () => {
  it('gives fuzz nothing to report on a correct spec: no false finding from our own mock', async () => {
    const run = await runCli(
      ['fuzz', '--mock-engine', 'prism', '--max-examples', '5', '--seed', '1', '--report', 'json:fuzz.json'],
      {
        cwd: project,
      },
    );
    const report = JSON.parse(await readFile(path.join(project, 'fuzz.json'), 'utf8')) as {
      results: { operation: string; check: string; status: string }[];
    };
    expect(report.results.filter((result) => result.status !== 'passed')).toEqual([]);
    expect(run.stdout).toMatch(/\b0 failed\b/);
    expect(run.code, run.stdout + run.stderr).toBe(0);
  }, 120_000);

  it('serves answers the spec accepts and still refuses an invalid request', async () => {
    // A seed API's name with the spec above: startMocks serves any spec under it.
    const mocks = await startMocks({
      apis: [seedProject.api('client-session')],
      ports: { 'client-session': 0 },
      specFiles: { 'client-session': path.join(project, 'openapi.yaml') },
    });
    try {
      const url = mocks.mocks[0]!.url;
      const contract = compileContract(parseSpec('openapi.yaml', spec));
      for (const [method, target, body] of [
        ['GET', '/orders', undefined],
        ['GET', '/orders/3', undefined],
        ['POST', '/orders', JSON.stringify({ code: 'AB-1234' })],
      ] as const) {
        const answer = await fetch(url + target, {
          method,
          ...(body ? { body, headers: { 'content-type': 'application/json' } } : {}),
        });
        const exchange = {
          method,
          path: target,
          status: answer.status,
          headers: Object.fromEntries(answer.headers),
          body: await answer.text(),
        };
        expect([exchange.status, checkExchange(contract, exchange).findings]).toEqual([
          method === 'POST' ? 201 : 200,
          [],
        ]);
      }
      const refused = await fetch(`${url}/orders`, {
        method: 'POST',
        body: JSON.stringify({ code: 'string' }),
        headers: { 'content-type': 'application/json' },
      });
      await refused.text();
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.status).toBeLessThan(500);
    } finally {
      await mocks.stop();
    }
  }, 120_000);

  it("reports an operation its mock cannot answer validly as not exercised, never as the API's failure", async () => {
    // No value satisfies this schema: Prism serves one anyway, and the front answers with its own 500 instead.
    const impossible = spec.replace('Code: { type: string,', 'Code: { type: string, minLength: 8,');
    await writeFile(path.join(project, 'impossible.yaml'), impossible);
    const run = await runCli(
      [
        'fuzz',
        '--mock-engine',
        'prism',
        '--spec',
        'orders=impossible.yaml',
        '--max-examples',
        '3',
        '--seed',
        '1',
        '--report',
        'json:impossible.json',
      ],
      { cwd: project },
    );
    const report = JSON.parse(await readFile(path.join(project, 'impossible.json'), 'utf8')) as {
      results: { operation: string; check: string; status: string; reason?: string }[];
    };
    const reason =
      "the mock could not make a valid 200 answer for getOrder: no application/json body its schema accepts was found (Prism's answer: /id must be >= 1, not 0)";
    const unexercised = (check: string) => ({
      api: 'orders',
      operation: 'getOrder',
      check,
      status: 'failed',
      findings: [
        {
          check,
          severity: 'error',
          operation: 'getOrder',
          instancePath: '',
          message: `could not be exercised: ${reason}`,
        },
      ],
      reason,
      durationMs: 0,
    });
    const getOrder = report.results.filter((result) => result.operation === 'getOrder' && result.status !== 'passed');
    expect(getOrder).toEqual(
      ['status_code_conformance', 'positive_data_acceptance', 'response_schema_conformance'].map(unexercised),
    );
    // Nothing any operation got is counted against the API: every result not passed is one not exercised.
    expect(report.results.filter((result) => result.status !== 'passed' && result.reason === undefined)).toEqual([]);
    expect(run.stdout).toMatch(/\b0 failed\b/);
    expect(run.code).toBe(1);
  }, 120_000);
});
