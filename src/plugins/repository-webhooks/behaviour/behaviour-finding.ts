// Helpers shared by the behavioural checks: rules the webhooks seed states across a sequence of calls.
import type { CheckName, Finding } from '../../../core/finding.js';

export function behaviourFinding(
  check: CheckName,
  operation: string,
  message: string,
  extra: Partial<Finding> = {},
): Finding {
  return { check, severity: 'error', operation, instancePath: '', message, ...extra };
}

/** The events array of a webhook body, or undefined when the body has none. */
export function eventsOf(body: unknown): string[] | undefined {
  const events = (body as { events?: unknown } | null)?.events;
  return Array.isArray(events) ? events.map(String) : undefined;
}

export const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item) => b.includes(item)) && b.every((item) => a.includes(item));
export const list = (items: readonly string[]) => `[${items.join(', ')}]`;
