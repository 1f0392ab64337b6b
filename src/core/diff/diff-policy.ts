// What a project decides about diff results: per-rule levels (`--level RULE=LEVEL`) and accepted changes
// (`.contracts-diff-ignore.yaml`, each with its reason). Pure: the CLI reads the file, this applies it.
import { ContractsError } from '../errors.js';
import { diffRules, isDiffRuleId, type DiffLevel, type DiffRuleId } from './diff-rules.js';
import type { SpecChange } from './spec-change.js';

export interface IgnoreEntry {
  rule: DiffRuleId;
  /** A file, `file:line`, or the start of an operation (`GET /client-session`); absent: everywhere. */
  location?: string;
  reason: string;
}

export interface DiffPolicy {
  levels: Map<DiffRuleId, DiffLevel | 'off'>;
  ignores: IgnoreEntry[];
}

export interface PolicyResult {
  changes: SpecChange[];
  ignored: { change: SpecChange; reason: string }[];
}

export const levelChoices = ['error', 'warning', 'info', 'off'] as const;

export function applyPolicy(changes: SpecChange[], policy: DiffPolicy): PolicyResult {
  const result: PolicyResult = { changes: [], ignored: [] };
  for (const change of changes) {
    const level = policy.levels.get(change.rule) ?? defaultLevel(change);
    if (level === 'off') continue;
    const entry = policy.ignores.find((e) => e.rule === change.rule && matches(e.location, change));
    const leveled = { ...change, level };
    if (entry) result.ignored.push({ change: leveled, reason: entry.reason });
    else result.changes.push(leveled);
  }
  return result;
}

/**
 * A change's level when the project sets none. What changed in a request or response body could not be decided
 * (past a budget, an overlapping oneOf): it may break every client, so it fails `--fail-on error` until a person
 * says otherwise (`--level schema-change-undecided=warning`, or the ignore file with a reason). The rule's own level
 * (diff-rules.ts) stays a warning for what it says elsewhere (a parameter, a header).
 */
function defaultLevel(change: SpecChange): DiffLevel {
  return change.rule === 'schema-change-undecided' && /^(request|response) body\b/.test(change.message)
    ? 'error'
    : change.level;
}

function matches(location: string | undefined, change: SpecChange): boolean {
  if (location === undefined) return true;
  return (
    location === change.file ||
    location === `${change.file}:${change.line}` ||
    change.operations.some((op) => op.startsWith(location))
  );
}

/** `RULE=LEVEL` options → levels; a bad one is a usage error naming the choices. */
export function parseLevels(values: readonly string[]): Map<DiffRuleId, DiffLevel | 'off'> {
  const levels = new Map<DiffRuleId, DiffLevel | 'off'>();
  for (const value of values) {
    const [rule = '', level = ''] = value.split('=');
    if (!isDiffRuleId(rule))
      throw new ContractsError('USAGE', `--level: unknown rule "${rule}" (see the rules in \`contracts diff --help\`)`);
    if (!(levelChoices as readonly string[]).includes(level))
      throw new ContractsError('USAGE', `--level ${rule}= takes one of ${levelChoices.join(', ')}, not "${level}"`);
    levels.set(rule, level as DiffLevel | 'off');
  }
  return levels;
}

/** The parsed ignore file (a YAML list) → entries; anything malformed is one clear line naming the entry. */
export function parseIgnoreEntries(file: string, parsed: unknown): IgnoreEntry[] {
  const list = parsed === null || parsed === undefined ? [] : parsed;
  if (!Array.isArray(list))
    throw new ContractsError('INPUT_NOT_READABLE', `${file}: expected a list of { rule, location, reason }`);
  return list.map((raw, index) => {
    const entry = (raw ?? {}) as Record<string, unknown>;
    const where = `${file}: entry ${index + 1}`;
    if (typeof entry.rule !== 'string' || !isDiffRuleId(entry.rule)) {
      throw new ContractsError(
        'INPUT_NOT_READABLE',
        `${where}: rule must be one of the diff rules, not ${JSON.stringify(entry.rule ?? null)}`,
      );
    }
    if (typeof entry.reason !== 'string' || entry.reason.trim() === '')
      throw new ContractsError('INPUT_NOT_READABLE', `${where}: every ignored change needs a reason`);
    if (entry.location !== undefined && typeof entry.location !== 'string')
      throw new ContractsError('INPUT_NOT_READABLE', `${where}: location must be a string`);
    return {
      rule: entry.rule,
      reason: entry.reason,
      ...(typeof entry.location === 'string' ? { location: entry.location } : {}),
    };
  });
}

/** The rule table as text, for `contracts diff --help`. */
export function rulesHelp(): string {
  const width = Math.max(...diffRules.map((rule) => rule.id.length));
  return diffRules.map((rule) => `  ${rule.id.padEnd(width)}  ${rule.level.padEnd(7)}  ${rule.description}`).join('\n');
}
