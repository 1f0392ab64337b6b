// `contracts init SPEC`: adds an API for a spec to contracts.config.yaml (creating the file when there is none).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Document, isSeq, parseDocument } from 'yaml';
import { packageRoot } from '../config/package-root.js';
import { configFileNames, findConfigIn, readConfig, type Config } from '../config/read-config.js';
import { writableFile, writeProjectFile } from '../config/write-project-file.js';
import { shortApiName } from '../config/api-name.js';
import { credentialVariable } from '../config/credential-variables.js';
import { configBoundary, confinementProblem } from '../config/confine-path.js';
import { ContractsError } from '../core/errors.js';
import { exitCodes, type Command } from './command.js';
import { requirePort } from './options/values.js';

export const initCommand: Command = {
  name: 'init',
  summary: 'Add an API for an OpenAPI (or Swagger 2.0) spec to contracts.config.yaml',
  usage: '[--name NAME] [--port N] [--update] SPEC',
  description: [
    'Loads the spec (so a spec that will not load is said now), then adds an entry for it to the config file:',
    'the one given with --config, else contracts.config.yaml (or .json) in this directory, created when missing.',
    'The name is a short one made from the spec\'s info.title ("GitHub\'s official OpenAPI spec" → github), unless',
    '--name says otherwise; the mock port is the next free one.',
    'Afterwards lint, generate, mock, validate and fuzz take it as --api NAME.',
    'With --update, the API already there for this spec (or named by --name) is brought up to date instead: a',
    'credential stub for each security scheme the spec has gained, the spec path (when --name names it), the port',
    '(when --port is given); everything else in its entry, and every comment, stays as it is.',
  ].join('\n'),
  positionals: [{ name: 'SPEC', description: 'Path of the Swagger 2.0 or OpenAPI 3.0-3.2 YAML or JSON file' }],
  options: [
    {
      name: 'name',
      type: 'string',
      valueName: 'name',
      description: 'Name of the API on the command line (lower-case letters, digits, dashes)',
    },
    {
      name: 'port',
      type: 'string',
      valueName: 'port',
      description: 'Port of its Prism mock (default: one above the highest in the config)',
    },
    {
      name: 'update',
      type: 'boolean',
      description: 'Update the API this spec (or --name) already has in the config, rather than add one',
    },
  ],
  examples: [
    {
      command: 'contracts init specs/petstore.yaml',
      description: 'Add the petstore API; then `contracts mock --api petstore`',
    },
    {
      command: 'contracts init --name billing --port 4020 api/billing.json',
      description: 'Choose its name and mock port',
    },
    {
      command: 'contracts init --update specs/petstore.yaml',
      description: 'After the spec gained a security scheme: add its credential stub',
    },
  ],
  async run(options, positionals, io) {
    if (positionals.length !== 1)
      throw new ContractsError(
        'USAGE',
        positionals.length === 0 ? 'name the spec: contracts init SPEC' : `unexpected argument "${positionals[1]}"`,
      );
    const specFile = path.resolve(io.cwd, positionals[0]!);
    const { loadSpec } = await import('../core/load-spec.js');
    const spec = await loadSpec(specFile, positionals[0]);

    const configFile =
      typeof options.config === 'string'
        ? path.resolve(io.cwd, options.config)
        : (findConfigIn(io.cwd) ?? path.join(io.cwd, configFileNames[0]));
    const display = path.relative(io.cwd, configFile) || configFile;
    // A symlink at the config's path (committed, dangling) is refused before anything is read or written through it.
    const existing =
      (await writableFile(configFile, display)) === undefined ? undefined : readConfig(configFile, display);
    const title = (spec.document.info as { title?: unknown } | undefined)?.title;
    const name =
      typeof options.name === 'string'
        ? options.name
        : ((typeof title === 'string' ? shortApiName(title) : undefined) ??
          shortApiName(path.basename(specFile).replace(/\.[^.]*$/, '')) ??
          'api');
    if (!/^[a-z][a-z0-9-]{0,39}$/.test(name))
      throw new ContractsError(
        'USAGE',
        `--name must be lower-case letters, digits and dashes, starting with a letter, not "${name}"`,
      );
    const configDir = path.dirname(configFile);
    const relativeSpec = path.relative(configDir, specFile).split(path.sep).join('/');
    // The config could not be read back with a spec outside its project (confine-path.ts): said before writing.
    const outside = confinementProblem(relativeSpec, configDir, configBoundary(configDir));
    if (outside !== undefined)
      throw new ContractsError('USAGE', `the spec ${positionals[0]} ${outside}: move it into the project first`);
    if (options.update === true) {
      const target = updateTarget(existing, configDir, specFile, typeof options.name === 'string' ? name : undefined);
      if (existing === undefined || target === undefined)
        throw new ContractsError(
          'USAGE',
          `${display} has no API ${typeof options.name === 'string' ? `named ${name}` : `for ${positionals[0]}`} to update: leave out --update to add it`,
        );
      const port = options.port !== undefined ? requirePort('port', options.port) : undefined;
      const update = await updatedConfig(configFile, target, {
        spec: relativeSpec,
        port,
        stubs: credentialStubs(target.name, spec.document),
      });
      for (const note of update.notes) io.err(note);
      if (update.changes.length === 0) {
        io.out(`${target.name} in ${display} is up to date with ${relativeSpec}: nothing to change`);
        return exitCodes.ok;
      }
      await writeProjectFile(configFile, update.text, display);
      readConfig(configFile, display);
      io.out(`updated ${target.name} in ${display}: ${update.changes.join('; ')}`);
      for (const credential of update.added)
        io.out(
          `credentials: set ${credential.env} for the security scheme ${credential.securityScheme} (${credential.where})`,
        );
      return exitCodes.ok;
    }
    for (const api of existing?.apis ?? []) {
      if (api.name === name)
        throw new ContractsError(
          'USAGE',
          `${display} already has an API named ${name}: choose another with --name, or update it with --update`,
        );
      if (path.resolve(configDir, api.spec) === specFile)
        throw new ContractsError(
          'USAGE',
          `${display} already has this spec, as ${api.name}: update its entry with contracts init --update ${positionals[0]}`,
        );
    }
    const mockPort = options.port !== undefined ? requirePort('port', options.port) : nextPort(existing);
    const credentials = credentialStubs(name, spec.document);
    const entry = {
      name,
      spec: relativeSpec,
      generated: `generated/${name}.ts`,
      mockPort,
      ...(credentials.length > 0
        ? { credentials: credentials.map(({ env, securityScheme }) => ({ env, securityScheme })) }
        : {}),
    };
    const text = existing ? await withEntry(configFile, entry) : newConfig(configDir, entry);
    await writeProjectFile(configFile, text, display);
    readConfig(configFile, display); // What was written must read back: a clear error now rather than at the next command.
    io.out(
      `added ${name} to ${display}: spec ${relativeSpec} (OpenAPI ${spec.sourceVersion}), mock port ${mockPort}, types ${entry.generated}`,
    );
    for (const credential of credentials)
      io.out(
        `credentials: set ${credential.env} for the security scheme ${credential.securityScheme} (${credential.where})`,
      );
    return exitCodes.ok;
  },
};

