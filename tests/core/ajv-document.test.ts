// What ajv must not read as schema structure: `$id` and `$anchor` inside example data (Box's description), and a
// `properties` map written as a reference (DigitalOcean's). Each spec below crashed every command that compiles it.
import { describe, expect, it } from 'vitest';
import { compileSpec } from '../../src/core/compile-spec.js';
import { parseSpec } from '../../src/core/load-spec.js';

const spec = (schemas: string) =>
  parseSpec(
    'spec.yaml',
    `openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths: {}\ncomponents:\n  schemas:\n${schemas}`,
  );

describe('the document ajv compiles', () => {
  it('leaves $id, $anchor and $dynamicAnchor inside examples and extensions as data', () => {
    const compiled = compileSpec(
      spec(
        '    File:\n      type: object\n      properties: { id: { type: string } }\n' +
          '      example: { $id: "12345", type: file }\n      x-sample: { $anchor: here }\n' +
          '    Folder:\n      type: object\n      examples: [{ $id: "12345" }]\n      example: { $id: "12345", type: folder }\n' +
          '    Enum:\n      enum: [{ $id: a }, { $dynamicAnchor: b }]\n',
      ),
    );
    expect(compiled.validateAt(['components', 'schemas', 'File'], { id: 'x' })).toEqual([]);
    expect(compiled.validateAt(['components', 'schemas', 'File'], { id: 1 })).not.toEqual([]);
    expect(compiled.validateAt(['components', 'schemas', 'Enum'], { $id: 'a' })).toEqual([]);
    expect(compiled.validateAt(['components', 'schemas', 'Enum'], { $id: 'b' })).not.toEqual([]);
  });

  it('keeps the examples for the example checks: only ajv’s copy loses them', () => {
    const loaded = spec(
      '    File:\n      type: object\n      example: { $id: "1" }\n    Other:\n      example: { $id: "1" }\n',
    );
    compileSpec(loaded);
    expect((loaded.document.components?.schemas?.File as { example: unknown }).example).toEqual({ $id: '1' });
  });

  it('reads components named like keywords (parameters `pattern` and `format`, schemas `example` and `required`)', () => {
    // Vonage's descriptions (nexmo.com) name parameters `pattern` and `format`: ajv's copy dropped them as mistyped
    // keywords, and every $ref to them failed to compile (fuzz ended on the spec's "error").
    const loaded = parseSpec(
      'spec.yaml',
      `openapi: 3.1.0
info: { title: t, version: "1" }
paths:
  /numbers:
    get:
      parameters:
        - $ref: '#/components/parameters/pattern'
        - $ref: '#/components/parameters/format'
      responses:
        "200":
          description: ok
          content: { application/json: { schema: { $ref: '#/components/schemas/example' } } }
components:
  parameters:
    pattern: { name: pattern, in: query, required: false, schema: { type: string, maxLength: 3 } }
    format: { name: format, in: query, schema: { type: string, enum: [json, xml] } }
  schemas:
    example: { type: object, required: [id], properties: { id: { type: string } } }
    required: { type: integer }
`,
    );
    const compiled = compileSpec(loaded);
    const at = (...path: string[]) => ['components', ...path];
    expect(compiled.validateAt(at('parameters', 'pattern', 'schema'), 'abc')).toEqual([]);
    expect(compiled.validateAt(at('parameters', 'pattern', 'schema'), 'abcd')).not.toEqual([]);
    expect(compiled.validateAt(at('parameters', 'format', 'schema'), 'yaml')).not.toEqual([]);
    expect(compiled.validateAt(at('schemas', 'example'), {})).not.toEqual([]);
    expect(compiled.validateAt(at('schemas', 'required'), 'one')).not.toEqual([]);
  });

  it('reads properties written as a reference to a map of properties', () => {
    const compiled = compileSpec(
      spec(
        '    Droplet:\n      type: object\n      required: [id]\n      properties: { $ref: "#/components/schemas/DropletProps" }\n' +
          '    DropletProps:\n      id: { type: integer }\n      name: { type: string }\n',
      ),
    );
    expect(compiled.validateAt(['components', 'schemas', 'Droplet'], { id: 1, name: 'a' })).toEqual([]);
    expect(compiled.validateAt(['components', 'schemas', 'Droplet'], { id: 'one' })).not.toEqual([]);
  });

  // Codat's 3.1 descriptions write `{ $ref, nullable: true }`: ajv refused the whole spec ("nullable" cannot be used
  // without "type"). A property named nullable is a property, not the keyword.
  it('compiles a 3.1 schema with nullable and no type, and keeps a property named nullable', () => {
    const compiled = compileSpec(
      spec(
        '    Order:\n      type: object\n      required: [nullable]\n      properties:\n' +
          '        customer: { $ref: "#/components/schemas/Customer", nullable: true }\n' +
          '        nullable: { type: boolean }\n' +
          '    Customer:\n      type: object\n      properties: { id: { type: string } }\n',
      ),
    );
    expect(compiled.validateAt(['components', 'schemas', 'Order'], { nullable: true, customer: { id: 'a' } })).toEqual(
      [],
    );
    expect(compiled.validateAt(['components', 'schemas', 'Order'], { customer: { id: 'a' } })).not.toEqual([]);
    expect(
      compiled.validateAt(['components', 'schemas', 'Order'], { nullable: true, customer: { id: 1 } }),
    ).not.toEqual([]);
  });

  // Akeneo's description has an `x-1.7` extension in a schema: ajv refused the name and lint and fuzz ended.
  it('compiles a schema with an extension whose name ajv would refuse', () => {
    const compiled = compileSpec(
      spec(
        '    Product:\n      type: object\n      x-1.7: { since: "1.7" }\n      properties: { id: { type: string } }\n',
      ),
    );
    expect(compiled.validateAt(['components', 'schemas', 'Product'], { id: 'a' })).toEqual([]);
    expect(compiled.validateAt(['components', 'schemas', 'Product'], { id: 1 })).not.toEqual([]);
  });

  it('compiles a schema with a keyword value ajv refuses (api.video: pattern 0), and keeps the rest of it', () => {
    const compiled = compileSpec(
      spec(
        '    Link:\n      type: object\n      required: [rel]\n      properties:\n' +
          '        rel: { type: string, pattern: 0, maxLength: "3" }\n' +
          '        href: { type: string, required: true }\n' +
          '        pattern: { type: string }\n',
      ),
    );
    const at = ['components', 'schemas', 'Link'];
    expect(compiled.validateAt(at, { rel: 'self-and-more', href: 'x', pattern: 'p' })).toEqual([]);
    expect(compiled.validateAt(at, { rel: 1 }).map((error) => error.message)).toEqual(['/rel must be string']);
    expect(compiled.validateAt(at, { rel: 'a', pattern: 1 })).not.toEqual([]);
    expect(compiled.validateAt(at, {})).not.toEqual([]);
  });

  it("keeps a parameter's and a request body's own boolean required", () => {
    const loaded = parseSpec(
      'spec.yaml',
      'openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths:\n  /x:\n    post:\n' +
        '      parameters: [{ name: q, in: query, required: true, schema: { type: string } }]\n' +
        '      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [a] } } } }\n' +
        '      responses: { "200": { description: ok } }\n',
    );
    const compiled = compileSpec(loaded);
    const body = ['paths', '/x', 'post', 'requestBody', 'content', 'application/json', 'schema'];
    expect(compiled.validateAt(body, {})).not.toEqual([]);
    expect(compiled.validateAt(body, { a: 1 })).toEqual([]);
  });
});
