// OpenAPI allows any format (Twilio's phone-number, Discord's snowflake): an unknown one is an annotation, said once
// per format as a warning, and the examples under it are still validated. Before, each was a lint error and
// contracts-example-valid skipped every example beneath it (Twilio: 30 examples, 6 of them invalid, none reported).
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintSpec } from '../../src/lint/lint-spec.js';

const spec = `openapi: 3.1.0
info: { title: t, version: "1", description: d }
servers: [{ url: "https://example.com" }]
tags: [{ name: t, description: d }]
paths: {}
components:
  schemas:
    Phone:
      type: string
      format: phone-number
      maxLength: 16
      example: "+15555550100"
    Caller:
      type: object
      properties:
        from: { type: string, format: phone-number, maxLength: 16, example: "+1555555010012345678" }
        id: { type: string, format: snowflake }
`;

describe('a format ajv does not know', () => {
  it('is one warning per format, and the examples under it are still validated', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-formats-'));
    await writeFile(path.join(dir, 'spec.yaml'), spec);
    const problems = (await lintSpec(path.join(dir, 'spec.yaml'), 'spec.yaml')).filter(
      (problem) => problem.rule !== 'oas3-unused-component',
    );
    expect(problems.filter((problem) => problem.rule === 'contracts-format-unknown')).toMatchObject([
      { severity: 'warning', line: 10, message: expect.stringMatching(/^format "phone-number" has no check here/) },
      { severity: 'warning', line: 17, message: expect.stringMatching(/^format "snowflake" has no check here/) },
    ]);
    expect(problems.filter((problem) => problem.rule === 'contracts-example-valid')).toMatchObject([
      { severity: 'error', line: 16, message: expect.stringMatching(/must NOT have more than 16 characters/) },
    ]);
    expect(problems.filter((problem) => problem.rule === 'contracts-schema-valid')).toEqual([]);
  });
});
