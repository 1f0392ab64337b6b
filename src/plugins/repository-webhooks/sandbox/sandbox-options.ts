// `contracts sandbox --repository, --max-deliveries, --max-delivery-memory`: the webhooks example's options, read
// into the library's (its sandbox-plugin.ts checks the repositories' form and the bounds once more, for the library).
// Their help lines are in ../plugin.ts.
import { ContractsError } from '../../../core/errors.js';
import type { SandboxOptionValues } from '../../../sandbox/sandbox-plugin.js';

/** The repository that always exists (the seed's example owner and name). */
export const defaultRepositories: readonly string[] = ['octo/app'];

export function readRepositoryWebhooksOptions(values: SandboxOptionValues): Record<string, unknown> {
  return {
    repositories: [...defaultRepositories, ...((values.repository as string[] | undefined) ?? [])],
    maxDeliveries: count('max-deliveries', values['max-deliveries']),
    maxDeliveryBytes: megabytes('max-delivery-memory', values['max-delivery-memory']),
  };
}

function count(name: string, value: unknown): number {
  const raw = String(value);
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || !Number.isSafeInteger(n))
    throw new ContractsError('USAGE', `--${name} must be a whole number of at least 1, not "${raw}"`);
  return n;
}

function megabytes(name: string, value: unknown): number {
  const n = Number(value);
  if (!(n > 0) || n > 1024)
    throw new ContractsError('USAGE', `--${name} must be a number of megabytes from 0 to 1024, not "${String(value)}"`);
  return Math.round(n * 2 ** 20);
}
