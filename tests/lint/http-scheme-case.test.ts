// An http security scheme's `scheme` is case-insensitive (RFC 9110 section 11.1): OAI's own examples write `Bearer`.
// swagger-parser's OpenAPI 3.0 schema compares it case-sensitively: 19 errors for a valid spec.
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintSpec } from '../../src/lint/lint-spec.js';

const spec = (extra: string) => `openapi: 3.0.3
info: { title: t, version: "1", description: d }
servers: [{ url: "https://example.com" }]
paths: {}
components:
  securitySchemes:
    bearerAuth:
      type: http
      scheme: Bearer
      bearerFormat: JWT
${extra}`;

async function swaggerParserProblems(text: string) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-bearer-'));
  await writeFile(path.join(dir, 'spec.yaml'), text);
  return (await lintSpec(path.join(dir, 'spec.yaml'), 'spec.yaml')).filter((p) => p.rule === 'swagger-parser');
}

describe('an http security scheme', () => {
  it('may name its scheme in any case', async () => {
    expect(await swaggerParserProblems(spec(''))).toEqual([]);
  });

  it('is still held to the rest of the schema', async () => {
    expect((await swaggerParserProblems(spec('      in: header\n'))).length).toBeGreaterThan(0);
  });
});
