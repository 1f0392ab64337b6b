// contracts-example-valid judges an example in the direction its place says: a request body's example need not
// carry a required readOnly id, a response's need not carry a required writeOnly password (OpenAPI 3.0.3 §4.7.24.1).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintSpec } from '../../src/lint/lint-spec.js';

const spec = `openapi: 3.0.3
info: { title: t, version: "1", description: d }
servers: [{ url: "https://example.com" }]
tags: [{ name: t, description: d }]
paths:
  /users:
    post:
      operationId: createUser
      tags: [t]
      description: d
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/User" }
            example: { name: Ada, password: s3cret }
      responses:
        "201":
          description: created
          content:
            application/json:
              schema: { $ref: "#/components/schemas/User" }
              examples:
                created: { value: { id: 1, name: Ada } }
                noId: { value: { name: Ada } }
components:
  schemas:
    User:
      type: object
      required: [id, name, password]
      properties:
        id: { type: integer, readOnly: true }
        name: { type: string }
        password: { type: string, writeOnly: true }
      example: { name: Ada, password: s3cret }
`;

describe('examples of a 3.0 schema requiring readOnly and writeOnly properties', () => {
  it('passes a request example without id and a response example without password; a response without id fails', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-read-write-lint-'));
    try {
      await writeFile(path.join(dir, 'spec.yaml'), spec);
      const problems = await lintSpec(path.join(dir, 'spec.yaml'), 'spec.yaml');
      expect(problems.filter((problem) => problem.rule === 'contracts-example-valid')).toEqual([
        {
          file: 'spec.yaml',
          line: 25,
          column: 31,
          severity: 'error',
          rule: 'contracts-example-valid',
          message: 'examples.noId does not match its schema: the example must have required property "id"',
          path: [
            'paths',
            '/users',
            'post',
            'responses',
            '201',
            'content',
            'application/json',
            'examples',
            'noId',
            'value',
          ],
        },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
