// Tests mirror src/: each folder of src/ has a folder of tests/ of the same name, holding at least one test that
// imports that folder's code directly or through its package entry (contracts-kit/FOLDER): a unit test, not only a
// spawned CLI. Every other folder of tests/ is one of the lanes named here, each with the reason it does not mirror
// a folder of src/.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';

const lanes: Record<string, string> = {
  architecture: 'rules over the whole tree (this file)',
  bench: "the benchmarks' smoke test (bench/ is not under src/)",
  fixtures: 'specs, services and data the tests read',
  github: "GitHub's 13 MB description through every command (the slow lane)",
  helpers: 'code the tests share',
  integration: 'commands as processes over real sockets',
  planted: "the planted-bug services' own tests (they are fixtures, not src/)",
  readme: "the README's and docs' shell blocks, run as written",
  real: 'a real server nobody here wrote (npm run test:real)',
  scripts: 'scripts/ (not under src/)',
  specs: "the example APIs' specs against the seeds",
};

// Folders of src/ whose code only a real runner can load, tested through one in another folder's tests.
const testedElsewhere: Record<string, string> = {
  jest: 'tests/matchers/runner-projects.test.ts runs jest on it in scratch projects',
  playwright: 'tests/matchers/runner-projects.test.ts runs playwright test on it in scratch projects',
};

const folders = (dir: string) => readdirSync(dir).filter((name) => statSync(path.join(root, dir, name)).isDirectory());

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return testFiles(file);
    return name.endsWith('.test.ts') ? [file] : [];
  });
}

describe('tests mirror src/', () => {
  const srcFolders = folders('src');

  it.each(srcFolders.filter((folder) => !(folder in testedElsewhere)))(
    'src/%s has tests/ of its own that import its code',
    (folder) => {
      const dir = path.join(root, 'tests', folder);
      const files = statSync(dir, { throwIfNoEntry: false })?.isDirectory() ? testFiles(dir) : [];
      const importing = files.filter((file) =>
        new RegExp(`src/${folder}/|'contracts-kit/${folder}'`).test(readFileSync(file, 'utf8')),
      );
      expect(
        importing.map((file) => path.relative(root, file)),
        `tests/${folder}/ imports nothing of src/${folder}/`,
      ).not.toEqual([]);
    },
  );

  it('has no folder of tests/ that is neither a folder of src/ nor a named lane', () => {
    const strays = folders('tests').filter((folder) => !srcFolders.includes(folder) && !(folder in lanes));
    expect(strays).toEqual([]);
  });
});
