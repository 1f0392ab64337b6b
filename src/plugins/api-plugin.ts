// The seam between the generic engine and an API's own code (#45). Every command works on any API from its spec
// alone; a plug-in adds what a spec cannot say. The engines never import a plug-in: each defines the part it runs
// (src/runner/check-plugin.ts, …) and is handed a lookup by the command, so plug-ins import engines, never back.
import type { FuzzPlugin } from '../fuzz/fuzz-plugin.js';
import type { CheckPlugin } from '../runner/check-plugin.js';
import type { SandboxCommandPart, SandboxPlugin } from '../sandbox/sandbox-plugin.js';

/**
 * A command-line option a plug-in adds to a command, listed by `--help` only when a configured API has the plug-in. The
 * same shape as an option of the CLI's table (src/cli/command.ts), which takes it as it is.
 */
export interface PluginOption {
  /** Without the dashes: `owner` for --owner. */
  name: string;
  /** The --help line. */
  description: string;
  /** Whether it takes a value (a string) or is a flag. */
  type: 'string' | 'boolean';
  /** What the value is, in the help text: `--owner <owner>`. */
  valueName?: string;
  default?: string | boolean;
  /** Options without which, or with which, it does nothing: a usage error (the CLI's parse-args.ts checks them). */
  requires?: string[];
  conflicts?: string[];
  /** The key of the plug-in's settings it sets (CheckRunSetup.settings, FuzzPlugin.fixtures' settings). */
  setting: string;
  /** The typed value of what was given (or the default), or a ContractsError('USAGE') in one line. */
  parse(raw: string | boolean | string[] | undefined): unknown;
}

/** What a run of the command is, as the plug-in's rules across options need it. */
export interface PluginRun {
  baseUrl: string | undefined;
  readOnly: boolean;
}

/** A plug-in's options of `contracts check`. */
export interface CheckOptions {
  options: readonly PluginOption[];
  /** Rules across its options and the run's (a usage error), on the parsed settings, when the run calls its API. */
  settle?(settings: Readonly<Record<string, unknown>>, run: PluginRun): void;
  /** Where its receiver of deliveries listens, or why there is none (the user's choice): CheckRunSetup.receiver. */
  receiver?(settings: Readonly<Record<string, unknown>>): { port: number } | { off: string };
}

/** A plug-in's options of `contracts fuzz`, and what it starts for a run with them (a receiver of deliveries). */
export interface FuzzOptions {
  options: readonly PluginOption[];
  /** What the Ctrl-C line adds when the run may have made something the plug-in deletes at the end. */
  cleanupNote?: string;
  /**
   * The settings its fixtures read (FuzzPlugin.fixtures), from its parsed options: what it starts for the run (a
   * receiver) is stopped by `stop`. A replay starts nothing.
   */
  prepare?(
    settings: Readonly<Record<string, unknown>>,
    run: { readOnly: boolean; phases: readonly string[]; replay: boolean },
  ): Promise<{ settings: Record<string, unknown>; stop?: () => Promise<void> }>;
}

export interface ApiPlugin {
  /** The API it belongs to, as the config names it. */
  name: string;
  /**
   * `contracts check`: the API's own sequence (its behaviour rules, judged by the plug-in's pure functions)
   * instead of the generic conformance pass, and a placeholder for a header the mock and the sandbox accept.
   * Loaded when a run needs it: the registry is read by every command, and must cost nothing to import.
   */
  check?: () => Promise<CheckPlugin>;
  /** `contracts fuzz`: the parameters the run binds, its fixtures on the target, a placeholder credential. Lazy too. */
  fuzz?: () => Promise<FuzzPlugin>;
  /** Options of `contracts check` and `contracts fuzz` that only this API has (its fixtures: an owner, a repository). */
  options?: { check?: CheckOptions; fuzz?: FuzzOptions };
  /**
   * `contracts sandbox` without --spec: what the API's spec cannot say (its state, its rules), answered by
   * operationId (src/sandbox/sandbox-plugin.ts), loaded when a sandbox starts. `describe`: its paragraph of the
   * command's --help; `banner`: the lines the command prints once serving at `url` (a request to try); `command`:
   * the options it adds to the command and how they become the library's options.
   */
  sandbox?: {
    describe: readonly string[];
    banner?: (url: string) => readonly string[];
    command?: SandboxCommandPart;
    load: () => Promise<SandboxPlugin>;
  };
  /**
   * Environment variables its credentials may be read from besides contracts-kit's namespace for the API
   * (CONTRACTS_<API>_…): the example APIs' documented ones, which predate the namespace.
   */
  variables?: readonly string[];
}
