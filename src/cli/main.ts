// The `contracts` CLI: finds the command in the table, parses its options, calls it, maps faults to exit 2.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../config/package-root.js';
import { makeProject, readProject, type Project } from '../config/project.js';
import { setRefPolicy } from '../core/load-spec.js';
import { ContractsError, nestingTooDeep } from '../core/errors.js';
import { escapeControls } from '../reports/escape-controls.js';
import { Redactor } from '../reports/redact.js';
import {
  commandFor,
  exitCodes,
  forProject,
  type Command,
  type Io,
  type OptionSpec,
  type ParsedOptions,
} from './command.js';
import { allowedVariables, refuseForeignVariables } from '../config/credential-variables.js';
import { pluginOf } from '../plugins/registry.js';
import { commandHelp, mainHelp } from './help.js';
import { didYouMean } from './did-you-mean.js';
import { checkApiName, parseCommandArgs } from './parse-args.js';
import { earlyOptions } from './options/early-options.js';

/**
 * Each command's module, imported only when that command runs (or for help): a run loads one command's imports,
 * not those of all twelve (start-up, bench/README.md).
 */
const commandModules: Record<string, () => Promise<Command>> = {
  lint: async () => (await import('./lint-command.js')).lintCommand,
  generate: async () => (await import('./generate-command.js')).generateCommand,
  mock: async () => (await import('./mock-command.js')).mockCommand,
  sandbox: async () => (await import('./sandbox-command.js')).sandboxCommand,
  check: async () => (await import('./check-command.js')).checkCommand,
  validate: async () => (await import('./validate-command.js')).validateCommand,
  receive: async () => (await import('./receive-command.js')).receiveCommand,
  proxy: async () => (await import('./proxy-command.js')).proxyCommand,
  fuzz: async () => (await import('./fuzz-command.js')).fuzzCommand,
  'merge-reports': async () => (await import('./fuzz-command.js')).mergeReportsCommand,
  diff: async () => (await import('./diff-command.js')).diffCommand,
  init: async () => (await import('./init-command.js')).initCommand,
};
const commandNames = Object.keys(commandModules);
const loadCommand = (name: string | undefined) =>
  name !== undefined && Object.hasOwn(commandModules, name) ? commandModules[name]!() : undefined;

/** Every command, in the order help lists them. */
export const allCommands = (): Promise<Command[]> => Promise.all(commandNames.map((name) => commandModules[name]!()));

