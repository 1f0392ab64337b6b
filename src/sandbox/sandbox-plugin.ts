// The part of an API's plug-in the sandbox runs (#45, #47): what its spec cannot say, as the stateful engine's hooks
// by operationId (src/mock/engine/sandbox-hooks.ts), the same seam a user's hooks module uses. The sandbox
// (start-sandbox.ts) runs each API on the engine: the server, the routing on the spec's own operation index, the
// request checks, the store (what a create stores a read returns), the judging of every answer and the reset path;
// a plug-in's hooks add its rules and the state the spec has no resource for. The sandbox never imports a plug-in:
// it is handed a lookup (src/plugins/registry.ts makes it), so plug-ins import this file, never back.
import type { LoadedSpec } from '../core/load-spec.js';
import type { HookStore, SandboxHooks } from '../mock/engine/sandbox-hooks.js';

/** What the sandbox hands a plug-in when it starts. */
export interface SandboxSetup {
  /** The API's spec: the config's when it lists the API (a variant to try), else the one the toolkit ships. */
  spec: LoadedSpec;
  /**
   * The library's sandbox options as given (start-sandbox.ts's SandboxOptions): each plug-in reads its own (a
   * sessions file, repositories, bounds on deliveries) and checks them, a bad one a ContractsError('USAGE', …).
   */
  options: Readonly<Record<string, unknown>>;
  /** Where the sandbox listens, once it does: a plug-in must not send requests to it (a delivery loop). */
  listening(): { host: string; port: number };
  /** Background work (a delivery) the sandbox awaits on settle, stop and reset. */
  track(work: Promise<unknown>): void;
  /** Aborted on stop and on reset, so neither waits for a slow target. */
  abortSignal(): AbortSignal;
  /**
   * The engine's store of this API, as hooks see it (ctx.store), for work outside a request (a delivery's outcome):
   * give `parents` on every call, since there is no request to take them from.
   */
  store: HookStore;
  /** The resource (a ctx.store name) an operation acts on in the resource model, when it has one. */
  resourceOf(operationId: string): string | undefined;
}

/** A plug-in's sandbox, started: its hooks on the engine, and how it forgets its own state. */
export interface PluginSandbox {
  /** What the spec cannot say, by operationId; an operation without hooks is the engine's alone. */
  hooks: SandboxHooks;
  /** Back to the seeded state (the engine's store is already emptied, background work aborted and settled). */
  reset(): void;
}

export interface SandboxPlugin {
  start(setup: SandboxSetup): Promise<PluginSandbox>;
}

/** The sandbox part of an API's plug-in, loaded, or undefined when it has none (src/plugins/registry.ts). */
export type SandboxPluginLookup = (api: string) => Promise<SandboxPlugin | undefined>;

/** A `contracts sandbox` option a plug-in adds (the shape of the CLI's option table, src/cli/command.ts). */
export interface SandboxOption {
  /** Without the dashes. */
  name: string;
  type: 'string' | 'boolean';
  valueName?: string;
  description: string;
  default?: string;
  multiple?: boolean;
}

/** The command's parsed values by option name. */
export type SandboxOptionValues = Readonly<Record<string, string | boolean | string[] | undefined>>;

/** What a plug-in adds to `contracts sandbox`: its options, and how their values become the library's options. */
export interface SandboxCommandPart {
  options: readonly SandboxOption[];
  /**
   * The library options (start-sandbox.ts's SandboxOptions) the values make; a bad value: ContractsError('USAGE').
   * Async: a plug-in's description loads nothing (tests/plugins/registry.test.ts), its reading is imported then.
   */
  read(values: SandboxOptionValues): Promise<Record<string, unknown>>;
}
