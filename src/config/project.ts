// The project a command works on: its config read once (contracts.config.yaml, or the --spec files without one)
// into a frozen value that the CLI passes down. Nothing changes it after it is read; nothing reads a config elsewhere.
import path from 'node:path';
import { ContractsError } from '../core/errors.js';
import { didYouMean } from '../core/did-you-mean.js';
import type { RuleLevels } from '../lint/rule-levels.js';
import { type ApiEntry, type ApiName, specFileEntry, specFileName } from './api-entry.js';
import { findConfigUpwards, readConfig, type Config } from './read-config.js';
import { deepFreeze } from './deep-freeze.js';

export { type ApiEntry, type ApiName, specPath } from './api-entry.js';

export interface Project {
  /** The folder of the config file; without one, the folder the command ran in. */
  readonly root: string;
  /** The config file read (absolute), when there is one. */
  readonly configFile?: string;
  /** The APIs, in the config's order. */
  readonly apis: readonly ApiEntry[];
  /** Their names, in the same order. */
  readonly names: readonly ApiName[];
  /** contracts lint's rule levels from the config (`lint.rules`), for every spec it lints. */
  readonly lintRules: RuleLevels;
  /** What specs' `$ref`s may read, from the config (`refs`); none without a config. */
  readonly refs?: Config['refs'];
  /** Whether the project has an API of this name. */
  has(name: string): boolean;
  /** The API of this name; another name is a usage error naming the choices (and the closest one). */
  api(name: string): ApiEntry;
  /** `all` (every API, at least one) or one API name → the entries; anything else is a usage error. */
  select(value: string): readonly ApiEntry[];
  /** Every API; none is a usage error that says where the config was looked for and how to write one. */
  all(): readonly ApiEntry[];
  /** What to say when a command needs an API and there is none. */
  noApisMessage(): string;
}

export interface ProjectParts {
  root: string;
  configFile?: string;
  apis: readonly ApiEntry[];
  lintRules?: RuleLevels;
  refs?: Config['refs'];
  /** Where a config was looked for and none was found (for noApisMessage). */
  searchedFrom?: string;
}

/** A frozen Project of these APIs. */
export function makeProject(parts: ProjectParts): Project {
  const apis = parts.apis.map((entry) => ({ ...entry }));
  const names = apis.map((entry) => entry.name);
  const byName = new Map(apis.map((entry) => [entry.name, entry]));
  const noApisMessage = () =>
    `${parts.searchedFrom === undefined ? 'the config names no API' : `no contracts.config.yaml in ${parts.searchedFrom} or any folder above it`}: run \`contracts init SPEC\` to write one for your spec, or give --config FILE`;
  const unknown = (name: string, orAll: string) =>
    names.length === 0
      ? new ContractsError('UNKNOWN_API', `no API "${name}": ${noApisMessage()}`)
      : new ContractsError(
          'UNKNOWN_API',
          `unknown API "${name}": choose one of ${names.join(', ')}${orAll}.${didYouMean(name, names)}`,
        );
  const all = () => {
    if (apis.length === 0) throw new ContractsError('UNKNOWN_API', noApisMessage());
    return apis;
  };
  const project: Project = {
    root: parts.root,
    ...(parts.configFile !== undefined && { configFile: parts.configFile }),
    apis,
    names,
    lintRules: parts.lintRules ?? {},
    ...(parts.refs !== undefined && { refs: parts.refs }),
    has: (name) => byName.has(name),
    api: (name) => {
      const entry = byName.get(name);
      if (entry === undefined) throw unknown(name, '');
      return entry;
    },
    select: (value) => {
      if (value === 'all') return all();
      const entry = byName.get(value);
      if (entry === undefined) throw unknown(value, ' or all');
      return [entry];
    },
    all,
    noApisMessage,
  };
  return deepFreeze(project);
}

export interface ReadProjectOptions {
  cwd: string;
  /** --config FILE (relative to cwd); else contracts.config.yaml (or .json) in cwd or the nearest folder above. */
  file?: string | undefined;
  /** Without a config, the spec files the command was given (`--spec [API=]FILE`) are its APIs. */
  specs?: readonly { api: string | undefined; file: string }[];
  /** Told, in one line, of a config found upwards that another user could have put there (it is not used). */
  ignored?: (line: string) => void;
}

/**
 * Reads the project once: the config `file` names, else the one found upwards from `cwd` (one another user could
 * have put there is passed over: read-config.ts). Without a config there are no APIs (the example APIs are this
 * repository's config, not every user's), unless `specs` gives spec files.
 */
export function readProject(options: ReadProjectOptions): Project {
  const file =
    options.file !== undefined
      ? path.resolve(options.cwd, options.file)
      : findConfigUpwards(options.cwd, options.ignored);
  if (file === undefined)
    return makeProject({
      root: path.resolve(options.cwd),
      apis: specFileApis(options.specs ?? [], options.cwd),
      searchedFrom: path.resolve(options.cwd),
    });
  const config = readConfig(file, path.relative(options.cwd, file) || file);
  return makeProject({
    root: config.dir,
    configFile: file,
    apis: config.apis.map((api) => ({ ...api, baseDir: config.dir })),
    lintRules: config.lintRules,
    refs: config.refs,
  });
}

/**
 * The spec files a command was given (`--spec FILE`), each an API named after its file (`petstore.yaml` →
 * petstore), with no credentials and mock ports from 4010: `contracts mock --spec petstore.yaml` works in any
 * folder. `API=FILE` names the API itself.
 */
function specFileApis(specs: readonly { api: string | undefined; file: string }[], cwd: string): ApiEntry[] {
  const names: string[] = [];
  return specs.map(({ api, file }, index) => {
    const name = specFileName(api, file, names);
    names.push(name);
    return specFileEntry(name, file, 4010 + index, cwd);
  });
}