interface CredentialStub {
  env: string;
  securityScheme: string;
  /** Where the value goes, for the line init prints. */
  where: string;
}

/**
 * One credential per security scheme a variable can carry (not mutualTLS), its variable in contracts-kit's namespace
 * for the API, named after the scheme (`CONTRACTS_INVENTORY_API_KEY`, the only variables a config may name unless
 * --allow-env says otherwise): check and fuzz then send it where the scheme says, and tell which to set.
 */
function credentialStubs(api: string, document: unknown): CredentialStub[] {
  const schemes = (document as { components?: { securitySchemes?: Record<string, unknown> } }).components
    ?.securitySchemes;
  if (schemes === null || typeof schemes !== 'object') return [];
  const stubs: CredentialStub[] = [];
  const used = new Set<string>();
  for (const [schemeName, raw] of Object.entries(schemes)) {
    const scheme = raw as { type?: string; in?: string; name?: string; scheme?: string };
    const where =
      scheme.type === 'apiKey'
        ? `${scheme.in ?? 'header'} ${scheme.name ?? ''}`.trim()
        : scheme.type === 'http'
          ? String(scheme.scheme ?? '').toLowerCase() === 'basic'
            ? 'Authorization: Basic, the variable holding user:password'
            : 'Authorization: Bearer'
          : scheme.type === 'oauth2' || scheme.type === 'openIdConnect'
            ? 'Authorization: Bearer, an access token'
            : undefined;
    if (where === undefined) continue;
    let env = credentialVariable(api, schemeName);
    for (let n = 2; used.has(env); n++) env = credentialVariable(api, `${schemeName}_${n}`);
    used.add(env);
    stubs.push({ env, securityScheme: schemeName, where });
  }
  return stubs;
}

/** The entry --update works on: the one --name names, else the one whose spec this is. */
function updateTarget(
  config: Config | undefined,
  configDir: string,
  specFile: string,
  named: string | undefined,
): Config['apis'][number] | undefined {
  const apis = config?.apis ?? [];
  if (named !== undefined) return apis.find((api) => api.name === named);
  return apis.find((api) => path.resolve(configDir, api.spec) === specFile);
}

