// contracts-response-example: a response media type with a schema and no example is a warning (a mock can only make
// an answer up from the schema); an example on the media type or on its schema, or no schema at all, is not.
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintSpec } from '../../src/lint/lint-spec.js';

const spec = `openapi: 3.1.0
info: { title: t, version: "1", description: d }
servers: [{ url: "https://example.com" }]
tags: [{ name: t, description: d }]
paths:
  /things:
    get:
      operationId: listThings
      summary: s
      description: d
      tags: [t]
      responses:
        "200":
          description: no example anywhere
          content:
            application/json:
              schema: { type: array, items: { type: string, pattern: "^[a-z]+$" } }
        "201":
          description: an example on the media type
          content:
            application/json:
              schema: { type: string }
              example: abc
        "202":
          description: examples on the media type
          content:
            application/json:
              schema: { type: string }
              examples: { one: { value: abc } }
        "203":
          description: an example on the schema it refers to
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Named" }
        "204": { description: no body }
        "206":
          description: a media type without a schema
          content:
            text/plain: {}
        "400": { $ref: "#/components/responses/Problem" }
        "404": { $ref: "#/components/responses/Problem" }
components:
  responses:
    Problem:
      description: shared, without an example
      content:
        application/problem+json:
          schema: { type: object, properties: { title: { type: string } } }
  schemas:
    Named: { type: string, examples: [abc] }
`;

describe('contracts-response-example', () => {
  it('warns at each response media type with a schema and no example, once for a shared response', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-response-example-'));
    await writeFile(path.join(dir, 'spec.yaml'), spec);
    const problems = (await lintSpec(path.join(dir, 'spec.yaml'), 'spec.yaml')).filter(
      (problem) => problem.rule === 'contracts-response-example',
    );
    expect(problems).toEqual([
      {
        file: 'spec.yaml',
        line: 16,
        column: 30,
        severity: 'warning',
        rule: 'contracts-response-example',
        message:
          'response 200 application/json of listThings has a schema but no example: a mock can only make one up from the schema (add `example` or `examples`)',
        path: ['paths', '/things', 'get', 'responses', '200', 'content', 'application/json'],
      },
      {
        file: 'spec.yaml',
        line: 47,
        column: 34,
        severity: 'warning',
        rule: 'contracts-response-example',
        message:
          'response 400 application/problem+json of listThings (components/responses/Problem) has a schema but no example: a mock can only make one up from the schema (add `example` or `examples`)',
        path: ['components', 'responses', 'Problem', 'content', 'application/problem+json'],
      },
    ]);
  });
});
