// `init` and `generate` write files into the user's project, and only there: a symlink committed at the path they
// write (a dangling one looks absent) is refused in one line, never followed out of the project; a file they
// replace is replaced whole, by a rename, keeping its permissions.
import { chmod, mkdir, mkdtemp, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const spec = 'openapi: 3.1.0\ninfo: { title: Notes, version: "1" }\npaths: {}\n';

let dir: string;
let project: string;
let outside: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-project-writes-'));
  project = path.join(dir, 'project');
  outside = path.join(dir, 'outside');
  await mkdir(project);
  await mkdir(outside);
  await writeFile(path.join(project, 'openapi.yaml'), spec);
});

describe('contracts init', () => {
  it('refuses a dangling contracts.config.yaml symlink in one line, creating nothing where it points', async () => {
    await symlink(path.join(outside, 'planted.yaml'), path.join(project, 'contracts.config.yaml'));
    const result = await runCli(['init', 'openapi.yaml'], { cwd: project });
    expect(result.stderr).toBe(
      'contracts init: cannot write contracts.config.yaml: it is a symbolic link, and a link may lead outside the project: replace it with a file\n',
    );
    expect(result.code).toBe(2);
    expect(await readdir(outside)).toEqual([]);
  }, 30_000);

  it('refuses --config naming a symlink to a file outside, which it neither reads nor changes', async () => {
    const target = path.join(outside, 'theirs.yaml');
    await writeFile(target, 'apis:\n  - name: theirs\n    spec: x.yaml\n');
    await symlink(target, path.join(project, 'linked.config.yaml'));
    const result = await runCli(['init', 'openapi.yaml', '--config', 'linked.config.yaml'], { cwd: project });
    expect(result.stderr).toMatch(/^contracts init: cannot write linked\.config\.yaml: it is a symbolic link/);
    expect(result.code).toBe(2);
    expect(await readFile(target, 'utf8')).toBe('apis:\n  - name: theirs\n    spec: x.yaml\n');
  }, 30_000);

  it('adds to an existing config by a rename: its permissions stay, and no temporary file is left', async () => {
    const config = path.join(project, 'contracts.config.yaml');
    await writeFile(config, '# mine\napis:\n  - name: other\n    spec: openapi.yaml\n');
    await chmod(config, 0o640);
    const inode = (await stat(config)).ino;
    await writeFile(path.join(project, 'second.yaml'), spec.replace('Notes', 'Second'));
    const result = await runCli(['init', 'second.yaml'], { cwd: project });
    expect(result.code, result.stderr).toBe(0);
    const after = await stat(config);
    expect(after.mode & 0o777).toBe(0o640);
    expect(after.ino).not.toBe(inode);
    expect(await readFile(config, 'utf8')).toMatch(/^# mine\n[\s\S]*name: second/);
    expect((await readdir(project)).sort()).toEqual(['contracts.config.yaml', 'openapi.yaml', 'second.yaml']);
  }, 30_000);
});

describe('contracts generate', () => {
  // Through --out-dir: a path the config names is held to the project before (confine-path.ts).
  it('refuses a generated file that is a symlink out of the project, leaving what it points at', async () => {
    const target = path.join(outside, 'main.ts');
    await writeFile(target, 'export const mine = 1;\n');
    await mkdir(path.join(project, 'types'));
    await symlink(target, path.join(project, 'types', 'notes.ts'));
    await writeFile(path.join(project, 'contracts.config.yaml'), 'apis:\n  - name: notes\n    spec: openapi.yaml\n');
    const result = await runCli(['generate', '--out-dir', 'types'], { cwd: project });
    expect(result.stderr).toMatch(/^contracts generate: cannot write \S*notes\.ts: it is a symbolic link/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.code).toBe(2);
    expect(await readFile(target, 'utf8')).toBe('export const mine = 1;\n');
    expect(await readdir(outside)).toEqual(['main.ts']);
  }, 60_000);
});
