// What a `contracts receive` session got, as a check run: every delivery judged by the checks it was held to,
// under its webhook's operation, so the console, JUnit and JSON reports of `check` serve it unchanged.
import { ResultCollector, summarize } from '../reports/results.js';
import type { CheckRun } from '../reports/check-run.js';
import type { StoredDelivery } from './start-receiver.js';

export function receiveRun(
  api: string,
  url: string,
  deliveries: readonly StoredDelivery[],
  durationMs: number,
): CheckRun {
  const results = new ResultCollector();
  for (const delivery of deliveries) {
    for (const check of delivery.result.applied) {
      results.record(
        api,
        delivery.result.operation,
        check,
        delivery.result.findings.filter((finding) => finding.check === check),
      );
    }
  }
  const all = results.all();
  return {
    mode: 'receive',
    targets: { [api]: url },
    results: all,
    summary: summarize(all),
    notRun: [],
    durationMs,
  };
}

/** One line per delivery: what came, what was answered, and the first findings. */
export function deliveryLine(delivery: StoredDelivery): string {
  const { result } = delivery;
  const errors = result.findings.filter((finding) => finding.severity === 'error');
  // The GUID and hook are the repository-webhooks example's headers: shown when a delivery carries them.
  const ids =
    result.guid === undefined && result.hookId === undefined
      ? ''
      : ` ${result.guid ?? '(no guid)'} hook ${result.hookId ?? '?'}`;
  const head = `${errors.length === 0 ? '✓' : '✗'} ${result.event ?? `(${result.identified})`}${ids} → ${delivery.status}`;
  if (errors.length === 0) return `${head}: ${result.applied.join(', ')} held`;
  const shown = errors
    .slice(0, 5)
    .map(
      (finding) => `    ${finding.check}: ${finding.instancePath ? `${finding.instancePath}: ` : ''}${finding.message}`,
    );
  return [head, ...shown, ...(errors.length > 5 ? [`    … ${errors.length - 5} more`] : [])].join('\n');
}
