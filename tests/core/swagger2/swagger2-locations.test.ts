// A Swagger 2.0 document is read as OpenAPI 3.1, and a place in what every command reads is located in the 2.0 file.
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../../src/core/load-spec.js';
import { lintSpec } from '../../../src/lint/lint-spec.js';
import { fixture } from '../../helpers/paths.js';

const pets = fixture('swagger2/pets-2.0.yaml');

describe('a Swagger 2.0 document', () => {
  it('is read as an OpenAPI 3.1 document, its source kept as written', async () => {
    const spec = await loadSpec(pets);
    expect(spec.document.openapi).toBe('3.1.0');
    expect(spec.sourceVersion).toBe('2.0');
    expect(spec.sourceDocument.swagger).toBe('2.0');
    expect(spec.document.servers).toEqual([{ url: 'http://localhost:8080/v1' }]);
  });

  const places: [string, { converted: (string | number)[]; source: (string | number)[]; line: number }][] = [
    [
      'a property of a definition',
      {
        converted: ['components', 'schemas', 'NewPet', 'properties', 'name'],
        source: ['definitions', 'NewPet', 'properties', 'name'],
        line: 114,
      },
    ],
    [
      'the schema of an `in: body` parameter',
      {
        converted: ['paths', '/pets', 'post', 'requestBody', 'content', 'application/json', 'schema'],
        source: ['paths', '/pets', 'post', 'parameters', 0, 'schema'],
        line: 65,
      },
    ],
    [
      'the request body from an `in: body` parameter',
      {
        converted: ['paths', '/pets', 'post', 'requestBody'],
        source: ['paths', '/pets', 'post', 'parameters', 0],
        line: 62,
      },
    ],
    [
      'a form field from an `in: formData` parameter',
      {
        converted: [
          'paths',
          '/pets/{petId}/photo',
          'post',
          'requestBody',
          'content',
          'multipart/form-data',
          'schema',
          'properties',
          'caption',
          'maxLength',
        ],
        source: ['paths', '/pets/{petId}/photo', 'post', 'parameters', 1, 'maxLength'],
        line: 101,
      },
    ],
    [
      "a parameter's schema (its `type` on the 2.0 parameter)",
      {
        converted: ['paths', '/pets/{petId}/photo', 'post', 'parameters', 0, 'schema', 'type'],
        source: ['paths', '/pets/{petId}/photo', 'post', 'parameters', 0, 'type'],
        line: 97,
      },
    ],
    [
      "a response's schema",
      {
        converted: ['components', 'responses', 'NotFound', 'content', 'application/json', 'schema'],
        source: ['responses', 'NotFound', 'schema'],
        line: 30,
      },
    ],
    [
      'a shared parameter',
      {
        converted: ['components', 'parameters', 'Limit', 'schema', 'maximum'],
        source: ['parameters', 'Limit', 'maximum'],
        line: 26,
      },
    ],
    [
      'a security scheme',
      {
        converted: ['components', 'securitySchemes', 'apiKey', 'name'],
        source: ['securityDefinitions', 'apiKey', 'name'],
        line: 17,
      },
    ],
    ['a server', { converted: ['servers', 0, 'url'], source: ['host'], line: 5 }],
  ];

  it.each(places)('locates %s at its 2.0 line', async (_name, { converted, source, line }) => {
    const spec = await loadSpec(pets);
    expect(spec.sourcePath(converted)).toEqual(source);
    expect(spec.locate(converted).line).toBe(line);
  });

  it('lints examples in a definition and in a body parameter at their 2.0 lines', async () => {
    const problems = await lintSpec(fixture('swagger2/bad-examples-2.0.yaml'), 'bad-examples-2.0.yaml');
    const examples = problems.filter((p) => p.rule === 'contracts-example-valid');
    // Spectral hands our results back with every step a string.
    expect(examples.map(({ line, path }) => ({ line, path: path.map(String) }))).toEqual([
      { line: 20, path: ['paths', '/notes', 'post', 'parameters', '0', 'schema', 'properties', 'words', 'example'] },
      { line: 32, path: ['definitions', 'Note', 'properties', 'id', 'example'] },
    ]);
  });
});
