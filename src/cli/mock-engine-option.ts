// Which engine answers as the embedded mock of `contracts fuzz` (and `contracts mock --engine`): Prism behind our
// validating front, or our own (src/mock/engine/), which starts in seconds on any spec.
import type { ApiName } from '../config/apis.js';
import { ContractsError } from '../core/errors.js';
import type { OptionSpec } from './command.js';

export type MockEngine = 'prism' | 'own';

export const mockEngineOption: OptionSpec = {
  name: 'mock-engine',
  type: 'string',
  valueName: 'own|prism',
  description:
    "Without --base-url: the mock fuzzed. prism: Prism behind our checks, and our own engine when Prism does not answer within --start-timeout (Stripe's spec takes it minutes); own: our engine from the start, ready in seconds on any spec",
  default: 'prism',
  conflicts: ['base-url'],
};

export function mockEngine(value: unknown, option = 'mock-engine'): MockEngine {
  if (value === 'own' || value === 'prism') return value;
  throw new ContractsError('USAGE', `--${option} takes own or prism, not "${String(value)}"`);
}

export function embeddedMockLine(apis: readonly ApiName[], engine: MockEngine): string {
  return engine === 'own'
    ? `contracts fuzz: no --base-url: fuzzing the mock of ${apis.join(', ')} (our own engine: documented answers, examples first, each checked against the spec before it is served)`
    : `contracts fuzz: no --base-url: fuzzing the Prism mock of ${apis.join(', ')} (its spec's examples; an answer the spec refuses is mended)`;
}