interface Update {
  text: string;
  /** What changed, each as said on the console. */
  changes: string[];
  /** What the user may want to change by hand (init does not remove what a user may rely on). */
  notes: string[];
  added: CredentialStub[];
}

/**
 * The config with one entry brought up to date, through the YAML document model (comments and layout stay) or
 * JSON. Only what init wrote is touched: the spec path, the port when given, and a credential stub for each
 * security scheme no credential names yet. A credential naming a scheme the spec no longer has is the user's to
 * remove: said, not dropped.
 */
async function updatedConfig(
  file: string,
  target: Config['apis'][number],
  wanted: { spec: string; port: number | undefined; stubs: CredentialStub[] },
): Promise<Update> {
  const covered = new Set((target.credentials ?? []).map((credential) => credential.securityScheme));
  const taken = new Set((target.credentials ?? []).map((credential) => credential.env));
  const added = wanted.stubs.filter((stub) => !covered.has(stub.securityScheme) && !taken.has(stub.env));
  const schemes = new Set(wanted.stubs.map((stub) => stub.securityScheme));
  const changes: string[] = [];
  if (target.spec !== wanted.spec) changes.push(`spec ${target.spec} → ${wanted.spec}`);
  if (wanted.port !== undefined && wanted.port !== target.mockPort)
    changes.push(`mock port ${target.mockPort} → ${wanted.port}`);
  for (const stub of added) changes.push(`credential ${stub.env} added for the security scheme ${stub.securityScheme}`);
  const notes = (target.credentials ?? [])
    .filter((credential) => credential.securityScheme !== undefined && !schemes.has(credential.securityScheme))
    .map(
      (credential) =>
        `kept the credential ${credential.env}, although the spec has no security scheme ${credential.securityScheme} any more: remove it if it is not needed`,
    );
  const source = await readFile(file, 'utf8');
  const stubEntries = added.map(({ env, securityScheme }) => ({ env, securityScheme }));
  if (file.endsWith('.json')) {
    const data = JSON.parse(source) as { apis: Record<string, unknown>[] };
    const entry = data.apis.find((api) => api.name === target.name)!;
    entry.spec = wanted.spec;
    if (wanted.port !== undefined) entry.mockPort = wanted.port;
    if (stubEntries.length > 0) entry.credentials = [...((entry.credentials as unknown[]) ?? []), ...stubEntries];
    return { text: `${JSON.stringify(data, null, 2)}\n`, changes, notes, added };
  }
  const doc = parseDocument(source);
  const list = doc.get('apis');
  if (!isSeq(list)) throw new ContractsError('CONFIG_INVALID', `${file}: apis is not a list`);
  const index = list.items.findIndex((_item, at) => doc.getIn(['apis', at, 'name']) === target.name);
  if (target.spec !== wanted.spec) doc.setIn(['apis', index, 'spec'], wanted.spec);
  if (wanted.port !== undefined) doc.setIn(['apis', index, 'mockPort'], wanted.port);
  if (stubEntries.length > 0) {
    const credentials = doc.getIn(['apis', index, 'credentials']);
    if (isSeq(credentials)) for (const stub of stubEntries) credentials.add(doc.createNode(stub));
    else doc.setIn(['apis', index, 'credentials'], doc.createNode(stubEntries));
  }
  return { text: String(doc), changes, notes, added };
}

function nextPort(config: Config | undefined): number {
  const ports = config?.apis.map((api) => api.mockPort) ?? [];
  return ports.length === 0 ? 4010 : Math.max(...ports) + 1;
}

// YAML: added through the document model, so the user's comments and layout stay.
async function withEntry(file: string, entry: Record<string, unknown>): Promise<string> {
  const source = await readFile(file, 'utf8');
  if (file.endsWith('.json')) {
    const data = JSON.parse(source) as { apis: unknown[] };
    data.apis.push(entry);
    return JSON.stringify(data, null, 2) + '\n';
  }
  const doc = parseDocument(source);
  const list = doc.get('apis');
  if (!isSeq(list)) throw new ContractsError('CONFIG_INVALID', `${file}: apis is not a list`);
  list.add(doc.createNode(entry));
  return String(doc);
}

function newConfig(dir: string, entry: Record<string, unknown>): string {
  const schema = path
    .relative(dir, path.join(packageRoot, 'schemas/contracts-config.schema.json'))
    .split(path.sep)
    .join('/');
  const doc = new Document({ $schema: schema, apis: [entry] });
  doc.commentBefore = ' The APIs the contracts toolkit works on. Paths are relative to this file.';
  return String(doc);
}
