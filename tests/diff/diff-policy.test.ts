// A project's decisions about diff results: levels per rule and accepted changes, with every refusal's words.
import { describe, expect, it } from 'vitest';
import {
  applyPolicy,
  parseIgnoreEntries,
  parseLevels,
  rulesHelp,
  type DiffPolicy,
} from '../../src/core/diff/diff-policy.js';
import { diffRules } from '../../src/core/diff/diff-rules.js';
import type { SpecChange } from '../../src/core/diff/spec-change.js';

const change = (over: Partial<SpecChange> = {}): SpecChange => ({
  rule: 'response-property-removed',
  level: 'error',
  message: 'm',
  operations: ['GET /items → 200 (application/json)'],
  side: 'base',
  file: 'api.yaml',
  line: 12,
  column: 3,
  path: ['paths'],
  ...over,
});
const policy = (over: Partial<DiffPolicy> = {}): DiffPolicy => ({ levels: new Map(), ignores: [], ...over });

describe('applyPolicy', () => {
  it('keeps a change as it is without a policy', () => {
    expect(applyPolicy([change()], policy())).toEqual({ changes: [change()], ignored: [] });
  });

  it('sets a rule’s level, and drops the rule set off', () => {
    const levels = parseLevels(['response-property-removed=warning', 'operation-added=off']);
    const result = applyPolicy([change(), change({ rule: 'operation-added', level: 'info' })], policy({ levels }));
    expect(result).toEqual({ changes: [change({ level: 'warning' })], ignored: [] });
  });

  it.each([
    ['everywhere', undefined, true],
    ['in its file', 'api.yaml', true],
    ['at its line', 'api.yaml:12', true],
    ['at another line', 'api.yaml:13', false],
    ['in another file', 'other.yaml', false],
    ['for the start of its operation', 'GET /items', true],
    ['for the whole operation', 'GET /items → 200 (application/json)', true],
    ['for another operation', 'POST /items', false],
    ['for a part of the operation that is not its start', '/items', false],
  ])('ignores a change accepted %s: %s', (_name, location, ignored) => {
    const ignores = parseIgnoreEntries('i.yaml', [{ rule: 'response-property-removed', location, reason: 'agreed' }]);
    const levels = parseLevels(['response-property-removed=warning']);
    const result = applyPolicy([change()], policy({ ignores, levels }));
    const leveled = change({ level: 'warning' });
    expect(result).toEqual(
      ignored ? { changes: [], ignored: [{ change: leveled, reason: 'agreed' }] } : { changes: [leveled], ignored: [] },
    );
  });

  it('ignores only the rule an entry names', () => {
    const ignores = parseIgnoreEntries('i.yaml', [{ rule: 'operation-added', reason: 'r' }]);
    expect(applyPolicy([change()], policy({ ignores }))).toEqual({ changes: [change()], ignored: [] });
  });
});

describe('parseLevels', () => {
  it.each([
    ['nope=error', '--level: unknown rule "nope" (see the rules in `contracts diff --help`)'],
    ['operation-added', '--level operation-added= takes one of error, warning, info, off, not ""'],
    ['operation-added=loud', '--level operation-added= takes one of error, warning, info, off, not "loud"'],
    ['=error', '--level: unknown rule "" (see the rules in `contracts diff --help`)'],
  ])('refuses %s', (value, message) => {
    expect(() => parseLevels([value])).toThrow(expect.objectContaining({ code: 'USAGE', message }));
  });

  it('reads every level', () => {
    const levels = parseLevels(['operation-added=error', 'path-removed=info', 'operation-removed=off']);
    expect([...levels]).toEqual([
      ['operation-added', 'error'],
      ['path-removed', 'info'],
      ['operation-removed', 'off'],
    ]);
  });
});

describe('parseIgnoreEntries', () => {
  it('reads an empty file as no entries', () => {
    expect(parseIgnoreEntries('i.yaml', null)).toEqual([]);
    expect(parseIgnoreEntries('i.yaml', undefined)).toEqual([]);
  });

  it('keeps the location only when there is one', () => {
    expect(
      parseIgnoreEntries('i.yaml', [
        { rule: 'path-removed', reason: 'r' },
        { rule: 'path-removed', location: 'a.yaml', reason: 'r2', extra: 1 },
      ]),
    ).toEqual([
      { rule: 'path-removed', reason: 'r' },
      { rule: 'path-removed', location: 'a.yaml', reason: 'r2' },
    ]);
  });

  it.each([
    ['a map', { rule: 'path-removed' }, 'i.yaml: expected a list of { rule, location, reason }'],
    [
      'an unknown rule',
      [{ rule: 'nope', reason: 'r' }],
      'i.yaml: entry 1: rule must be one of the diff rules, not "nope"',
    ],
    ['no rule', [{ reason: 'r' }], 'i.yaml: entry 1: rule must be one of the diff rules, not null'],
    ['a null entry', [null], 'i.yaml: entry 1: rule must be one of the diff rules, not null'],
    [
      'a rule that is no string',
      [{ rule: 5, reason: 'r' }],
      'i.yaml: entry 1: rule must be one of the diff rules, not 5',
    ],
    [
      'no reason',
      [{ rule: 'path-removed', reason: 'r' }, { rule: 'path-removed' }],
      'i.yaml: entry 2: every ignored change needs a reason',
    ],
    [
      'a blank reason',
      [{ rule: 'path-removed', reason: '  ' }],
      'i.yaml: entry 1: every ignored change needs a reason',
    ],
    [
      'a reason that is no string',
      [{ rule: 'path-removed', reason: 3 }],
      'i.yaml: entry 1: every ignored change needs a reason',
    ],
    [
      'a location that is no string',
      [{ rule: 'path-removed', reason: 'r', location: 3 }],
      'i.yaml: entry 1: location must be a string',
    ],
  ])('refuses %s, naming the entry', (_name, parsed, message) => {
    expect(() => parseIgnoreEntries('i.yaml', parsed)).toThrow(
      expect.objectContaining({ code: 'INPUT_NOT_READABLE', message }),
    );
  });
});

describe('rulesHelp', () => {
  it('lists every rule in a column, with its level and description', () => {
    const lines = rulesHelp().split('\n');
    const width = Math.max(...diffRules.map((rule) => rule.id.length));
    expect(lines).toHaveLength(diffRules.length);
    expect(lines[0]).toBe(
      `  ${diffRules[0]!.id.padEnd(width)}  ${diffRules[0]!.level.padEnd(7)}  ${diffRules[0]!.description}`,
    );
    // Every level starts in the same column.
    expect(lines.map((line) => line.slice(width + 4, width + 11).trim())).toEqual(diffRules.map((rule) => rule.level));
  });
});
