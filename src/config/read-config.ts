// Reads contracts.config.yaml (or .json): the APIs the toolkit works on, validated by ajv against the JSON Schema
// shipped in schemas/contracts-config.schema.json, every mistake one line at its file and line.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ErrorObject } from 'ajv';
import { type Document, LineCounter, parseDocument } from 'yaml';
import { fastYamlData } from '../core/fast-yaml.js';
import { ContractsError } from '../core/errors.js';
import { packageRoot } from './package-root.js';
import { configBoundary, confinementProblem } from './confine-path.js';
import { foundConfigDistrust } from './config-trust.js';
import compiledValidator from './config-validator.generated.js';
import { createLocator, pointerToPath, type JsonPath } from '../core/source-locator.js';
import type { RuleLevels } from '../lint/rule-levels.js';
import { lintRules } from './lint-rules.js';
import type { DeliveryConvention } from '../core/delivery/delivery-convention.js';
import { webhookConvention, type RawWebhooks } from './webhook-convention.js';

export const configFileNames = ['contracts.config.yaml', 'contracts.config.yml', 'contracts.config.json'] as const;

export const configSchemaFile = path.join(packageRoot, 'schemas', 'contracts-config.schema.json');

export interface ConfigCredential {
  /** The environment variable holding the secret. */
  env: string;
  header?: string;
  prefix?: string;
  query?: string;
  securityScheme?: string;
}

export interface ConfigApi {
  name: string;
  /** Relative to the config file's directory. */
  spec: string;
  generated: string;
  mockPort: number;
  credentials: ConfigCredential[];
  /** contracts fuzz's operation filters (`exclude-path: [...]`…), as written; src/fuzz/operation-filter.ts reads them. */
  fuzz?: Record<string, string[]>;
  /** contracts lint's rule levels for this API's spec, over the config's (`apis[].lint.rules`). */
  lintRules?: RuleLevels;
  /** How its webhook deliveries are told apart and signed (`apis[].webhooks`), when the config says. */
  webhooks?: DeliveryConvention;
  /** contracts sandbox --api's settings (`apis[].sandbox`): its hooks module, relative to the config's folder. */
  sandbox?: { hooks?: string };
  /** The API's own checks (`apis[].checks`): a module relative to the config's folder (src/config/load-user-checks.ts). */
  checks?: string;
}

export interface Config {
  /** Absolute path of the file read. */
  file: string;
  /** Spec and generated paths are relative to it. */
  dir: string;
  apis: ConfigApi[];
  /** What specs' `$ref`s may read besides each spec's own folder (absolute paths), and the bound on one file. */
  refs: { roots: string[]; maxFileBytes?: number };
  /** contracts lint's rule levels (`lint.rules`). */
  lintRules: RuleLevels;
}

/** The config file in `dir` (the first of configFileNames there), or undefined. */
export function findConfigIn(dir: string): string | undefined {
  return configFileNames.map((name) => path.join(dir, name)).find((file) => existsSync(file));
}

/**
 * The config of the project `dir` is in: contracts.config.yaml (or .json) in `dir` or the nearest folder above it.
 * One another user could have put there (config-trust.ts) is passed over, and `ignored` says why in one line.
 */
export function findConfigUpwards(dir: string, ignored: (line: string) => void = () => {}): string | undefined {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const found = findConfigIn(current);
    const distrust = found === undefined ? undefined : foundConfigDistrust(found, dir);
    if (found !== undefined && distrust !== undefined)
      ignored(`contracts: ignoring ${found}: ${distrust}; give --config ${found} to use it anyway`);
    else if (found !== undefined) return found;
    if (path.dirname(current) === current) return undefined;
  }
}

