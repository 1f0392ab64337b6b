// The example APIs this package ships (specs/), as this package's own contracts.config.yaml lists them: the project
// the library adapters (sandbox, matchers without a config, startMocks without apis, the receiver without a
// contract) default to. The names live in that file, as data; no code here knows them. The config is read on first
// use, not at import (its first read costs tens of milliseconds, and most commands never need it), and then frozen.
import path from 'node:path';
import { lazyConstant } from '../core/lazy-constant.js';
import { packageRoot } from './package-root.js';
import { type Project, readProject } from './project.js';

/** The package's config: the published package ships it (package.json `files`) for this. */
export const seedConfigFile = path.join(packageRoot, 'contracts.config.yaml');

const seed = lazyConstant(() => readProject({ cwd: packageRoot, file: seedConfigFile }));

/** The shipped example APIs as a Project (their specs in this package's specs/), read from the package's config. */
export const seedProject: Project = Object.freeze({
  get root() {
    return seed().root;
  },
  get configFile() {
    return seed().configFile;
  },
  get apis() {
    return seed().apis;
  },
  get names() {
    return seed().names;
  },
  get lintRules() {
    return seed().lintRules;
  },
  get refs() {
    return seed().refs;
  },
  has: (name: string) => seed().has(name),
  api: (name: string) => seed().api(name),
  select: (value: string) => seed().select(value),
  all: () => seed().all(),
  noApisMessage: () => seed().noApisMessage(),
});
