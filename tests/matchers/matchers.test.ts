// The runner-neutral matchers: what each runner's expect.extend is given ({ pass, message }) for the response shapes
// jest and Playwright tests hold: Playwright's APIResponse (body read through the awaited body()) and a supertest
// response (the Node request it sent says the method and path).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toSatisfyContract } from '../../src/matchers/matchers.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'contracts-matchers-'));
const specFile = path.join(dir, 'inventory.yaml');
writeFileSync(
  specFile,
  `openapi: 3.1.0
info: { title: inventory, version: "1" }
paths:
  /items/{id}:
    get:
      operationId: getItem
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        "200":
          description: an item
          content:
            application/json:
              schema: { type: object, required: [id], properties: { id: { type: integer } } }
`,
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const inventory = { api: 'inventory', spec: specFile };

/** Playwright's APIResponse as the matcher reads it: methods, and a body() Playwright fetches when asked. */
const playwrightResponse = (body: string, url = 'http://127.0.0.1:9/items/7') => ({
  url: () => url,
  status: () => 200,
  headers: () => ({ 'content-type': 'application/json' }),
  body: async () => Buffer.from(body),
  ok: () => true,
});

/** A supertest (superagent) response: raw text, parsed body, mixed-case header names, and the request it sent. */
const supertestResponse = (text: string) => ({
  status: 200,
  headers: { 'Content-Type': 'application/json' },
  text,
  body: JSON.parse(text),
  req: { method: 'GET', path: '/items/7?fields=id' },
});

const wrongId = [
  'expected GET /items/7 → 200 to satisfy the inventory contract (getItem); 1 finding:',
  '  - response_schema_conformance at /id: /id must be integer, not "seven"',
  '      actual:   "seven"',
  '      expected: must be integer, not "seven"',
].join('\n');

describe('toSatisfyContract on the responses jest and Playwright tests hold', () => {
  const cases: [string, { given: unknown; pass: boolean; message: string }][] = [
    [
      'passes a Playwright APIResponse that conforms, matching its operation by path',
      {
        given: playwrightResponse('{"id":7}'),
        pass: true,
        message:
          'expected GET /items/7 → 200 not to satisfy the inventory contract (getItem), but it did (checked: status_code_conformance, content_type_conformance, response_body_wellformed, response_schema_conformance)',
      },
    ],
    [
      'fails a Playwright APIResponse whose body breaks the schema, naming the check',
      { given: playwrightResponse('{"id":"seven"}'), pass: false, message: wrongId },
    ],
    [
      'passes a supertest response that conforms, with the method and path of the request it sent',
      {
        given: supertestResponse('{"id":7}'),
        pass: true,
        message:
          'expected GET /items/7 → 200 not to satisfy the inventory contract (getItem), but it did (checked: status_code_conformance, content_type_conformance, response_body_wellformed, response_schema_conformance)',
      },
    ],
    [
      'fails a supertest response whose body breaks the schema, naming the check',
      { given: supertestResponse('{"id":"seven"}'), pass: false, message: wrongId },
    ],
  ];
  it.each(cases)('%s', async (_name, { given, pass, message }) => {
    const result = await toSatisfyContract(given, inventory);
    expect({ pass: result.pass, message: result.message() }).toEqual({ pass, message });
  });

  it('reports a Playwright body over maxBodyBytes as too large instead of checking it', async () => {
    const result = await toSatisfyContract(playwrightResponse(`{"id":7,"pad":"${'x'.repeat(200)}"}`), {
      ...inventory,
      maxBodyBytes: 100,
    });
    expect(result.pass).toBe(false);
    expect(result.message()).toBe(
      [
        'expected GET /items/7 → 200 to satisfy the inventory contract (getItem); 1 finding:',
        '  - response_body_wellformed: the body is over the 100-byte limit (--max-body): it was not read or checked',
        '      expected: "at most 100 bytes"',
      ].join('\n'),
    );
  });
});
