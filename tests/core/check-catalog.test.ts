// The check catalog (what docs/reference/checks.md is written from) names each check findings can carry once: the
// generic engine's in the catalog, the example APIs' behaviour rules in their seed-rules table.
import { describe, expect, it } from 'vitest';
import { checkCatalog } from '../../src/core/check-catalog.js';
import { checkNames, exchangeCheckNames } from '../../src/core/finding.js';
import { seedRules } from '../../src/plugins/seed-rules.js';

describe('the check catalog', () => {
  it('names each check once', () => {
    const names = checkCatalog.map((entry) => entry.name);
    expect(names.length).toBe(new Set(names).size);
  });

  it("describes every check a finding can carry, or the example APIs' seed rules do", () => {
    const described = new Set<string>([
      ...checkCatalog.map((entry) => entry.name),
      ...seedRules.flatMap((rule) => rule.checks.map((entry) => entry.check)),
    ]);
    expect(checkNames.filter((name) => !described.has(name))).toEqual([]);
  });

  it('has every exchange check in the exchange family, with what it judges, its severity and who runs it', () => {
    for (const name of exchangeCheckNames)
      expect(checkCatalog.find((entry) => entry.name === name)?.family, name).toBe('exchange');
    for (const entry of checkCatalog) {
      expect(entry.judges.length, entry.name).toBeGreaterThan(20);
      expect(entry.severity, entry.name).toMatch(/^error/);
      expect(entry.runBy, entry.name).not.toBe('');
    }
  });
});