/** The config schema compiled ahead of time by ajv (scripts/config-validator.ts). */
const validator = compiledValidator as ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** Reads and validates one config file; `display` is how messages name it. */
export function readConfig(file: string, display = file): Config {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ContractsError('CONFIG_NOT_FOUND', `config file not found: ${display}`);
    throw new ContractsError('CONFIG_INVALID', `cannot read config ${display}: ${code ?? String(error)}`);
  }
  // The data by the fast path when it vouches for the text (fast-yaml.ts); the YAML model, which says where a
  // mistake is and reads every text, only when it does not or a message needs a line.
  let model: { doc: Document.Parsed; lineCounter: LineCounter } | undefined;
  const parsed = () => {
    if (!model) {
      const lineCounter = new LineCounter();
      model = { doc: parseDocument(source, { lineCounter, prettyErrors: false, uniqueKeys: true }), lineCounter };
    }
    return model;
  };
  const at = (p: JsonPath) => {
    const { doc, lineCounter } = parsed();
    return { file: display, ...createLocator(doc, lineCounter)(p) };
  };
  let data = fastYamlData(source);
  if (data === undefined) {
    const { doc, lineCounter } = parsed();
    if (doc.errors[0]) {
      const pos = lineCounter.linePos(doc.errors[0].pos[0]);
      throw new ContractsError('CONFIG_INVALID', `not valid YAML or JSON: ${doc.errors[0].message.split('\n')[0]}`, {
        file: display,
        line: pos.line,
        column: pos.col,
      });
    }
    try {
      data = doc.toJS({ maxAliasCount: 100 });
    } catch {
      throw new ContractsError('CONFIG_INVALID', 'YAML aliases expand too far', at([]));
    }
  }
  if (!validator(data)) {
    const error = mostSpecific(validator.errors ?? []);
    const where = pointerToPath(error.instancePath);
    const extra = error.keyword === 'additionalProperties' ? [String(error.params.additionalProperty)] : [];
    throw new ContractsError('CONFIG_INVALID', explain(error, where), at([...where, ...extra]));
  }
  const raw = (
    data as {
      apis: (Omit<Partial<ConfigApi>, 'webhooks'> & {
        lint?: Parameters<typeof lintRules>[0];
        webhooks?: RawWebhooks;
      })[];
    }
  ).apis;
  const names = new Set<string>();
  const ports = new Set(raw.map((api) => api.mockPort).filter((port) => port !== undefined));
  let nextPort = 4010;
  const apis = raw.map((api, index): ConfigApi => {
    const name = api.name!;
    if (names.has(name))
      throw new ContractsError(
        'CONFIG_INVALID',
        `apis[${index}].name: "${name}" is already the name of another API`,
        at(['apis', index, 'name']),
      );
    names.add(name);
    let mockPort = api.mockPort;
    if (mockPort === undefined) {
      while (ports.has(nextPort)) nextPort++;
      mockPort = nextPort;
      ports.add(nextPort);
    }
    return {
      name,
      spec: api.spec!,
      generated: api.generated ?? `generated/${name}.ts`,
      mockPort,
      credentials: api.credentials ?? [],
      ...(api.fuzz ? { fuzz: api.fuzz } : {}),
      ...(api.lint?.rules ? { lintRules: lintRules(api.lint, ['apis', index, 'lint'], at) } : {}),
      ...(api.webhooks ? { webhooks: webhookConvention(api.webhooks, ['apis', index, 'webhooks'], at) } : {}),
      ...(api.sandbox ? { sandbox: api.sandbox } : {}),
      ...(api.checks !== undefined ? { checks: api.checks } : {}),
    };
  });
  const mockPorts = new Map<number, string>();
  apis.forEach((api, index) => {
    const other = mockPorts.get(api.mockPort);
    if (other !== undefined)
      throw new ContractsError(
        'CONFIG_INVALID',
        `apis[${index}].mockPort: ${api.mockPort} is already the mock port of ${other}`,
        at(['apis', index, 'mockPort']),
      );
    mockPorts.set(api.mockPort, api.name);
  });
  const refs = (data as { refs?: { roots?: string[]; maxFileMB?: number } }).refs ?? {};
  const dir = path.dirname(file);
  confinePaths(dir, apis, raw, refs.roots ?? [], at);
  return {
    file,
    dir,
    apis,
    refs: {
      roots: (refs.roots ?? []).map((root) => path.resolve(dir, root)),
      ...(refs.maxFileMB === undefined ? {} : { maxFileBytes: Math.round(refs.maxFileMB * 1024 * 1024) }),
    },
    lintRules: lintRules((data as { lint?: Parameters<typeof lintRules>[0] }).lint, ['lint'], at),
  };
}

/**
 * Every path the config names stays in its project (confine-path.ts): a config from a pull request may say
 * `generated: ../neighbour/src/main.ts` or `roots: [/]`.
 */
function confinePaths(
  dir: string,
  apis: readonly ConfigApi[],
  raw: readonly Pick<Partial<ConfigApi>, 'generated'>[],
  roots: readonly string[],
  at: (p: JsonPath) => { file: string; line: number; column: number },
): void {
  const boundary = configBoundary(dir);
  const confine = (value: string, name: string, where: JsonPath) => {
    const problem = confinementProblem(value, dir, boundary);
    if (problem !== undefined)
      throw new ContractsError('CONFIG_INVALID', `${name} "${shortened(value)}" ${problem}`, at(where));
  };
  apis.forEach((api, index) => {
    confine(api.spec, `apis[${index}].spec`, ['apis', index, 'spec']);
    const generatedAt: JsonPath = raw[index]!.generated === undefined ? ['apis', index] : ['apis', index, 'generated'];
    confine(api.generated, `apis[${index}].generated`, generatedAt);
    if (api.sandbox?.hooks !== undefined)
      confine(api.sandbox.hooks, `apis[${index}].sandbox.hooks`, ['apis', index, 'sandbox', 'hooks']);
    if (api.checks !== undefined) confine(api.checks, `apis[${index}].checks`, ['apis', index, 'checks']);
  });
  roots.forEach((root, index) => confine(root, `refs.roots[${index}]`, ['refs', 'roots', index]));
}

// An unknown field first (often a misspelling), then a credential naming no way (or two ways) in: its oneOf says
// that better than the `required` errors of its branches.
function mostSpecific(errors: ErrorObject[]): ErrorObject {
  const first = (keyword: string) => errors.find((error) => error.keyword === keyword);
  return first('additionalProperties') ?? first('oneOf') ?? errors[0]!;
}

function explain(error: ErrorObject, where: JsonPath): string {
  const name =
    where
      .map((step, i) =>
        typeof step === 'number' || /^\d+$/.test(String(step)) ? `[${step}]` : `${i === 0 ? '' : '.'}${step}`,
      )
      .join('') || 'the config';
  switch (error.keyword) {
    case 'required':
      return `${name} needs "${String(error.params.missingProperty)}"`;
    case 'additionalProperties':
      return `${name} has an unknown field "${String(error.params.additionalProperty)}" (see schemas/contracts-config.schema.json)`;
    case 'pattern':
      return name.endsWith('.name')
        ? `${name} must be lower-case letters, digits and dashes, starting with a letter`
        : `${name} must match ${String(error.params.pattern)}`;
    case 'enum':
      return `${name} must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
    case 'anyOf':
      return `${name} must be a signature scheme ({ scheme, secretEnv, … }) or a list of them`;
    case 'oneOf':
      return `${name} must name exactly one of header, query or securityScheme`;
    default:
      return `${name} ${error.message ?? 'is invalid'}`;
  }
}

// A path is shown as written, but never at length: a hostile one could be megabytes.
function shortened(value: string): string {
  return value.length > 200 ? `${value.slice(0, 200)}…` : value;
}
