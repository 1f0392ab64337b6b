// validate --har reads a form POST recorded as postData.params (HAR 1.2: params and text are mutually exclusive;
// browsers write params for forms) as the body that was sent. Before, such an entry had no body, and an operation
// that requires one was reported "the required request body is missing" of a request that carried it.
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const spec = `openapi: 3.1.0
info: { title: people, version: "1" }
paths:
  /people:
    post:
      operationId: createPerson
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema: { type: object, required: [name], properties: { name: { type: string } } }
          multipart/form-data:
            schema: { type: object, required: [name], properties: { name: { type: string } } }
      responses: { "201": { description: created } }
`;

const post = (mimeType: string, params: unknown[]) => ({
  request: {
    method: 'POST',
    url: 'http://api.test/people',
    headers: [{ name: 'Content-Type', value: mimeType }],
    queryString: [],
    postData: { mimeType, params },
  },
  response: { status: 201, headers: [], content: { mimeType: 'text/plain', text: '' } },
});

describe('validate --har on postData.params', () => {
  it('judges the form body the params stand for, urlencoded and multipart', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-har-params-'));
    await writeFile(path.join(dir, 'people.yaml'), spec);
    const entries = [
      post('application/x-www-form-urlencoded', [{ name: 'name', value: 'Ann' }]),
      post('multipart/form-data; boundary=x', [{ name: 'name', value: 'Ann' }]),
    ];
    await writeFile(path.join(dir, 'capture.har'), JSON.stringify({ log: { entries } }));
    const { code, stdout, stderr } = await runCli(
      ['validate', '--spec', 'people.yaml', '--har', 'capture.har', '--format', 'json'],
      { cwd: dir },
    );
    const { results } = JSON.parse(stdout) as { results: { findings: unknown[] }[] };
    expect(
      results.map((result) => result.findings),
      stderr,
    ).toEqual([[], []]);
    expect(code).toBe(0);
  });
});
