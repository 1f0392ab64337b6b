// The APIs the toolkit works on: one manifest that the CLI, the generator and the mocks read. Its source of truth
// is contracts.config.yaml (read-config.ts); the CLI calls useConfig() before a command runs. Until then (and for
// the library adapters: sandbox, vitest matchers) it holds the seed APIs, as the shipped config does.
import path from 'node:path';
import { findConfigIn, readConfig, type ConfigCredential } from './config/read-config.js';
import { ContractsError } from './core/errors.js';
import { setRefPolicy } from './core/load-spec.js';
import { packageRoot } from './package-root.js';

/** This package's directory: the repository in a checkout, node_modules/… once installed. */
export const projectRoot = packageRoot;

export interface ApiEntry {
  /** Name used on the command line (`--api client-session`). */
  name: ApiName;
  /** The OpenAPI 3.0 or 3.1 document, relative to `baseDir`. */
  spec: string;
  /** The openapi-typescript output, relative to `baseDir`. */
  generated: string;
  /** Port of the Prism mock by default. */
  mockPort: number;
  /** Which environment variable feeds which header, query parameter or security scheme. */
  credentials: ConfigCredential[];
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
    baseDir: projectRoot,
  },
];

export const apis = Object.fromEntries(seedApis.map((entry) => [entry.name, entry])) as Record<ApiName, ApiEntry>;

/**
 * Makes the APIs those of a config file: `file` (from --config), else contracts.config.yaml (or .json) in `cwd`,
 * else the one at the project root. Returns the file read, or undefined when there is none (the seeds stay).
 */
export function useConfig(options: { cwd: string; file?: string | undefined }): string | undefined {
  const file =
    options.file !== undefined
      ? path.resolve(options.cwd, options.file)
      : (findConfigIn(options.cwd) ?? findConfigIn(projectRoot));
  if (file === undefined) return undefined;
  const config = readConfig(file, path.relative(options.cwd, file) || file);
  setRefPolicy(config.refs);
  const names = apiNames as ApiName[];
  names.splice(0, names.length, ...(config.apis.map((api) => api.name) as ApiName[]));
  for (const name of Object.keys(apis)) delete (apis as Record<string, ApiEntry>)[name];
  for (const api of config.apis)
    (apis as Record<string, ApiEntry>)[api.name] = { ...api, name: api.name as ApiName, baseDir: config.dir };
  return file;
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
  if (value === 'all') return apiNames.map((name) => apis[name]);
  if (isApiName(value)) return [apis[value]];
  throw new ContractsError('UNKNOWN_API', `unknown API "${value}": choose one of ${apiNames.join(', ')} or all`);
}

export function specPath(entry: ApiEntry): string {
  return path.resolve(entry.baseDir, entry.spec);
}
