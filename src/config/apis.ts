// The APIs the toolkit works on: one manifest that the CLI, the generator and the mocks read. Its source of truth
// is contracts.config.yaml (read-config.ts); the CLI calls useConfig() before a command runs. Until then (and for
// the library adapters: sandbox, vitest matchers) it holds the seed APIs, as the shipped config does.
import path from 'node:path';
import { findConfigUpwards, readConfig, type ConfigCredential } from './read-config.js';
import { ContractsError } from '../core/errors.js';
import { setRefPolicy } from '../core/load-spec.js';
import { packageRoot } from './package-root.js';
import { specFileName } from './api-entry.js';
import type { RuleLevels } from '../lint/rule-levels.js';
import { exampleConvention, type DeliveryConvention } from '../core/delivery/delivery-convention.js';

/** This package's directory: the repository in a checkout, node_modules/… once installed. */
export const projectRoot = packageRoot;

export interface ApiEntry {
  /** Name used on the command line (`--api client-session`). */
  name: ApiName;
  /** The Swagger 2.0 or OpenAPI 3.x document, relative to `baseDir`. */
  spec: string;
  /** The openapi-typescript output, relative to `baseDir`. */
  generated: string;
  /** Port of the Prism mock by default. */
  mockPort: number;
  /** Which environment variable feeds which header, query parameter or security scheme. */
  credentials: ConfigCredential[];
  /** contracts fuzz's operation filters from the config (`exclude-path: [...]`…). */
  fuzz?: Record<string, string[]>;
  /** contracts lint's rule levels for this API's spec, over the config's (`apis[].lint.rules`). */
  lintRules?: RuleLevels;
  /** How its webhook deliveries are told apart and signed (`apis[].webhooks`), when the config says. */
  webhooks?: DeliveryConvention;
  /** contracts sandbox --api's settings (`apis[].sandbox.hooks`: its hooks module, relative to `baseDir`). */
  sandbox?: { hooks?: string };
  /** The API's own checks (`apis[].checks`): a module relative to `baseDir`. */
  checks?: string;
  /** The directory `spec` and `generated` are relative to: the config file's (the project root by default). */
  baseDir: string;
}

/** The seed APIs: their check sequences, sandbox and placement rule key on these names. */
export const seedApiNames = ['client-session', 'repository-webhooks'] as const;

// The names come from the config at run time. The type stays the seed names, so tables keyed on them (check
// sequences, the sandbox) still type-check; code that is specific to the seeds asks isSeedApi() first.
export const apiNames: readonly ApiName[] = [...seedApiNames];
export type ApiName = (typeof seedApiNames)[number];

const seedApis: ApiEntry[] = [
  {
    name: 'client-session',
    spec: 'specs/client-session.yaml',
    generated: 'generated/client-session.ts',
    mockPort: 4010,
    credentials: [
      { env: 'CLIENT_SESSION_API_KEY', securityScheme: 'apiKey' },
      { env: 'CLIENT_SESSION_CLIENT_TOKEN', query: 'clientToken' },
    ],
    baseDir: projectRoot,
  },
  {
    name: 'repository-webhooks',
    spec: 'specs/repository-webhooks.yaml',
    generated: 'generated/repository-webhooks.ts',
    mockPort: 4011,
    credentials: [{ env: 'WEBHOOKS_TOKEN', header: 'Authorization', prefix: 'Bearer ' }],
    webhooks: exampleConvention,
    baseDir: projectRoot,
  },
];

export const apis = Object.fromEntries(seedApis.map((entry) => [entry.name, entry])) as Record<ApiName, ApiEntry>;

/**
 * Makes the APIs those of a config file: `file` (from --config), else contracts.config.yaml (or .json) in `cwd` or
 * the nearest folder above it, as the user's repository has it. Returns the file read, or undefined when there is
 * none: then there are no APIs (the seed APIs are this repository's own config, not every user's).
 */
export function useConfig(options: {
  cwd: string;
  file?: string | undefined;
  /** Told, in one line, of a config found upwards that another user could have put there (it is not used). */
  ignored?: (line: string) => void;
}): string | undefined {
  const file =
    options.file !== undefined
      ? path.resolve(options.cwd, options.file)
      : findConfigUpwards(options.cwd, options.ignored);
  const config = file === undefined ? undefined : readConfig(file, path.relative(options.cwd, file) || file);
  if (config) setRefPolicy(config.refs);
  configSearch = file === undefined ? path.resolve(options.cwd) : undefined;
  lintRulesInUse = config?.lintRules ?? {};
  const names = apiNames as ApiName[];
  names.splice(0, names.length, ...((config?.apis ?? []).map((api) => api.name) as ApiName[]));
  for (const name of Object.keys(apis)) delete (apis as Record<string, ApiEntry>)[name];
  for (const api of config?.apis ?? [])
    (apis as Record<string, ApiEntry>)[api.name] = { ...api, name: api.name as ApiName, baseDir: config!.dir };
  return file;
}

/**
 * Without a config, the spec files a command was given (`--spec FILE`) are its APIs, each named after its file
 * (`petstore.yaml` → petstore), with no credentials and mock ports from 4010: `contracts mock --spec petstore.yaml`
 * works in any folder. `API=FILE` names the API itself.
 */
export function useSpecFiles(specs: readonly { api: string | undefined; file: string }[], cwd: string): void {
  const names = apiNames as ApiName[];
  for (const [index, { api, file }] of specs.entries()) {
    const name = specFileName(api, file, names);
    names.push(name as ApiName);
    (apis as Record<string, ApiEntry>)[name] = {
      name: name as ApiName,
      spec: path.resolve(cwd, file),
      generated: path.join('generated', `${name}.ts`),
      mockPort: 4010 + index,
      credentials: [],
      baseDir: path.resolve(cwd),
    };
  }
}

let lintRulesInUse: RuleLevels = {};

/** contracts lint's rule levels from the config in use (`lint.rules`), for every spec it lints. */
export function configLintRules(): RuleLevels {
  return lintRulesInUse;
}

/** Where useConfig looked for a config and found none (undefined when it found one, or never looked). */
let configSearch: string | undefined;

/** What to say when a command needs an API and there is none: where the config was looked for, and how to write one. */
export function noApisMessage(): string {
  const where =
    configSearch === undefined
      ? 'the config names no API'
      : `no contracts.config.yaml in ${configSearch} or any folder above it`;
  return `${where}: run \`contracts init SPEC\` to write one for your spec, or give --config FILE`;
}

export function isApiName(value: string): value is ApiName {
  return (apiNames as readonly string[]).includes(value);
}

/** Whether the check sequences, the sandbox and the placement rule know this API (see seedApiNames). */
export function isSeedApi(value: string): boolean {
  return (seedApiNames as readonly string[]).includes(value);
}

/** `all` or one API name → the entries; anything else is a usage error naming the choices. */
export function selectApis(value: string): ApiEntry[] {
  if (value === 'all') return configuredApis();
  if (isApiName(value)) return [apis[value]];
  if (apiNames.length === 0) throw new ContractsError('UNKNOWN_API', `no API "${value}": ${noApisMessage()}`);
  throw new ContractsError('UNKNOWN_API', `unknown API "${value}": choose one of ${apiNames.join(', ')} or all`);
}

/** Every API of the config; none is a usage error that says where the config was looked for and how to write one. */
export function configuredApis(): ApiEntry[] {
  if (apiNames.length === 0) throw new ContractsError('UNKNOWN_API', noApisMessage());
  return apiNames.map((name) => apis[name]);
}

export function specPath(entry: ApiEntry): string {
  return path.resolve(entry.baseDir, entry.spec);
}
