import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileSpec } from '../../src/core/compile-spec.js';
import { ContractsError } from '../../src/core/errors.js';
import { loadSpec, parseSpec } from '../../src/core/load-spec.js';
import { fixture } from '../helpers/paths.js';

const multiFile = fixture('specs', 'openapi-30', 'multi-file.yaml');
const canary = 'CANARY_OUTSIDE_5b1e';

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

  it('refuses an external $ref in a spec given as text alone (no file to resolve it from)', () => {
    const source =
      'openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths: {}\ncomponents:\n  schemas:\n    Owner:\n      $ref: "./other.yaml"\n';
    expect(() => parseSpec('base.yaml', source)).toThrow(/points outside this file/);
  });
});

// The attacker's view: a spec from a pull request names files outside its folder, devices, FIFOs and URLs.
describe('the one resolver reads nothing outside the spec folder', () => {
  let dir: string;
  let specDir: string;
  const mainAt = () => path.join(specDir, 'main.yaml');
  const withRef = (ref: string, where: 'schema' | 'operationId' = 'schema') =>
    writeFile(
      mainAt(),
      'openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths:\n  /a:\n    get:\n' +
        (where === 'operationId' ? `      operationId: { $ref: "${ref}" }\n` : '      operationId: a\n') +
        '      responses: { "200": { description: ok } }\ncomponents:\n  schemas:\n    Owner:\n' +
        (where === 'schema' ? `      $ref: "${ref}"\n` : '      type: object\n'),
    );

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-refs-'));
    specDir = path.join(dir, 'project', 'spec');
    await mkdir(path.join(dir, 'outside'), { recursive: true });
    await mkdir(path.join(specDir, 'schemas'), { recursive: true });
    await writeFile(path.join(dir, 'outside', 'canary.yaml'), `Owner:\n  type: object\n  description: ${canary}\n`);
    await writeFile(path.join(specDir, 'other.yaml'), 'Owner:\n  type: object\n');
    await writeFile(path.join(specDir, 'big.yaml'), `Owner:\n  description: "${'x'.repeat(3000)}"\n`);
    await symlink(path.join(dir, 'outside', 'canary.yaml'), path.join(specDir, 'link-out.yaml'));
    await symlink('/dev/zero', path.join(specDir, 'zero.yaml'));
    await symlink(path.join(specDir, 'other.yaml'), path.join(specDir, 'schemas', 'link-in.yaml'));
    execFileSync('mkfifo', [path.join(specDir, 'fifo.yaml')]);
  });

  const refused: [string, { ref: () => string; message: RegExp; where?: 'operationId' }][] = [
    [
      'a file that is not there',
      { ref: () => './nope.yaml#/Owner', message: /does not resolve: no such file next to the spec/ },
    ],
    [
      'a URL (the toolkit fetches nothing)',
      { ref: () => 'https://example.com/owner.yaml', message: /points to a URL/ },
    ],
    ['a file: URL', { ref: () => `file://${dir}/outside/canary.yaml`, message: /points to a URL/ }],
    ['an absolute path', { ref: () => `${dir}/outside/canary.yaml#/Owner`, message: /is an absolute path/ }],
    ['/proc/self/environ', { ref: () => '/proc/self/environ', message: /is an absolute path/, where: 'operationId' }],
    ['/dev/zero', { ref: () => '/dev/zero', message: /is an absolute path/ }],
    [
      '../ out of the folder',
      { ref: () => '../../outside/canary.yaml#/Owner', message: /leads outside the spec folder/ },
    ],
    ['../ out, percent-encoded', { ref: () => '%2e%2e/%2e%2e/outside/canary.yaml#/Owner', message: /leads outside/ }],
    ['a symlink out of the folder', { ref: () => './link-out.yaml#/Owner', message: /leads outside the spec folder/ }],
    ['a symlink to /dev/zero', { ref: () => './zero.yaml', message: /leads outside the spec folder/ }],
    ['a FIFO', { ref: () => './fifo.yaml#/Owner', message: /is not a regular file/ }],
    ['a directory', { ref: () => './schemas', message: /is a directory/ }],
    ['a pointer the other file does not have', { ref: () => './other.yaml#/Nope', message: /nothing at that pointer/ }],
  ];

  it.each(refused)('refuses a $ref to %s in one line, at the $ref', async (_name, { ref, message, where }) => {
    await withRef(ref(), where);
    const error = await loadSpec(mainAt(), 'main.yaml').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractsError);
    expect((error as ContractsError).code).toBe('SPEC_BROKEN_REF');
    expect((error as ContractsError).message).toMatch(message);
    expect((error as ContractsError).message).not.toContain(canary);
    expect((error as ContractsError).location).toMatchObject({ file: 'main.yaml', line: where ? 6 : 11 });
  });

  it('refuses a file over the size bound, naming the bound', async () => {
    await withRef('./big.yaml#/Owner');
    await expect(loadSpec(mainAt(), 'main.yaml', { maxFileBytes: 1000 })).rejects.toThrow(/over the 1000 bytes limit/);
    await expect(loadSpec(mainAt(), 'main.yaml', { maxFileBytes: 10_000 })).resolves.toBeDefined();
  });

  it('follows a symlink that stays inside the folder', async () => {
    await withRef('./schemas/link-in.yaml#/Owner');
    const spec = await loadSpec(mainAt(), 'main.yaml');
    expect(spec.document.components?.schemas?.Owner).toEqual({ type: 'object' });
  });

  it('reads a folder the config names as a root besides the spec folder', async () => {
    await withRef('../../outside/canary.yaml#/Owner');
    const spec = await loadSpec(mainAt(), 'main.yaml', { roots: [path.join(dir, 'outside')] });
    expect(JSON.stringify(spec.document)).toContain(canary);
  });

  it('leaves a $ref inside example, default, enum and const values as data, reading nothing', async () => {
    const bad = '../../outside/canary.yaml#/Owner';
    await writeFile(
      mainAt(),
      'openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths: {}\ncomponents:\n  schemas:\n    Owner:\n' +
        '      $ref: "./other.yaml#/Owner"\n    Literal:\n      type: object\n' +
        `      example: { $ref: "${bad}" }\n      default: { $ref: "/proc/self/environ" }\n` +
        `      enum: [{ $ref: "/dev/zero" }]\n      const: { $ref: "http://127.0.0.1:9/x" }\n`,
    );
    const spec = await loadSpec(mainAt(), 'main.yaml');
    const literal = spec.document.components?.schemas?.Literal as Record<string, unknown>;
    expect(literal.example).toEqual({ $ref: bad });
    expect(literal.enum).toEqual([{ $ref: '/dev/zero' }]);
    expect(JSON.stringify(spec.document)).not.toContain(canary);
  });

  it('bundles a cycle between two files as local pointers', async () => {
    await writeFile(
      path.join(specDir, 'a.yaml'),
      'A:\n  type: object\n  properties:\n    b: { $ref: "./b.yaml#/B" }\n',
    );
    await writeFile(path.join(specDir, 'b.yaml'), 'B:\n  type: array\n  items: { $ref: "./a.yaml#/A" }\n');
    await withRef('./a.yaml#/A');
    const spec = await loadSpec(mainAt(), 'main.yaml');
    const owner = spec.document.components?.schemas?.Owner as { properties: { b: { items: unknown } } };
    expect(owner.properties.b.items).toEqual({ $ref: '#/components/schemas/Owner' });
  });

  it("rewrites a discriminator mapping's file references to where the schemas were bundled", async () => {
    await writeFile(path.join(specDir, 'cat.yaml'), 'type: object\nproperties:\n  kind: { type: string }\n');
    await writeFile(
      path.join(specDir, 'pet.yaml'),
      'oneOf:\n  - $ref: ./cat.yaml\ndiscriminator:\n  propertyName: kind\n  mapping:\n    cat: ./cat.yaml\n    dog: Dog\n',
    );
    await withRef('./pet.yaml');
    const spec = await loadSpec(mainAt(), 'main.yaml');
    const owner = spec.document.components?.schemas?.Owner as { discriminator: { mapping: Record<string, string> } };
    expect(owner.discriminator.mapping).toEqual({ cat: '#/components/schemas/Owner/oneOf/0', dog: 'Dog' });
  });
});

describe('the root spec file is read bounded', () => {
  it('refuses /dev/zero given as the spec, at the size bound', async () => {
    await expect(loadSpec('/dev/zero', '/dev/zero', { maxFileBytes: 1 << 20 })).rejects.toThrow(
      /spec \/dev\/zero is over the 1 MB limit/,
    );
  });
});
