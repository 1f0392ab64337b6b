// The registry maps an API to its plug-in: our two examples by name, and none for any other API, whose every
// command then runs on the generic engine alone.
import { describe, expect, it } from 'vitest';
import { pluginOf, pluginsOf } from '../../src/plugins/registry.js';

describe('the plug-in registry', () => {
  it.each(['client-session', 'repository-webhooks'])('gives the %s example its own plug-in', (api) => {
    expect(pluginOf(api)?.name).toBe(api);
    expect(pluginOf(api)?.check).toBeDefined();
  });

  it.each(['inventory', 'Client-Session', '', 'constructor', '__proto__'])('gives "%s" no plug-in', (api) => {
    expect(pluginOf(api)).toBeUndefined();
  });

  it('lists the plug-ins of the APIs named, each once, in their order, leaving out APIs without one', () => {
    const names = pluginsOf(['repository-webhooks', 'inventory', 'client-session', 'repository-webhooks']).map(
      (plugin) => plugin.name,
    );
    expect(names).toEqual(['repository-webhooks', 'client-session']);
  });

  it('gives client-session the X-API-KEY placeholder the mock and the sandbox accept, and no other plug-in one', async () => {
    expect((await pluginOf('client-session')?.check?.())?.placeholder).toEqual({
      header: 'X-API-KEY',
      value: 'contracts-placeholder-api-key',
    });
    expect((await pluginOf('repository-webhooks')?.check?.())?.placeholder).toBeUndefined();
  });

  it('loads nothing of a plug-in but its description and option table when the registry is imported', async () => {
    const { readFileSync } = await import('node:fs');
    const imports = (file: string) =>
      readFileSync(new URL(`../../src/plugins/${file}`, import.meta.url), 'utf8').match(/^import (?!type ).*$/gm) ?? [];
    // --help lists a plug-in's options, so they are read at once; the rest of a plug-in loads when a run needs it.
    expect(imports('client-session/plugin.ts')).toEqual([]);
    expect(imports('repository-webhooks/plugin.ts')).toEqual([
      "import { webhooksCheckOptions, webhooksFuzzOptions } from './options.js';",
    ]);
    expect(imports('repository-webhooks/options.ts')).toEqual([
      "import { ContractsError } from '../../core/errors.js';",
      "import { httpUrlValue } from '../../core/http-url-value.js';",
    ]);
  });
});
