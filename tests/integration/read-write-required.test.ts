// A 3.0 spec whose User requires a readOnly id and a writeOnly password, judged end to end by `contracts validate
// --har` on both sides of each exchange (real process). OpenAPI 3.0.3 §4.7.24.1.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const spec = 'tests/fixtures/specs/openapi-30/users-read-write.yaml';
const json = [{ name: 'content-type', value: 'application/json' }];

function entry(sent: unknown, answered: unknown) {
  return {
    request: {
      method: 'POST',
      url: 'http://api.test/users',
      headers: json,
      postData: { mimeType: 'application/json', text: JSON.stringify(sent) },
    },
    response: { status: 201, headers: json, content: { mimeType: 'application/json', text: JSON.stringify(answered) } },
  };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-read-write-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('contracts validate --har on a 3.0 spec with required readOnly and writeOnly properties', () => {
  it('passes a create without id and an answer without password, warns of each sent the wrong way, fails a missing id', async () => {
    const har = path.join(dir, 'users.har');
    const entries = [
      entry({ name: 'Ada', password: 's3cret' }, { id: 1, name: 'Ada' }),
      entry({ id: 5, name: 'Ada', password: 's3cret' }, { id: 1, name: 'Ada', password: 's3cret' }),
      entry({ name: 'Ada', password: 's3cret' }, { name: 'Ada' }),
    ];
    await writeFile(har, JSON.stringify({ log: { version: '1.2', entries } }));
    const result = await runCli(['validate', '--spec', spec, '--har', har, '--format', 'json']);
    const report = JSON.parse(result.stdout) as { results: { index: number; findings: unknown[] }[]; summary: object };
    expect(report.results.map((exchange) => [exchange.index, exchange.findings])).toEqual([
      [1, []],
      [
        2,
        [
          {
            check: 'request_body_conformance',
            severity: 'warning',
            operation: 'createUser',
            instancePath: '/id',
            schemaPath: '/components/schemas/User/properties/id/readOnly',
            message: 'request /id is readOnly: OpenAPI 3.0 says it SHOULD NOT be sent in a request',
          },
          {
            check: 'response_schema_conformance',
            severity: 'warning',
            operation: 'createUser',
            instancePath: '/password',
            schemaPath: '/components/schemas/User/properties/password/writeOnly',
            message: '/password is writeOnly: OpenAPI 3.0 says it SHOULD NOT be sent in a response',
          },
        ],
      ],
      [
        3,
        [
          {
            check: 'response_schema_conformance',
            severity: 'error',
            operation: 'createUser',
            instancePath: '',
            schemaPath: '/required',
            message: 'body must have required property "id"',
            actual: '{"name":"Ada"}',
          },
        ],
      ],
    ]);
    expect(report.summary).toEqual({ exchanges: 3, passed: 2, failed: 1, unmatched: 0, invalid: 0 });
    expect(result.code).toBe(1);
  });

  it('prints an exchange that passes with warnings in text, each warning marked !', async () => {
    const har = path.join(dir, 'warned.har');
    const entries = [entry({ id: 5, name: 'Ada', password: 's3cret' }, { id: 1, name: 'Ada' })];
    await writeFile(har, JSON.stringify({ log: { version: '1.2', entries } }));
    const result = await runCli(['validate', '--spec', spec, '--har', har]);
    expect(result.stdout).toContain(
      '#1 POST /users → 201  (createUser)\n    ! request_body_conformance: request /id is readOnly: OpenAPI 3.0 says it SHOULD NOT be sent in a request\n',
    );
    expect(result.code).toBe(0);
  });
});
