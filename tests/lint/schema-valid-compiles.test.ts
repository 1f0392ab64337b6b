// contracts-schema-valid compiles every schema site to know whether it compiles. Sites whose schemas compile alike
// (the same text, no `$id` on the way: compile-key.ts) are compiled once: Kubernetes' description has 9,861 sites and
// 684 distinct ones, and compiling them all was 10 s of a 35 s lint. The results must be those of compiling each site.
import { describe, expect, it, vi } from 'vitest';
import { compileSpec } from '../../src/core/compile-spec.js';
import { parseSpec } from '../../src/core/load-spec.js';
import { rootSchemaSites } from '../../src/core/schema-sites.js';
import { schemaValidResults } from '../../src/lint/rules/schema-valid.js';

const operation = (schema: string) => `
      parameters:
        - { name: a, in: query, schema: ${schema} }
        - { name: b, in: query, schema: ${schema} }
      responses:
        '200':
          description: ok
          content:
            application/json: { schema: ${schema} }`;

const spec = (schema: string) =>
  parseSpec(
    'spec.yaml',
    `openapi: 3.1.0
info: { title: t, version: "1" }
paths:
  /a:
    get:${operation(schema)}
  /b:
    get:${operation(schema)}
  /c:
    $id: https://example.com/elsewhere
    get: { responses: { '200': { description: ok, content: { text/plain: { schema: { type: string } } } } } }
components:
  schemas:
    Pet: { type: object, properties: { name: { type: string } } }
`,
  );

/** What the rule said before: every site compiled. */
function compiledOneByOne(schema: string) {
  const loaded = spec(schema);
  const compiled = compileSpec(loaded, loaded.document, { optimize: false, unknownKeywords: 'refuse' });
  const messages = new Set<string>();
  for (const site of rootSchemaSites(loaded.document)) {
    try {
      compiled.validatorAt(site.path);
    } catch (error) {
      messages.add((error as { ajvMessage: string }).ajvMessage);
    }
  }
  return messages;
}

describe('contracts-schema-valid compiling each schema site', () => {
  it.each([
    ['a reference', "{ $ref: '#/components/schemas/Pet' }"],
    ['an inline schema', '{ type: string, maxLength: 3 }'],
  ])('compiles %s repeated at many sites once', (_name, schema) => {
    const loaded = spec(schema);
    const compiled = compileSpec(loaded, loaded.document, { optimize: false, unknownKeywords: 'refuse' });
    const validatorAt = vi.spyOn(compiled, 'validatorAt');
    expect(schemaValidResults(compiled)).toEqual([]);
    // Pet itself, the repeated schema once, and the one under a path item with an $id (another base URI).
    expect(validatorAt.mock.calls.map(([path]) => path.join(' '))).toEqual([
      'components schemas Pet',
      'paths /a get parameters 0 schema',
      'paths /c get responses 200 content text/plain schema',
    ]);
    expect(compiledOneByOne(schema)).toEqual(new Set());
  });

  it('reports a schema that does not compile as compiling each site does', () => {
    const schema = "{ $ref: '#/info' }";
    const loaded = spec(schema);
    const compiled = compileSpec(loaded, loaded.document, { optimize: false, unknownKeywords: 'refuse' });
    // Every site compiled again: each failure names its own place (here all say the same, reported once).
    const validatorAt = vi.spyOn(compiled, 'validatorAt');
    expect(schemaValidResults(compiled)).toEqual([
      {
        message: 'schema does not compile: strict mode: unknown keyword: "version"',
        path: ['paths', '/a', 'get', 'parameters', 0, 'schema'],
      },
    ]);
    expect(validatorAt).toHaveBeenCalledTimes(8);
    expect(compiledOneByOne(schema)).toEqual(new Set(['strict mode: unknown keyword: "version"']));
  });
});
