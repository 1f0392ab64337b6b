// The user's own checks (apis[].checks, --checks) in a scratch project, through the real CLI: the same module judged
// by check, fuzz, proxy and validate alike, each failure a result of the check's name from source "user check". The
// orders service below always answers what its spec allows; its twin computes the total without the quantities,
// which no spec can say and only the user's check finds.
import { readFile, writeFile } from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnProxy } from '../helpers/proxy.js';
import { runCli } from '../helpers/run-cli.js';
import { onBodyText, scratchProject, type ScratchProject } from '../helpers/user-project.js';

const spec = `openapi: 3.1.0
info: { title: orders, version: "1" }
paths:
  /orders:
    post:
      operationId: createOrder
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/NewOrder" }
            example: { lines: [{ price: 2, quantity: 3 }] }
      responses:
        "201":
          description: Made
          content: { application/json: { schema: { $ref: "#/components/schemas/Order" } } }
        "400": { description: Not an order }
  /orders/{orderId}:
    get:
      operationId: getOrder
      parameters:
        - { name: orderId, in: path, required: true, schema: { type: string, maxLength: 20 } }
      responses:
        "200":
          description: The order
          content: { application/json: { schema: { $ref: "#/components/schemas/Order" } } }
        "404": { description: No such order }
components:
  schemas:
    Line:
      type: object
      required: [price, quantity]
      properties:
        price: { type: integer, minimum: 0, maximum: 1000 }
        quantity: { type: integer, minimum: 1, maximum: 100 }
    NewOrder:
      type: object
      required: [lines]
      properties:
        lines: { type: array, minItems: 1, maxItems: 5, items: { $ref: "#/components/schemas/Line" } }
    Order:
      type: object
      required: [id, lines, total]
      properties:
        id: { type: string, readOnly: true }
        lines: { type: array, items: { $ref: "#/components/schemas/Line" } }
        total: { type: integer }
`;

// TypeScript, as a user writes it (its types erased when loaded): a scoped check and one of every operation.
const checksModule = `type Line = { price: number; quantity: number };
type Order = { lines: Line[]; total: number };

export default {
  total_is_sum: {
    operation: ['POST /orders', 'GET /orders/{orderId}'],
    check({ response }: { response: { status: number; json: Order | undefined } }): string | undefined {
      if (response.status !== 200 && response.status !== 201) return undefined;
      const sum = response.json!.lines.reduce((total: number, line: Line) => total + line.price * line.quantity, 0);
      if (response.json!.total !== sum) return \`total \${response.json!.total} is not the sum of the lines (\${sum})\`;
      return undefined;
    },
  },
};
`;

const isLine = (line: unknown) => {
  const { price, quantity } = (line ?? {}) as Record<string, unknown>;
  return (
    typeof line === 'object' &&
    !Array.isArray(line) &&
    Number.isInteger(price) &&
    (price as number) >= 0 &&
    (price as number) <= 1000 &&
    Number.isInteger(quantity) &&
    (quantity as number) >= 1 &&
    (quantity as number) <= 100
  );
};

/** The orders service; `bug`: the total leaves the quantities out. */
function ordersService(bug: boolean): http.RequestListener {
  const orders = new Map<string, unknown>();
  return onBodyText((text, response, request) => {
    const answer = (status: number, body?: unknown) => {
      response.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
      response.end(body === undefined ? undefined : JSON.stringify(body));
    };
    const url = new URL(request.url ?? '/', 'http://x');
    if (request.method === 'POST' && url.pathname === '/orders') {
      let body: { lines?: unknown } | undefined;
      try {
        body = JSON.parse(text);
      } catch {
        return answer(400);
      }
      const lines = body?.lines;
      if (!/json/.test(request.headers['content-type'] ?? '') || typeof body !== 'object' || body === null)
        return answer(400);
      if (!Array.isArray(lines) || lines.length < 1 || lines.length > 5 || !lines.every(isLine)) return answer(400);
      const typed = lines as { price: number; quantity: number }[];
      const total = typed.reduce((sum, line) => sum + line.price * (bug ? 1 : line.quantity), 0);
      const order = { id: `o${orders.size + 1}`, lines: typed, total };
      orders.set(order.id, order);
      return answer(201, order);
    }
    const match = /^\/orders\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'GET' && match) {
      const order = orders.get(decodeURIComponent(match[1]!));
      return order ? answer(200, order) : answer(404);
    }
    return answer(404);
  });
}

const config = 'apis:\n  - name: orders\n    spec: orders.yaml\n    checks: orders.checks.ts\n';
let right: ScratchProject;
let wrong: ScratchProject;

beforeAll(async () => {
  const files = { 'orders.yaml': spec, 'orders.checks.ts': checksModule, 'contracts.config.yaml': config };
  right = await scratchProject('contracts-user-checks-', files, ordersService(false));
  wrong = await scratchProject('contracts-user-checks-', files, ordersService(true));
});

