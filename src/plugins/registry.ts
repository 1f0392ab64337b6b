// Which API has which plug-in: our two example APIs, by name. An API without one gets none, and every command
// treats it with the generic engine alone. The commands look plug-ins up here and hand them to the engines.
import type { FuzzPluginLookup } from '../fuzz/fuzz-plugin.js';
import type { SandboxPluginLookup } from '../sandbox/sandbox-plugin.js';
import type { ApiPlugin } from './api-plugin.js';
import { clientSessionPlugin } from './client-session/plugin.js';
import { repositoryWebhooksPlugin } from './repository-webhooks/plugin.js';

const plugins: ReadonlyMap<string, ApiPlugin> = new Map(
  [clientSessionPlugin, repositoryWebhooksPlugin].map((plugin) => [plugin.name, plugin]),
);

/** The plug-in of the API named `api`, or undefined. */
export function pluginOf(api: string): ApiPlugin | undefined {
  return plugins.get(api);
}

/** The names of the APIs that have a plug-in (the ones the embedded sandbox serves with their own behaviour). */
export function pluginNames(): string[] {
  return [...plugins.keys()];
}

/** The plug-ins of the APIs named, in that order, each once. */
export function pluginsOf(apis: readonly string[]): ApiPlugin[] {
  return [...new Set(apis)].flatMap((api) => plugins.get(api) ?? []);
}

/** The fuzz plug-ins of the APIs named, loaded now, as the lookup the fuzz engine is handed (fuzz-plugin.ts). */
export async function fuzzPluginsOf(apis: readonly string[]): Promise<FuzzPluginLookup> {
  const loaded = new Map(
    await Promise.all(
      pluginsOf(apis).flatMap((plugin) =>
        plugin.fuzz ? [plugin.fuzz().then((fuzz) => [plugin.name, fuzz] as const)] : [],
      ),
    ),
  );
  return (api) => loaded.get(api);
}

/** The sandbox part of each API's plug-in, loaded when asked: the lookup the sandbox is handed (sandbox-plugin.ts). */
export const sandboxPlugins: SandboxPluginLookup = async (api) => plugins.get(api)?.sandbox?.load();
