// Every path a config names (an API's spec and generated file, refs.roots) stays in the config's project: a config
// from a pull request that says `generated: ../neighbour/src/main.ts` is refused in one line, and nothing outside
// is read or written.
import { mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const spec = 'openapi: 3.1.0\ninfo: { title: Notes, version: "1" }\npaths: {}\n';
const neighbourMain = 'export const mine = 1;\n';

let dir: string;
let project: string;
let neighbour: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-config-paths-'));
  project = path.join(dir, 'project');
  neighbour = path.join(dir, 'neighbour');
  await mkdir(project);
  await mkdir(path.join(neighbour, 'src'), { recursive: true });
  await writeFile(path.join(neighbour, 'src', 'main.ts'), neighbourMain);
  await writeFile(path.join(neighbour, 'openapi.yaml'), spec);
  await writeFile(path.join(project, 'openapi.yaml'), spec);
  await symlink(neighbour, path.join(project, 'linked'));
});

const generatedOutside: [string, string, RegExp][] = [
  ['../', '../neighbour/src/main.ts', /generated "\.\.\/neighbour\/src\/main\.ts" leads outside the project/],
  ['an absolute path', '', /generated "\/\S+" is an absolute path outside the project/],
  ['a symlinked folder', 'linked/src/main.ts', /generated "linked\/src\/main\.ts" leads outside the project/],
];

describe('a config naming a path outside its project', () => {
  it.each(generatedOutside)(
    'generate refuses generated: %s, in one line, writing nothing there',
    async (_name, value, message) => {
      const generated = value || path.join(neighbour, 'src', 'main.ts');
      await writeFile(
        path.join(project, 'contracts.config.yaml'),
        `apis:\n  - name: notes\n    spec: openapi.yaml\n    generated: ${JSON.stringify(generated)}\n`,
      );
      const result = await runCli(['generate'], { cwd: project });
      expect(result.stderr).toMatch(
        new RegExp(`^contracts generate: contracts\\.config\\.yaml:4:\\d+: apis\\[0\\]\\.${message.source}`),
      );
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.code).toBe(2);
      expect(await readFile(path.join(neighbour, 'src', 'main.ts'), 'utf8')).toBe(neighbourMain);
      expect(await readdir(path.join(neighbour, 'src'))).toEqual(['main.ts']);
    },
    60_000,
  );

  it.each([
    ['spec', 'apis:\n  - name: notes\n    spec: ../neighbour/openapi.yaml\n', 3],
    ['refs.roots', 'apis:\n  - name: notes\n    spec: openapi.yaml\nrefs:\n  roots: [../neighbour]\n', 5],
  ])(
    'lint refuses %s outside the project in one line, exit 2',
    async (_name, text, line) => {
      await writeFile(path.join(project, 'contracts.config.yaml'), text);
      const result = await runCli(['lint', '--api', 'notes'], { cwd: project });
      expect(result.stderr).toMatch(
        new RegExp(
          `^contracts lint: contracts\\.config\\.yaml:${line}:\\d+: \\S+ "\\.\\./neighbour\\S*" leads outside the project`,
        ),
      );
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.code).toBe(2);
    },
    60_000,
  );

  it('init refuses to add a spec outside the project, rather than write a config that cannot be read back', async () => {
    await writeFile(path.join(project, 'contracts.config.yaml'), 'apis:\n  - name: notes\n    spec: openapi.yaml\n');
    const result = await runCli(['init', '../neighbour/openapi.yaml', '--name', 'theirs'], { cwd: project });
    expect(result.stderr).toMatch(/^contracts init: the spec \.\.\/neighbour\/openapi\.yaml leads outside the project/);
    expect(result.code).toBe(2);
    expect(await readFile(path.join(project, 'contracts.config.yaml'), 'utf8')).not.toContain('theirs');
  }, 60_000);
});
