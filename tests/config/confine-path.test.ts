// Every path a config names stays inside its project: checked on real files and symlinks, as a command meets them.
import { mkdir, mkdtemp, realpath, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { configBoundary, confinementProblem } from '../../src/config/confine-path.js';
import { readConfig } from '../../src/config/read-config.js';
import { ContractsError } from '../../src/core/errors.js';

let dir: string;
let project: string;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'contracts-confine-')));
  project = path.join(dir, 'project');
  await mkdir(path.join(project, 'specs'), { recursive: true });
  await mkdir(path.join(dir, 'neighbour', 'src'), { recursive: true });
  await writeFile(path.join(project, 'specs', 'a.yaml'), 'openapi: 3.1.0\n');
  await symlink(path.join(dir, 'neighbour'), path.join(project, 'out-link'));
  await symlink(path.join(dir, 'neighbour', 'new-dir'), path.join(project, 'dangling-dir'));
  await symlink(path.join(project, 'specs'), path.join(project, 'in-link'));
});

describe('confinementProblem', () => {
  it.each<[string, { given: string; want: RegExp | undefined }]>([
    ['a file in the project', { given: 'specs/a.yaml', want: undefined }],
    ['a file not written yet in a new folder', { given: 'generated/x/y.ts', want: undefined }],
    ['a symlink that stays inside', { given: 'in-link/a.yaml', want: undefined }],
    ['../ out of the project', { given: '../neighbour/src/main.ts', want: /^leads outside the project/ }],
    ['an absolute path elsewhere', { given: '/etc/passwd', want: /^is an absolute path outside the project/ }],
    ['a symlinked folder out of the project', { given: 'out-link/src/main.ts', want: /^leads outside/ }],
    ['a dangling symlink out of the project', { given: 'dangling-dir/main.ts', want: /^leads outside/ }],
    ['a NUL character', { given: 'specs/a\0.yaml', want: /NUL/ }],
  ])('%s', (_name, { given, want }) => {
    const problem = confinementProblem(given, project, configBoundary(project));
    if (want === undefined) expect(problem).toBeUndefined();
    else expect(problem).toMatch(want);
  });

  it('takes the git repository the config is in as its project, so a config in a subfolder may name ../', async () => {
    const repo = path.join(dir, 'repo');
    await mkdir(path.join(repo, '.git'), { recursive: true });
    await mkdir(path.join(repo, 'tools'), { recursive: true });
    expect(configBoundary(path.join(repo, 'tools'))).toBe(repo);
    expect(confinementProblem('../specs/a.yaml', path.join(repo, 'tools'), repo)).toBeUndefined();
    expect(confinementProblem('../../project/specs/a.yaml', path.join(repo, 'tools'), repo)).toMatch(/outside/);
  });
});

describe('readConfig', () => {
  it.each([
    ['apis[0].spec', 'apis:\n  - name: a\n    spec: ../neighbour/a.yaml\n', 3],
    ['apis[0].generated', 'apis:\n  - name: a\n    spec: specs/a.yaml\n    generated: /tmp/main.ts\n', 4],
    ['apis[0].generated', 'apis:\n  - name: a\n    spec: specs/a.yaml\n    generated: out-link/src/main.ts\n', 4],
    ['refs.roots[1]', 'apis:\n  - name: a\n    spec: specs/a.yaml\nrefs:\n  roots: [specs, ../..]\n', 5],
  ])('refuses %s outside the project in one line at its place', async (field, text, line) => {
    const file = path.join(project, 'contracts.config.yaml');
    await writeFile(file, text);
    let error: unknown;
    try {
      readConfig(file, 'contracts.config.yaml');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ContractsError);
    const message = (error as ContractsError).toLine();
    expect(message).toMatch(
      new RegExp(`^contracts\\.config\\.yaml:${line}:\\d+: ${field.replace(/[[\]]/g, '\\$&')} "`),
    );
    expect(message).not.toContain('\n');
  });
});
