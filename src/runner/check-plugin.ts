// What an API's plug-in adds to `contracts check` (src/plugins/api-plugin.ts gathers it with the rest): its own
// sequence instead of the generic conformance pass, and a placeholder for a header the command documents. The
// runner never imports a plug-in; the command hands it a lookup, so the plug-ins import the runner, not back.
import type { CheckName } from '../core/finding.js';
import type { RunMode } from '../reports/check-run.js';
import type { SequenceContext } from './sequence-context.js';

export interface CheckRunSetup {
  mode: RunMode;
  /** The user's receiver choice for deliveries: where it listens, or why there is none. */
  receiver: { port: number; host?: string } | { off: string };
  /** Whether the run was asked to stop (Ctrl-C). */
  interrupted: () => boolean;
  /** What the plug-in's command-line options set (src/cli/check-command.ts), as the plug-in reads it. */
  settings: Readonly<Record<string, unknown>>;
}

/** The sequence of one run, and what it started (a receiver), stopped when the run ends. */
export interface CheckSequence {
  run(context: SequenceContext): Promise<void>;
  stop?(): Promise<void>;
}

/** A behavioural check the plug-in's sequence judges at one operation, and which runs can judge it. */
export interface BehaviourCheck {
  check: CheckName;
  operation: string;
  /** A stateless mock can judge it: a probe that needs no state. */
  stateless?: boolean;
  /** --read-only can judge it, with GET calls alone on what exists. */
  readOnly?: boolean;
  /** Only a receiver the run controls can judge it: what arrived. */
  receiver?: boolean;
}

export interface CheckPlugin {
  /** The behavioural checks planned beside the per-exchange ones (the plan says each run which it judges). */
  behaviour?: readonly BehaviourCheck[];
  /** A header sent with this value when nothing of the config feeds it (the mock and sandbox only need one). */
  placeholder?: { header: string; value: string };
  /** Called once per run, before the first API's sequence. */
  prepare(setup: CheckRunSetup): Promise<CheckSequence>;
}

/** The plug-in of an API, or undefined: the API gets the generic conformance pass. */
export type CheckPluginLookup = (api: string) => CheckPlugin | undefined;
