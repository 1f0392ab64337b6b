// The options plug-ins add to check and fuzz (src/plugins/api-plugin.ts): listed in a command's table only when the
// config has an API with that plug-in, parsed by parse-args.ts like any option, and handed to the plug-in as its
// settings. The command names no plug-in: it asks the registry.
import type { Project } from '../config/project.js';
import type { ApiPlugin, CheckOptions, FuzzOptions, PluginOption } from '../plugins/api-plugin.js';
import { pluginsOf } from '../plugins/registry.js';
import type { OptionSpec, ParsedOptions } from './command.js';

type Part = 'check' | 'fuzz';
type OptionSet<P extends Part> = P extends 'check' ? CheckOptions : FuzzOptions;

/** Each plug-in of the APIs named with its option set for the command, in the order named. */
export function optionSets<P extends Part>(
  apis: readonly string[],
  part: P,
): { plugin: ApiPlugin; set: OptionSet<P> }[] {
  return pluginsOf(apis).flatMap((plugin) => {
    const set = plugin.options?.[part] as OptionSet<P> | undefined;
    return set ? [{ plugin, set }] : [];
  });
}

/** The options the project's plug-ins add to the command, each name once (the first plug-in's definition). */
export function pluginOptions(project: Project, part: Part): OptionSpec[] {
  const seen = new Map<string, PluginOption>();
  for (const { set } of optionSets(project.names, part))
    for (const option of set.options) if (!seen.has(option.name)) seen.set(option.name, option);
  return [...seen.values()];
}

/** The settings of one plug-in: each of its options' parsed value under its setting's key. */
export function pluginSettings(
  set: { options: readonly PluginOption[] },
  options: ParsedOptions,
): Record<string, unknown> {
  return Object.fromEntries(set.options.map((option) => [option.setting, option.parse(options[option.name])]));
}

/** What the fuzz plug-ins of a run's APIs set and started (a receiver), and their note for the Ctrl-C line. */
export interface FuzzPluginRun {
  settings: Record<string, unknown>;
  /** What a Ctrl-C line adds: the plug-ins delete what the run made, at the end. */
  cleanupNote: string | undefined;
  stop(): Promise<void>;
}

/** Each fuzz plug-in of the APIs named prepares the run with its options' values (FuzzOptions.prepare). */
export async function prepareFuzzPlugins(
  apis: readonly string[],
  options: ParsedOptions,
  run: { readOnly: boolean; phases: readonly string[]; replay: boolean },
): Promise<FuzzPluginRun> {
  const settings: Record<string, unknown> = {};
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const each of stops.splice(0)) await each();
  };
  try {
    for (const { set } of optionSets(apis, 'fuzz')) {
      const given = pluginSettings(set, options);
      const prepared = set.prepare ? await set.prepare(given, run) : { settings: given };
      Object.assign(settings, prepared.settings);
      if (prepared.stop) stops.push(prepared.stop);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const notes = optionSets(apis, 'fuzz').flatMap(({ set }) => (set.cleanupNote ? [set.cleanupNote] : []));
  return { settings, cleanupNote: run.readOnly || notes.length === 0 ? undefined : notes.join(', '), stop };
}
