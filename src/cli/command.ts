// The shape of a CLI command: a table of options, parsed by parse-args.ts, then one call into the library.
import type { Project } from '../config/project.js';
import type { Redactor } from '../reports/redact.js';
import type { ProgressStream } from './progress.js';

export type OptionType = 'string' | 'boolean';

export interface OptionSpec {
  name: string;
  type: OptionType;
  /** What the value is, in the help text: `--port <number>`. */
  valueName?: string;
  description: string;
  default?: string | boolean;
  multiple?: boolean;
  short?: string;
  /**
   * Options without which this one does nothing: given alone it is a usage error (`--x has no effect without --y`),
   * not silently ignored. Checked by parse-args.ts on what the user typed (defaults do not count).
   */
  requires?: string[];
  /** Options with which this one does nothing: giving both is a usage error (`--x has no effect with --y`). */
  conflicts?: string[];
  /**
   * The value as the command's run reads it, or a usage error (options/typed-option.ts). Run by parse-args.ts on
   * what was given or defaulted, before the command runs.
   */
  parse?: (raw: RawOptionValue) => unknown;
}

/** What parseArgs gives for an option: text, a flag, the values of a repeatable one, or nothing. */
export type RawOptionValue = string | boolean | string[] | undefined;

export interface Io {
  /** Writes a line to standard output; main() redacts every secret it knows of first. */
  out: (text: string) => void;
  err: (text: string) => void;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Knows the credentials from the environment; commands add the secrets they make up. */
  redactor: Redactor;
  /** Where a long run draws its progress line (standard error; see progress.ts); none in tests and libraries. */
  progressStream?: ProgressStream;
  /** The project, read once by main() before the command runs (config/project.ts); frozen. */
  project: Project;
}

/** Help text or options that name the project's APIs: a function of the project main() read. */
export type ProjectText<T> = T | ((project: Project) => T);

/** The value of a ProjectText for this project. */
export function forProject<T>(value: ProjectText<T>, project: Project): T {
  return typeof value === 'function' ? (value as (project: Project) => T)(project) : value;
}

export type ParsedOptions = Record<string, RawOptionValue>;

export interface Command {
  name: string;
  summary: ProjectText<string>;
  /** Usage line after `contracts <name>`. */
  usage: string;
  description: ProjectText<string>;
  options: ProjectText<OptionSpec[]>;
  /** Positional arguments, for help. */
  positionals?: { name: string; description: string }[];
  examples: ProjectText<{ command: string; description: string }[]>;
  /**
   * Sends the config's credentials to a target: main() refuses a variable the config may not name unless
   * --allow-env names it (credential-variables.ts), and says which config is in use. A function: whether this run
   * sends any (`fuzz --explain-links` sends nothing).
   */
  sendsCredentials?: boolean | ((options: ParsedOptions) => boolean);
  /** Exit status: 0 good, 1 the subject failed, 2 the tool could not do its job. */
  run(options: ParsedOptions, positionals: string[], io: Io): Promise<number>;
}

/** A command as a project sees it: its help texts and options, naming the project's APIs. */
export interface ProjectCommand extends Omit<Command, 'summary' | 'description' | 'options' | 'examples'> {
  summary: string;
  description: string;
  options: OptionSpec[];
  examples: { command: string; description: string }[];
}

/** The command with its texts and options for this project (what help shows and the arguments are parsed by). */
export function commandFor(command: Command, project: Project): ProjectCommand {
  return {
    ...command,
    summary: forProject(command.summary, project),
    description: forProject(command.description, project),
    options: forProject(command.options, project),
    examples: forProject(command.examples, project),
  };
}

export const exitCodes = { ok: 0, failed: 1, cannotRun: 2 } as const;

/** A command that streams JSON closes it with the error itself, and marks the error so: main() adds no second one. */
export function markedInJson<T extends object>(error: T): T {
  return Object.assign(error, { inJson: true });
}
