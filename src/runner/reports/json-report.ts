// `--report json:FILE`: { summary: { passed, failed, skipped }, results: [{ api, operation, check, status, findings }] }.
import type { CheckRun } from '../run-check.js';

export function jsonReport(run: CheckRun): string {
  return JSON.stringify(
    {
      summary: run.summary,
      mode: run.mode,
      targets: run.targets,
      ...(run.error ? { error: { code: run.error.code, message: run.error.message } } : {}),
      results: run.results.map(({ api, operation, check, status, findings, reason }) => ({ api, operation, check, status, findings, ...(reason ? { reason } : {}) })),
    },
    null,
    2,
  );
}
