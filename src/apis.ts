// The APIs this toolkit ships specs for: one manifest that the CLI, the generator and the mocks read.
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { ContractsError } from './core/errors.js';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ApiEntry {
  /** Name used on the command line (`--api client-session`). */
  name: ApiName;
  /** The hand-written OpenAPI 3.1 document, relative to the project root. */
  spec: string;
  /** The openapi-typescript output, relative to the project root. */
  generated: string;
  /** Port of the Prism mock by default. */
  mockPort: number;
}

export const apiNames = ['client-session', 'repository-webhooks'] as const;
export type ApiName = (typeof apiNames)[number];

export const apis: Record<ApiName, ApiEntry> = {
  'client-session': {
    name: 'client-session',
    spec: 'specs/client-session.yaml',
    generated: 'generated/client-session.ts',
    mockPort: 4010,
  },
  'repository-webhooks': {
    name: 'repository-webhooks',
    spec: 'specs/repository-webhooks.yaml',
    generated: 'generated/repository-webhooks.ts',
    mockPort: 4011,
  },
};

export function isApiName(value: string): value is ApiName {
  return (apiNames as readonly string[]).includes(value);
}

/** `all` or one API name → the entries; anything else is a usage error naming the choices. */
export function selectApis(value: string): ApiEntry[] {
  if (value === 'all') return apiNames.map((name) => apis[name]);
  if (isApiName(value)) return [apis[value]];
  throw new ContractsError('UNKNOWN_API', `unknown API "${value}": choose one of ${apiNames.join(', ')} or all`);
}

export function specPath(entry: ApiEntry): string {
  return path.join(projectRoot, entry.spec);
}

/** `--spec client-session=FILE`, repeatable: another spec file for an API (a variant, a newer draft). */
export function parseSpecOverrides(values: readonly string[], cwd: string): Partial<Record<ApiName, string>> {
  const overrides: Partial<Record<ApiName, string>> = {};
  for (const value of values) {
    const equals = value.indexOf('=');
    const name = value.slice(0, Math.max(0, equals));
    if (equals <= 0 || !isApiName(name) || value.length === equals + 1) {
      throw new ContractsError('USAGE', `--spec takes API=FILE with API one of ${apiNames.join(', ')}, not "${value}"`);
    }
    overrides[name] = path.resolve(cwd, value.slice(equals + 1));
  }
  return overrides;
}
