import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileSpec } from '../../src/core/compile-spec.js';
import { ContractsError } from '../../src/core/errors.js';
import { loadSpec, parseSpec } from '../../src/core/load-spec.js';
import { fixture } from '../helpers/paths.js';

const multiFile = fixture('specs', 'openapi-30', 'multi-file.yaml');

describe('a spec in several files', () => {
  it('loads as one document with local references only', async () => {
    const spec = await loadSpec(multiFile);
    expect(JSON.stringify(spec.document)).not.toMatch(/"\$ref":"\.\//);
    const operation = (spec.document.paths?.['/owners/{ownerId}'] as { get: { operationId: string } }).get;
    expect(operation.operationId).toBe('getOwner');
  });

  it('validates with the schemas of the other files, upgraded from 3.0 there too', async () => {
    const compiled = compileSpec(await loadSpec(multiFile));
    const schema = ['paths', '/owners/{ownerId}', 'get', 'responses', '200', 'content', 'application/json', 'schema'];
    expect(compiled.validateAt(schema, { name: 'Ann', pets: 2, nickname: null })).toEqual([]);
    expect(compiled.validateAt(schema, { name: 'Ann', pets: -1 })).not.toEqual([]);
  });

  const refused: [string, { ref: string; message: RegExp }][] = [
    [
      'a file that is not there',
      {
        ref: './nope.yaml#/Owner',
        message: /\$ref "\.\/nope\.yaml#\/Owner" does not resolve: no such file next to the spec/,
      },
    ],
    [
      'a URL (the toolkit fetches nothing)',
      { ref: 'https://example.com/owner.yaml', message: /points to a URL: only files next to the spec are bundled/ },
    ],
    [
      'a pointer the other file does not have',
      { ref: './other.yaml#/Nope', message: /external \$ref could not be bundled: .*Nope/ },
    ],
  ];

  it.each(refused)('refuses a $ref to %s in one line, at the $ref', async (_name, { ref, message }) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-bundle-'));
    await writeFile(path.join(dir, 'other.yaml'), 'Owner:\n  type: object\n');
    const main = path.join(dir, 'main.yaml');
    await writeFile(
      main,
      `openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths: {}\ncomponents:\n  schemas:\n    Owner:\n      $ref: "${ref}"\n`,
    );
    const error = await loadSpec(main, 'main.yaml').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractsError);
    expect((error as ContractsError).code).toBe('SPEC_BROKEN_REF');
    expect((error as ContractsError).message).toMatch(message);
    expect((error as ContractsError).location).toMatchObject({ file: 'main.yaml', line: 7 });
  });

  it('refuses an external $ref in a spec given as text alone (no file to resolve it from)', () => {
    const source =
      'openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths: {}\ncomponents:\n  schemas:\n    Owner:\n      $ref: "./other.yaml"\n';
    expect(() => parseSpec('base.yaml', source)).toThrow(/points outside this file/);
  });
});
