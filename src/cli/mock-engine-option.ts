// Which engine answers as the embedded mock of `contracts fuzz` (and `contracts mock --engine`): Prism behind our
// validating front, or our own (src/mock/engine/), which starts in seconds on any spec.
import type { ApiName } from '../config/api-entry.js';
import { ContractsError } from '../core/errors.js';
import type { OptionSpec } from './command.js';

export type MockEngine = 'prism' | 'own' | 'stateful';

export const mockEngineOption: OptionSpec = {
  name: 'mock-engine',
  type: 'string',
  valueName: 'stateful|own|prism',
  description:
    "Without --base-url: the mock fuzzed. stateful: the stateful sandbox of the spec (what contracts sandbox --spec serves: a create stores, a read returns it), so the walk's lifecycle checks run too; prism: Prism behind our checks, and our own engine when Prism does not answer within --start-timeout (Stripe's spec takes it minutes); own: our stateless engine, ready in seconds on any spec",
  default: 'stateful',
  conflicts: ['base-url'],
};

/** `contracts mock --engine` serves Prism or our stateless engine; `contracts sandbox` is the stateful one. */
export function mockEngine(value: unknown, option: 'engine'): Exclude<MockEngine, 'stateful'>;
export function mockEngine(value: unknown, option?: 'mock-engine'): MockEngine;
export function mockEngine(value: unknown, option: 'engine' | 'mock-engine' = 'mock-engine'): MockEngine {
  if (value === 'own' || value === 'prism') return value;
  if (value === 'stateful' && option === 'mock-engine') return value;
  const choices = option === 'mock-engine' ? 'stateful, own or prism' : 'own or prism';
  throw new ContractsError('USAGE', `--${option} takes ${choices}, not "${String(value)}"`);
}

export function embeddedMockLine(apis: readonly ApiName[], engine: MockEngine): string {
  if (engine === 'stateful')
    return `contracts fuzz: no --base-url: fuzzing the stateful sandbox of ${apis.join(', ')} (what a create stores a read returns; each answer checked against the spec before it is served)`;
  return engine === 'own'
    ? `contracts fuzz: no --base-url: fuzzing the mock of ${apis.join(', ')} (our own engine: documented answers, examples first, each checked against the spec before it is served)`
    : `contracts fuzz: no --base-url: fuzzing the Prism mock of ${apis.join(', ')} (its spec's examples; an answer the spec refuses is mended)`;
}
