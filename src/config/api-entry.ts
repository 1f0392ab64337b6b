// One API of a project: where its spec is, its mock port, its credentials and its settings from the config.
import path from 'node:path';
import type { ConfigCredential } from './read-config.js';
import type { RuleLevels } from '../lint/rule-levels.js';
import type { DeliveryConvention } from '../core/delivery/delivery-convention.js';

/** An API's name as the config (or a --spec file) gives it; which names exist is the Project's to say. */
export type ApiName = string;

export interface ApiEntry {
  /** Name used on the command line (`--api inventory`). */
  readonly name: ApiName;
  /** The Swagger 2.0 or OpenAPI 3.x document, relative to `baseDir`. */
  readonly spec: string;
  /** The openapi-typescript output, relative to `baseDir`. */
  readonly generated: string;
  /** Port of the mock by default. */
  readonly mockPort: number;
  /** Which environment variable feeds which header, query parameter or security scheme. */
  readonly credentials: readonly ConfigCredential[];
  /** contracts fuzz's operation filters from the config (`exclude-path: [...]`…). */
  readonly fuzz?: Readonly<Record<string, readonly string[]>>;
  /** contracts lint's rule levels for this API's spec, over the config's (`apis[].lint.rules`). */
  readonly lintRules?: RuleLevels;
  /** How its webhook deliveries are told apart and signed (`apis[].webhooks`), when the config says. */
  readonly webhooks?: DeliveryConvention;
  /** The API's own checks (`apis[].checks`): a module relative to `baseDir`. */
  readonly checks?: string;
  /** contracts sandbox --api's settings (`apis[].sandbox.hooks`: its hooks module, relative to `baseDir`). */
  readonly sandbox?: { readonly hooks?: string };
  /** The directory `spec` and `generated` are relative to: the config file's. */
  readonly baseDir: string;
}

export function specPath(entry: Pick<ApiEntry, 'baseDir' | 'spec'>): string {
  return path.resolve(entry.baseDir, entry.spec);
}

/**
 * An API made of a spec file alone (a library call's `specs`, a --spec file): no credentials, no settings; its
 * generated types go to generated/NAME.ts under `baseDir`.
 */
export function specFileEntry(name: ApiName, file: string, mockPort = 0, baseDir = path.dirname(file)): ApiEntry {
  return {
    name,
    spec: path.resolve(baseDir, file),
    generated: path.join('generated', `${name}.ts`),
    mockPort,
    credentials: [],
    baseDir: path.resolve(baseDir),
  };
}

/**
 * The name of an API made of a spec file: the one given (`API=FILE`), else the file's name in lower-case words
 * (`Pet Store.yaml` → pet-store), made unique among `taken` with -2, -3…
 */
export function specFileName(api: string | undefined, file: string, taken: readonly string[]): ApiName {
  const base =
    api ??
    (path
      .basename(file)
      .replace(/\.(ya?ml|json)$/i, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') ||
      'api');
  let name = base;
  for (let n = 2; taken.includes(name); n++) name = `${base}-${n}`;
  return name;
}
