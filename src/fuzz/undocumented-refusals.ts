// Spec quality: a refusal the operation does not document. A 4xx answer to a request that breaks the spec is the
// refusal it deserves, documented or not (src/core/refusal-rule.ts): no failure. But a status the Responses Object
// leaves out (OpenAPI 3.1 §4.8.16: "default" covers any status, "4XX" a range) is one the spec's clients cannot
// plan for: Unleash answered 401 on 44 operations and 400 on 33 that document neither. Said once per operation and
// status, as a warning: the report shows it, the exit code does not change.
import type { CheckName, Finding } from '../core/finding.js';
import type { ResultStatus, ReportedFinding } from '../reports/results.js';
import type { OperationModel } from './request-model.js';

/** Whether the operation's responses cover `status`: the code itself, its range (4XX), or default. */
export function documentsStatus(statuses: readonly string[], status: number): boolean {
  const range = `${String(status)[0]}XX`;
  return statuses.some((key) => key === String(status) || key.toUpperCase() === range || key === 'default');
}

export class UndocumentedRefusals {
  private readonly said = new Set<string>();

  /** A warning for a 4xx the operation does not document, the first time this operation answers it; else none. */
  warn(api: string, model: OperationModel, status: number, check: CheckName): Finding[] {
    if (status < 400 || status > 499 || documentsStatus(model.statuses, status)) return [];
    const key = `${api}\u0000${model.operationId}\u0000${status}`;
    if (this.said.has(key)) return [];
    this.said.add(key);
    return [
      {
        check,
        severity: 'warning',
        operation: model.operationId,
        instancePath: '',
        message: `${model.method} ${model.pathTemplate} answered ${status}, which the operation does not document (spec quality)`,
        expected: model.statuses,
        actual: status,
      },
    ];
  }
}

/** The report's lines for the warnings among an operation's results, one each. */
export function warningLines(checks: readonly { status: ResultStatus; findings: readonly ReportedFinding[] }[]) {
  return checks.flatMap((check) =>
    check.findings.filter((finding) => finding.severity === 'warning').map((finding) => `      ! ${finding.message}`),
  );
}
