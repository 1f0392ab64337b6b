// A result's error findings as lines a person reads: each message once, with how often it was seen, and how many
// were left out. Messages are self-contained (the core puts the path and the actual value in them).
import type { CheckResult } from './results.js';

export function findingLines(result: CheckResult, most: number): string[] {
  const errors = result.findings.filter((finding) => finding.severity === 'error');
  const lines = errors
    .slice(0, most)
    .map((finding) => `${finding.message}${(finding.count ?? 1) > 1 ? ` (seen ${finding.count} times)` : ''}`);
  const more = Math.max(0, errors.length - most) + (result.omitted ?? 0);
  if (more > 0) lines.push(`… and ${more} more`);
  return lines;
}