export async function main(argv: string[], raw: Omit<Io, 'redactor' | 'project'>): Promise<number> {
  // Every line any command writes passes through the redactor (credentials never reach the terminal), then has
  // its control characters escaped (nor do escape sequences from a target or an input). Redacting first, so a
  // secret is matched as it is.
  const redactor = Redactor.fromEnvironment(raw.env);
  const clean = (text: string) => escapeControls(redactor.redact(text));
  const io: Omit<Io, 'project'> = {
    ...raw,
    redactor,
    out: (text) => raw.out(clean(text)),
    err: (text) => raw.err(clean(text)),
  };
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    // Help names the config's APIs when there is a readable config; a broken one is for the commands to report.
    let project = noProject(io.cwd);
    try {
      project = readProject({ cwd: io.cwd, file: earlyOptions(rest).config ?? (io.env.CONTRACTS_CONFIG || undefined) });
    } catch {}
    const topic = name === 'help' ? await loadCommand(rest[0]) : undefined;
    const commands = (await allCommands()).map((command) => commandFor(command, project));
    io.out(topic ? commandHelp(commandFor(topic, project)) : mainHelp(commands, project));
    return name === undefined ? exitCodes.cannotRun : exitCodes.ok;
  }
  if (name === '--version' || name === '-v') {
    const pkg = JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string };
    io.out(pkg.version);
    return exitCodes.ok;
  }
  const command = await loadCommand(name);
  if (!command) {
    const hint = didYouMean(name, [...commandNames, ...(name.startsWith('-') ? ['--help', '--version'] : [])]);
    io.err(
      `contracts: unknown command "${name}".${hint || ` Commands: ${commandNames.join(', ')}.`} Run \`contracts --help\`.`,
    );
    return exitCodes.cannotRun;
  }
  // --config, --spec and --format, read before the command's table exists (it names the config's APIs).
  const early = earlyOptions(rest, optionsWithoutProject(command, io.cwd));
  try {
    // The APIs come from the config file (--config, or contracts.config.yaml here or in the nearest folder above), read
    // before the arguments: the options and help name its APIs (`--port-inventory`). A config that cannot be read
    // still leaves `--help` working. The secrets its credentials name are redacted like the built-in ones.
    // `init --config NEW` creates the file it names: that it is not there yet is no mistake.
    // CONTRACTS_CONFIG names the config when --config does not (as for the vitest matchers).
    const configFile = early.config ?? (io.env.CONTRACTS_CONFIG || undefined);
    let configError: unknown;
    let project = noProject(io.cwd);
    try {
      if (command.name !== 'init' || configFile === undefined || existsSync(path.resolve(io.cwd, configFile))) {
        // No config anywhere up from here: the spec files given with --spec are the APIs of this run.
        const takesSpecs =
          command.name !== 'init' && forProject(command.options, project).some((option) => option.name === 'spec');
        project = readProject({
          cwd: io.cwd,
          file: configFile,
          ignored: io.err,
          ...(takesSpecs && { specs: early.specs }),
        });
        if (project.configFile !== undefined) setRefPolicy(project.refs ?? {});
      }
    } catch (error) {
      configError = error;
    }
    const forThis = commandFor(command, project);
    const { options, positionals } = parseCommandArgs(forThis, rest);
    if (options.help) {
      io.out(commandHelp(forThis));
      return exitCodes.ok;
    }
    if (configError !== undefined) throw configError;
    if (options.config === undefined && configFile !== undefined) options.config = configFile;
    for (const entry of project.apis) for (const credential of entry.credentials) redactor.add(io.env[credential.env]);
    if (forThis.options.some((option) => option.name === 'api')) checkApiName(options.api, project.names);
    const sends =
      typeof command.sendsCredentials === 'function' ? command.sendsCredentials(options) : command.sendsCredentials;
    if (sends && project.configFile !== undefined) credentialGate(command.name, project, options, io);
    return await command.run(options, positionals, { ...io, project });
  } catch (caught) {
    const error = nestingTooDeep(caught) ?? caught;
    // Asked for JSON, a program reads stdout: it gets JSON whatever happened (unless the command already closed its
    // own JSON with the error in it).
    if (early.format === 'json' && !alreadyInJson(error)) {
      const code = error instanceof ContractsError ? error.code : 'INTERNAL';
      const message = error instanceof ContractsError ? error.toLine() : `internal error: ${(error as Error).message}`;
      io.out(JSON.stringify({ error: { code, message } }, null, 2));
    }
    if (error instanceof ContractsError) {
      io.err(`contracts ${command.name}: ${error.toLine()}`);
      // A "Did you mean" already says what to type; otherwise point at the help.
      if ((error.code === 'USAGE' || error.code === 'UNKNOWN_API') && !/ Did you mean /.test(error.message))
        io.err(`Run \`contracts ${command.name} --help\` for usage.`);
      return exitCodes.cannotRun;
    }
    // Anything else is a bug in the toolkit: say so in one line, keep the detail for those who ask.
    io.err(`contracts ${command.name}: internal error: ${(error as Error).message}`);
    if (io.env.CONTRACTS_DEBUG) io.err(String((error as Error).stack));
    else io.err('Set CONTRACTS_DEBUG=1 for the stack trace, and please report it.');
    return exitCodes.cannotRun;
  }
}

/**
 * Before a command sends the config's credentials: a variable the config may not name is refused (a config from a
 * pull request must not pick which of the user's secrets go out), and the config in use is said, when it sends any.
 */
function credentialGate(name: string, project: Project, options: ParsedOptions, io: Omit<Io, 'project'>): void {
  const config = project.configFile!;
  const given = options['allow-env'];
  const allowed = allowedVariables(Array.isArray(given) ? given : typeof given === 'string' ? [given] : []);
  const configured = project.apis;
  const documented = (api: string) => pluginOf(api)?.variables ?? [];
  refuseForeignVariables(configured, allowed, path.relative(io.cwd, config) || config, documented);
  if (configured.some((api) => api.credentials.some((credential) => io.env[credential.env])))
    io.err(`contracts ${name}: sending credentials as the config ${config} names them`);
}

/** The project before (or without) a config: no APIs, as in a folder with none. */
function noProject(cwd: string): Project {
  return makeProject({ root: path.resolve(cwd), apis: [], searchedFrom: path.resolve(cwd) });
}

/**
 * The command's options as a project without APIs sees them: enough to read --config, --spec and --format early.
 * None when its table cannot be made without a project: the command's own parse, inside main's error handling, says
 * what is wrong in one line (this runs before it, where a throw would print a stack trace).
 */
export function optionsWithoutProject(command: Command, cwd: string): OptionSpec[] {
  try {
    return forProject(command.options, noProject(cwd));
  } catch {
    return [];
  }
}

function alreadyInJson(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { inJson?: boolean }).inJson === true;
}
