// The seam between the generic engine and an API's own code (#45). Every command works on any API from its spec
// alone; a plug-in adds what a spec cannot say. The engines never import a plug-in: each defines the part it runs
// (src/runner/check-plugin.ts, …) and is handed a lookup by the command, so plug-ins import engines, never back.
import type { FuzzPlugin } from '../fuzz/fuzz-plugin.js';
import type { CheckPlugin } from '../runner/check-plugin.js';

/** A command-line option a plug-in adds to a command, listed by `--help` only when a configured API has the plug-in. */
export interface PluginOption {
  /** Without the dashes: `owner` for --owner. */
  name: string;
  /** The --help line. */
  description: string;
  /** Whether it takes a value (a string) or is a flag. */
  type: 'string' | 'boolean';
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
  options?: { check?: readonly PluginOption[]; fuzz?: readonly PluginOption[] };
  /**
   * Environment variables its credentials may be read from besides contracts-kit's namespace for the API
   * (CONTRACTS_<API>_…): the example APIs' documented ones, which predate the namespace.
   */
  variables?: readonly string[];
}
