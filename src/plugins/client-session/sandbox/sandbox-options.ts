// `contracts sandbox --sessions FILE`: the client-session example's option (its sessions besides the demo one),
// read into the library's options. Its help line is in ../plugin.ts.
import type { SandboxOptionValues } from '../../../sandbox/sandbox-plugin.js';

export function readClientSessionOptions(values: SandboxOptionValues): Record<string, unknown> {
  return typeof values.sessions === 'string' ? { sessionsFile: values.sessions } : {};
}
