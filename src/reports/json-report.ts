// `--report json:FILE`: { summary, mode, targets, error?, notRun, results: [{ api, operation, check, status,
// findings, reason?, durationMs, omitted? }] }. Findings carry `actual`, and `count` when seen more than once.
import type { CheckRun } from '../reports/check-run.js';

export function jsonReport(run: CheckRun): string {
  return JSON.stringify(
    {
      summary: run.summary,
      mode: run.mode,
      targets: run.targets,
      ...(run.error ? { error: { code: run.error.code, message: run.error.message } } : {}),
      notRun: run.notRun,
      results: run.results.map(({ api, operation, check, status, findings, reason, durationMs, omitted }) => ({
        api,
        operation,
        check,
        status,
        findings,
        ...(reason ? { reason } : {}),
        durationMs: Math.round(durationMs),
        ...(omitted ? { omitted } : {}),
      })),
    },
    null,
    2,
  );
}
