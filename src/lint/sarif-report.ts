// Lint problems as a SARIF 2.1.0 log (https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html), the format
// code-scanning services (GitHub code scanning among them) import.
import { type LintProblem, problemPointer, type Severity } from './lint-problem.js';

const sarifLevel: Record<Severity, 'error' | 'warning' | 'note'> = {
  error: 'error',
  warning: 'warning',
  info: 'note',
  hint: 'note',
};

export function sarifLog(problems: LintProblem[], toolVersion: string): object {
  const ruleIds = [...new Set(problems.map((p) => p.rule))].sort();
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'contracts lint',
            version: toolVersion,
            rules: ruleIds.map((id) => ({ id, shortDescription: { text: id } })),
          },
        },
        results: problems.map((problem) => ({
          ruleId: problem.rule,
          ruleIndex: ruleIds.indexOf(problem.rule),
          level: sarifLevel[problem.severity],
          message: { text: problem.message },
          locations: [
            {
              physicalLocation: {
                // A relative URI against the checkout root: how code scanning finds the file.
                artifactLocation: { uri: encodeURI(problem.file.split('\\').join('/')), uriBaseId: '%SRCROOT%' },
                region: { startLine: Math.max(1, problem.line), startColumn: Math.max(1, problem.column) },
              },
              // The JSON pointer of the place (SARIF 2.1.0 §3.33 logicalLocation): a line alone cannot name it in a
              // spec written on one line.
              logicalLocations: [{ fullyQualifiedName: problemPointer(problem), kind: 'object' }],
            },
          ],
          properties: { pointer: problemPointer(problem) },
        })),
      },
    ],
  };
}
