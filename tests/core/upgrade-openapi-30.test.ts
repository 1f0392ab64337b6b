import { describe, expect, it } from 'vitest';
import { compileSpec } from '../../src/core/compile-spec.js';
import { loadSpec, parseSpec } from '../../src/core/load-spec.js';
import { upgradeOpenApi30 } from '../../src/core/upgrade-openapi-30.js';
import { fixture } from '../helpers/paths.js';

const pets = fixture('specs', 'openapi-30', 'pets.yaml');
const petBase = ['components', 'schemas', 'PetBase'];
const cat = { petType: 'cat', name: 'Tom', weight: 4.5 };

describe('OpenAPI 3.0 documents', () => {
  it('load as OpenAPI 3.1 and keep the version the user wrote', async () => {
    const spec = await loadSpec(pets);
    expect(spec.document.openapi).toBe('3.1.0');
    expect(spec.sourceVersion).toBe('3.0.3');
    expect(spec.sourceDocument.openapi).toBe('3.0.3');
  });

  const cases: [string, { schemaPath: (string | number)[]; value: unknown; valid: boolean }][] = [
    [
      'a nullable: true field accepts null',
      { schemaPath: [...petBase, 'properties', 'nickname'], value: null, valid: true },
    ],
    [
      'a nullable: true field still takes its type',
      { schemaPath: [...petBase, 'properties', 'nickname'], value: 'Tommy', valid: true },
    ],
    [
      'a nullable: true field refuses another type',
      { schemaPath: [...petBase, 'properties', 'nickname'], value: 3, valid: false },
    ],
    [
      'a nullable field without a type (beside allOf) accepts null',
      { schemaPath: [...petBase, 'properties', 'owner'], value: null, valid: true },
    ],
    [
      'a nullable field without a type still applies its allOf',
      { schemaPath: [...petBase, 'properties', 'owner'], value: {}, valid: false },
    ],
    [
      'a field without nullable refuses null',
      { schemaPath: [...petBase, 'properties', 'name'], value: null, valid: false },
    ],
    [
      'exclusiveMinimum: true excludes the bound',
      { schemaPath: [...petBase, 'properties', 'weight'], value: 0, valid: false },
    ],
    [
      'exclusiveMinimum: true allows above the bound',
      { schemaPath: [...petBase, 'properties', 'weight'], value: 0.1, valid: true },
    ],
    [
      'exclusiveMaximum: false includes the bound',
      { schemaPath: [...petBase, 'properties', 'weight'], value: 100, valid: true },
    ],
    [
      'exclusiveMaximum: false keeps the bound',
      { schemaPath: [...petBase, 'properties', 'weight'], value: 100.5, valid: false },
    ],
    ['a discriminated oneOf takes a cat', { schemaPath: ['components', 'schemas', 'Pet'], value: cat, valid: true }],
    [
      'a discriminated oneOf refuses a cat with the weight at the excluded bound',
      { schemaPath: ['components', 'schemas', 'Pet'], value: { ...cat, weight: 0 }, valid: false },
    ],
  ];

  it.each(cases)('%s', async (_name, { schemaPath, value, valid }) => {
    const compiled = compileSpec(await loadSpec(pets));
    expect(compiled.validateAt(schemaPath, value).length === 0).toBe(valid);
  });

  it('turns a binary string (a file upload) into raw content and base64 into an encoding', async () => {
    const { document } = await loadSpec(pets);
    const form = (
      document.paths?.['/pets/{petId}/photo']?.put as {
        requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
      }
    ).requestBody.content['multipart/form-data']!.schema.properties;
    expect(form.photo).toEqual({ type: 'string', contentMediaType: 'application/octet-stream' });
    expect(form.caption).toEqual({ type: 'string', contentEncoding: 'base64' });
  });

  it('keeps every path where the user wrote it, and maps the paths under a wrapped schema back', () => {
    const source = {
      openapi: '3.0.3',
      components: {
        schemas: { A: { nullable: true, properties: { b: { nullable: true, allOf: [{ type: 'string' }] } } } },
      },
    };
    const { document, sourcePath } = upgradeOpenApi30(source);
    expect(document).toEqual({
      openapi: '3.1.0',
      components: {
        schemas: {
          A: {
            anyOf: [
              { properties: { b: { anyOf: [{ allOf: [{ type: 'string' }] }, { type: 'null' }] } } },
              { type: 'null' },
            ],
          },
        },
      },
    });
    expect(source.components.schemas.A.nullable).toBe(true);
    const a = ['components', 'schemas', 'A'];
    expect(sourcePath([...a, 'anyOf', 0, 'properties', 'b', 'anyOf', 0, 'allOf', 0, 'type'])).toEqual([
      ...a,
      'properties',
      'b',
      'allOf',
      0,
      'type',
    ]);
    expect(sourcePath([...a, 'anyOf', 0, 'properties'])).toEqual([...a, 'properties']);
    expect(sourcePath(['openapi'])).toEqual(['openapi']);
  });

  it('locates a path under a wrapped schema on the line the user wrote it', () => {
    const spec = parseSpec(
      'w.yaml',
      'openapi: 3.0.3\ninfo: { title: t, version: "1" }\npaths: {}\ncomponents:\n  schemas:\n    A:\n      nullable: true\n      properties:\n        b:\n          type: string\n',
    );
    expect(spec.locate(['components', 'schemas', 'A', 'anyOf', 0, 'properties', 'b', 'type']).line).toBe(10);
  });
});
