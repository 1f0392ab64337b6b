// A hostile Swagger 2.0 document cannot hang or crash the converter: cycles stay references, nesting past the bound
// is refused before the converter runs, nesting within it converts in bounded time, and a YAML alias is copied.
import { describe, expect, it } from 'vitest';
import { ContractsError } from '../../../src/core/errors.js';
import { loadSpecText } from '../../../src/core/load-spec.js';
import { maxNestingDepth } from '../../../src/core/nesting-depth.js';
import { fileSystem } from '../../../src/core/resolve-refs.js';

const head = "swagger: '2.0'\ninfo: { title: t, version: '1' }\npaths: {}\n";
const load = (text: string) => loadSpecText('hostile.yaml', 'hostile.yaml', text, fileSystem);

/** A JSON document whose definition nests `depth` objects. */
function nested(depth: number): string {
  let schema: unknown = { type: 'string' };
  for (let i = 0; i < depth; i++) schema = { type: 'object', properties: { a: schema } };
  return JSON.stringify({
    swagger: '2.0',
    info: { title: 't', version: '1' },
    paths: {},
    definitions: { Deep: schema },
  });
}

describe('a hostile Swagger 2.0 document', () => {
  it('with cyclic definitions converts, the cycle kept as references', async () => {
    const spec = await load(
      `${head}definitions:\n  A: { type: object, properties: { b: { $ref: '#/definitions/B' }, self: { $ref: '#/definitions/A' } } }\n` +
        "  B: { type: array, items: { $ref: '#/definitions/A' } }\n",
    );
    expect(spec.document.components?.schemas?.B).toEqual({ type: 'array', items: { $ref: '#/components/schemas/A' } });
  });

  it('nested past the bound is refused before conversion, in one line', async () => {
    const error = await load(nested(maxNestingDepth)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ContractsError);
    expect((error as ContractsError).message).toMatch(/nest/);
  });

  it('nested just within the bound converts within a few seconds', async () => {
    const started = performance.now();
    const spec = await load(nested(Math.floor(maxNestingDepth / 2) - 4));
    expect(spec.document.components?.schemas?.Deep).toBeDefined();
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('with an object a YAML alias shares converts, the object copied', async () => {
    const spec = await load(
      `${head}definitions:\n  A: &shape { type: object, properties: { n: { type: integer } } }\n  B: *shape\n`,
    );
    expect(spec.document.components?.schemas?.B).toEqual(spec.document.components?.schemas?.A);
  });
});
