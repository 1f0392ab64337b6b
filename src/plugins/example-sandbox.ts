// The sandbox with the example APIs' plug-ins: src/sandbox/start-sandbox.ts is the engine and imports no plug-in
// (engines never do); this is where the library, `contracts sandbox` and fuzz's embedded sandbox get it with the
// registry's lookup. A caller's own `plugins` lookup still wins.
import { type Sandbox, type SandboxOptions, startSandbox as startSandboxEngine } from '../sandbox/start-sandbox.js';
import { sandboxPlugins } from './registry.js';

export * from '../sandbox/start-sandbox.js';

/** startSandbox of src/sandbox/, the example APIs' plug-ins served when no `spec` is given. */
export function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandboxEngine({ plugins: sandboxPlugins, ...options });
}
