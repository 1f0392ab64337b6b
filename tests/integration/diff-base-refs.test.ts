// `contracts diff --base REF` on a spec in several files: the base's `$ref`s are read from the same commit, under
// the resolver's rules (inside the spec's folder, no symbolic link followed), never from the working tree.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';

const canary = 'CANARY_GIT_OUTSIDE_33f0';

async function repo(files: Record<string, string>, links: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-diff-base-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
  git('init', '-q');
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  for (const [name, target] of Object.entries(links)) await symlink(target, path.join(dir, name));
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'base');
  return dir;
}

async function diff(cwd: string, args: string[]) {
  return runMain(['diff', ...args], cwd);
}

const main31 = (ref: string) =>
  'openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths:\n  /pets:\n    get:\n      operationId: listPets\n' +
  '      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n' +
  `              schema: { $ref: "${ref}" }\n`;
const pet = (required: string) =>
  `Pet:\n  type: object\n  required: [${required}]\n  properties:\n    id: { type: integer }\n    name: { type: string }\n`;

describe('contracts diff --base on a multi-file spec', () => {
  it('reads the base version of each referenced file from the commit', async () => {
    const dir = await repo({
      'spec/main.yaml': main31('./schemas/pet.yaml#/Pet'),
      'spec/schemas/pet.yaml': pet('id, name'),
    });
    await writeFile(path.join(dir, 'spec/schemas/pet.yaml'), pet('id'));
    const result = await diff(dir, ['--base', 'HEAD', 'spec/main.yaml']);
    expect(result.output).toMatch(/name/);
    expect(result.output).toMatch(/1 breaking/);
    expect(result.code).toBe(1);
  });

  it('refuses a base $ref that leaves the spec folder, reading nothing', async () => {
    const dir = await repo({ 'spec/main.yaml': main31('../outside.yaml#/Pet'), 'outside.yaml': `Pet: ${canary}\n` });
    await writeFile(
      path.join(dir, 'spec/main.yaml'),
      `${main31('#/components/schemas/Pet')}components:\n  schemas:\n    Pet: { type: object }\n`,
    );
    const result = await diff(dir, ['--base', 'HEAD', 'spec/main.yaml']);
    expect(result.output).toMatch(
      /HEAD:spec\/main\.yaml:12:\d+: \$ref "\.\.\/outside\.yaml#\/Pet" leads outside the spec folder/,
    );
    expect(result.output).not.toContain(canary);
    expect(result.code).toBe(2);
  });

  it('does not follow a symbolic link committed in git', async () => {
    const outside = await mkdtemp(path.join(os.tmpdir(), 'contracts-outside-'));
    await writeFile(path.join(outside, 'pet.yaml'), `Pet: ${canary}\n`);
    const dir = await repo(
      { 'spec/main.yaml': main31('./link.yaml#/Pet') },
      { 'spec/link.yaml': path.join(outside, 'pet.yaml') },
    );
    // The working tree's spec names a plain file; only the commit holds the link.
    await rm(path.join(dir, 'spec/link.yaml'));
    await writeFile(path.join(dir, 'spec/link.yaml'), pet('id'));
    const result = await diff(dir, ['--base', 'HEAD', 'spec/main.yaml']);
    expect(result.output).toMatch(/names a file that is a symbolic link in git \(not followed\)/);
    expect(result.output).not.toContain(canary);
    expect(result.code).toBe(2);
  });
});
