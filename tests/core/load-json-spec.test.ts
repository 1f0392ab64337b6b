import { describe, expect, it } from 'vitest';
import { ContractsError } from '../../src/core/errors.js';
import { parseSpec } from '../../src/core/load-spec.js';

const json = (paths: string) =>
  `{\n  "openapi": "3.0.3",\n  "info": { "title": "t", "version": "1" },\n  "paths": ${paths}\n}\n`;

describe('a JSON spec', () => {
  it('is parsed as JSON and still located line by line when a message needs it', () => {
    const spec = parseSpec('s.json', json('{\n    "/a": {\n      "get": { "responses": {} }\n    }\n  }'));
    expect(spec.sourceVersion).toBe('3.0.3');
    expect(spec.locate(['paths', '/a', 'get']).line).toBe(6);
  });

  const refused: [string, { source: string; message: RegExp; line: number }][] = [
    [
      'with a duplicate key',
      {
        source: json('{}').replace('"paths": {}', '"paths": {},\n  "paths": {}'),
        message: /Map keys must be unique/,
        line: 5,
      },
    ],
    ['with a syntax error', { source: json('{ "/a": {} ]'), message: /not valid YAML or JSON/, line: 4 }],
  ];

  it.each(refused)('%s is refused at its line, as YAML text would be', (_name, { source, message, line }) => {
    let thrown: unknown;
    try {
      parseSpec('s.json', source);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ContractsError);
    expect((thrown as ContractsError).message).toMatch(message);
    expect((thrown as ContractsError).location?.line).toBe(line);
  });
});
