// validate --har judges form and multipart request bodies by their schema, fields typed as the schema says (OpenAPI
// 3.1 sections 4.8.14.4, 4.8.14.5, 4.8.15): a browser's form POST with letters for an integer is a finding, the
// same form with a numeral none; a multipart upload whose JSON part breaks its schema is one, a file part is present
// and not judged. Before, every form body passed unread.
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
            schema: { type: object, required: [name], properties: { name: { type: string }, age: { type: integer } } }
          multipart/form-data:
            schema:
              type: object
              required: [meta, photo]
              properties:
                meta: { type: object, required: [name], properties: { name: { type: string } } }
                photo: { type: string, contentMediaType: image/png }
            encoding: { photo: { contentType: image/png } }
      responses: { "201": { description: created } }
`;

const post = (mimeType: string, text: string) => ({
  request: {
    method: 'POST',
    url: 'http://api.test/people',
    headers: [{ name: 'Content-Type', value: mimeType }],
    queryString: [],
    postData: { mimeType, text },
  },
  response: { status: 201, headers: [], content: { mimeType: 'text/plain', text: '' } },
});
const multipart = (meta: string) =>
  post(
    'multipart/form-data; boundary=----b',
    '------b\r\nContent-Disposition: form-data; name="meta"\r\nContent-Type: application/json\r\n\r\n' +
      `${meta}\r\n------b\r\nContent-Disposition: form-data; name="photo"; filename="a.png"\r\n` +
      'Content-Type: image/png\r\n\r\n\uFFFDPNG\r\n\u001a\n\r\n------b--\r\n',
  );

describe('validate --har on form bodies', () => {
  it('finds what breaks the schema in urlencoded and multipart bodies, and nothing in valid ones', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-har-forms-'));
    await writeFile(path.join(dir, 'people.yaml'), spec);
    const entries = [
      post('application/x-www-form-urlencoded', 'name=Ann&age=42'),
      post('application/x-www-form-urlencoded', 'name=Ann&age=abc'),
      multipart('{"name":"Ann"}'),
      multipart('{"name":5}'),
    ];
    await writeFile(path.join(dir, 'capture.har'), JSON.stringify({ log: { entries } }));
    const { code, stdout, stderr } = await runCli(
      ['validate', '--spec', 'people.yaml', '--har', 'capture.har', '--format', 'json'],
      { cwd: dir },
    );
    const { results } = JSON.parse(stdout) as { results: { findings: unknown[] }[] };
    const finding = (instancePath: string, schemaPath: string, message: string) => ({
      check: 'request_body_conformance',
      severity: 'error',
      operation: 'createPerson',
      instancePath,
      schemaPath,
      message,
    });
    expect(
      results.map((result) => result.findings),
      stderr,
    ).toEqual([
      [],
      [finding('/age', '/properties/age/type', 'request /age must be integer')],
      [],
      [finding('/meta/name', '/properties/meta/properties/name/type', 'request /meta/name must be string')],
    ]);
    expect(code).toBe(1);
  });
});