afterAll(async () => {
  await right?.stop();
  await wrong?.stop();
});

type Result = { operation: string; check: string; status: string; findings: Record<string, unknown>[] };

/** A command's JSON report's results of the user's check. */
async function userResults(project: ScratchProject, args: string[]) {
  const report = path.join(project.dir, `report-${Math.random().toString(36).slice(2)}.json`);
  const result = await runCli([...args, '--report', `json:${report}`], { cwd: project.dir });
  const json = JSON.parse(await readFile(report, 'utf8')) as { results: Result[] };
  const mine = json.results.filter((entry) => entry.check === 'total_is_sum');
  return {
    result,
    results: mine.map(({ operation, check, status, findings }) => ({ operation, check, status, findings })),
  };
}

const passed = (operation: string): Result => ({ operation, check: 'total_is_sum', status: 'passed', findings: [] });

describe("the user's checks from the config (real processes)", () => {
  it('contracts check runs them beside its own: passed on a right service, failed with its message on a wrong one', async () => {
    const good = await userResults(right, ['check', '--base-url', right.baseUrl]);
    expect(good.result.code, good.result.stdout + good.result.stderr).toBe(0);
    expect(good.results).toEqual([passed('createOrder'), passed('getOrder')]);
    const bad = await userResults(wrong, ['check', '--base-url', wrong.baseUrl]);
    expect(bad.result.code, bad.result.stdout + bad.result.stderr).toBe(1);
    // getOrder is answered twice: its own step, and the read after createOrder that check's lifecycle rules send
    // (ensure_resource_availability); the user's check judges both, one finding counted twice.
    expect(bad.results.map(({ operation, status, findings }) => ({ operation, status, findings }))).toEqual(
      (['createOrder', 'getOrder'] as const).map((operation) => ({
        operation,
        status: 'failed',
        findings: [
          {
            check: 'total_is_sum',
            severity: 'error',
            operation,
            instancePath: '',
            message: 'total 2 is not the sum of the lines (6)',
            source: 'user check',
            ...(operation === 'getOrder' ? { count: 2 } : {}),
          },
        ],
      })),
    );
  }, 60_000);

  it('contracts fuzz runs them on every answer to a valid request: the wrong total is found, the right one passes', async () => {
    const args = ['--max-examples', '30', '--seed', '1', '--phases', 'examples,boundaries,random'];
    const good = await userResults(right, ['fuzz', '--base-url', right.baseUrl, ...args]);
    expect(good.results, good.result.stdout + good.result.stderr).toEqual([passed('createOrder'), passed('getOrder')]);
    const bad = await userResults(wrong, ['fuzz', '--base-url', wrong.baseUrl, ...args]);
    expect(bad.result.code, bad.result.stdout + bad.result.stderr).toBe(1);
    const created = bad.results.find((entry) => entry.operation === 'createOrder')!;
    expect(created.status).toBe('failed');
    expect(created.findings[0]).toMatchObject({
      check: 'total_is_sum',
      source: 'user check',
      operation: 'createOrder',
    });
    expect(created.findings[0]!.message).toMatch(/^total \d+ is not the sum of the lines \(\d+\)$/);
  }, 120_000);

  it('contracts validate judges one response by them, and notes a check of another operation as not exercised', async () => {
    const body = path.join(wrong.dir, 'order.json');
    await writeFile(body, JSON.stringify({ id: 'o1', lines: [{ price: 2, quantity: 3 }], total: 2 }));
    const args = ['validate', '--api', 'orders', '--operation', 'createOrder', '--status', '201'];
    const shown = [...args, '--header', 'content-type: application/json', '--body', 'order.json'];
    const text = await runCli(shown, { cwd: wrong.dir });
    expect(text.code, text.stderr).toBe(1);
    expect(text.stdout).toContain('total_is_sum: total 2 is not the sum of the lines (6)');
    const json = await runCli([...shown, '--format', 'json'], { cwd: wrong.dir });
    expect(JSON.parse(json.stdout)).toEqual({
      operation: 'createOrder',
      applied: expect.arrayContaining(['status_code_conformance', 'total_is_sum']),
      findings: [
        {
          check: 'total_is_sum',
          severity: 'error',
          operation: 'createOrder',
          instancePath: '',
          message: 'total 2 is not the sum of the lines (6)',
          source: 'user check',
        },
      ],
      notExercised: [],
    });
  }, 60_000);

  it('contracts proxy judges live traffic by them, and fails a check no exchange exercised', async () => {
    const proxy = await spawnProxy(
      ['--config', path.join(wrong.dir, 'contracts.config.yaml'), '--target', wrong.baseUrl, '--port', '0'],
      'orders',
    );
    const checks = path.join(wrong.dir, 'reads.checks.ts');
    await writeFile(
      checks,
      "export default { read_only: { operation: 'GET /orders/{orderId}', check: () => undefined } };\n",
    );
    const reads = await spawnProxy(
      [
        '--config',
        path.join(wrong.dir, 'contracts.config.yaml'),
        '--checks',
        checks,
        '--target',
        wrong.baseUrl,
        '--port',
        '0',
      ],
      'orders',
    );
    try {
      for (const url of [proxy.url, reads.url]) {
        const answer = await fetch(`${url}/orders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ lines: [{ price: 2, quantity: 3 }] }),
        });
        expect(answer.status).toBe(201);
      }
    } finally {
      const stopped = await proxy.stop();
      const readsStopped = await reads.stop();
      expect(stopped.code, proxy.output.stdout + proxy.output.stderr).toBe(1);
      expect(proxy.output.stdout).toMatch(
        /✗ POST \/orders → 201 \(createOrder\) total_is_sum: total 2 is not the sum of the lines \(6\)/,
      );
      expect(readsStopped.code, reads.output.stdout + reads.output.stderr).toBe(1);
      expect(reads.output.stdout).toContain(
        '✗ read_only (getOrder): could not be exercised: no exchange of its operations was judged',
      );
    }
  }, 60_000);
});

describe('a checks module that cannot be used (real processes)', () => {
  const validate = (project: ScratchProject, extra: string[]) =>
    runCli(
      [
        'validate',
        '--api',
        'orders',
        '--operation',
        'createOrder',
        '--status',
        '201',
        '--header',
        'content-type: application/json',
        '--body',
        'o.json',
        ...extra,
      ],
      { cwd: project.dir },
    );

  it.each([
    ['a file that is not there', 'none.ts', '', 'cannot load the checks none.ts: no such file'],
    [
      'a syntax error',
      'broken.ts',
      'export default { total: () => {\n',
      "cannot load the checks broken.ts: line 2: '}' expected.",
    ],
    [
      'an operation the spec lacks',
      'astray.ts',
      "export default { total: { operation: 'GET /order', check: () => undefined } };\n",
      'cannot load the checks astray.ts: total.operation: GET /order is no operation of the spec (did you mean POST /orders?)',
    ],
  ])(
    'ends the run in one line, exit 2, for %s',
    async (_, file, text, message) => {
      await writeFile(path.join(right.dir, 'o.json'), '{"id":"o1","lines":[],"total":0}');
      if (text) await writeFile(path.join(right.dir, file), text);
      const result = await validate(right, ['--checks', file]);
      expect(result).toEqual({ code: 2, stdout: '', stderr: `contracts validate: ${message}\n` });
    },
    30_000,
  );

  it('reports a check that throws as that check failing, exit 1, with no stack trace', async () => {
    await writeFile(path.join(right.dir, 'o.json'), '{"id":"o1","lines":[],"total":0}');
    await writeFile(
      path.join(right.dir, 'boom.mjs'),
      'export default { boom: ({ response }) => response.json.missing.x };\n',
    );
    const result = await validate(right, ['--checks', 'boom.mjs']);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain(
      "✗ boom: the check itself failed: TypeError: Cannot read properties of undefined (reading 'x')",
    );
    expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /);
  }, 30_000);

  it('refuses a config whose checks lead outside the project', async () => {
    const outside = await scratchProject(
      'contracts-user-checks-',
      { 'orders.yaml': spec, 'contracts.config.yaml': config.replace('orders.checks.ts', '../elsewhere.ts') },
      ordersService(false),
    );
    try {
      await writeFile(path.join(outside.dir, 'o.json'), '{}');
      const result = await validate(outside, []);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /^contracts validate: contracts\.config\.yaml:4:5: apis\[0\]\.checks "\.\.\/elsewhere\.ts" leads outside the project/,
      );
    } finally {
      await outside.stop();
    }
  }, 30_000);
});

describe('validate --har and the user checks (real processes)', () => {
  it("refuses --checks with --har, and says a config API's checks do not run on a capture", async () => {
    const har = path.join(right.dir, 'empty.har');
    await writeFile(
      har,
      JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [] } }),
    );
    const refused = await runCli(
      ['validate', '--api', 'orders', '--har', 'empty.har', '--checks', 'orders.checks.ts'],
      {
        cwd: right.dir,
      },
    );
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'contracts validate: --checks does not go with --har yet: give one response (--status, --body)\n' +
        'Run `contracts validate --help` for usage.\n',
    });
    const noted = await runCli(['validate', '--api', 'orders', '--har', 'empty.har', '--quiet'], { cwd: right.dir });
    expect(noted.stderr).toContain(
      'contracts validate: orders: the checks of orders.checks.ts are not run on a --har capture (yet)',
    );
  }, 60_000);
});
