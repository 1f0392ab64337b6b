// The seed rules table is one table in code; the example APIs page (docs/example-apis.md) holds exactly its
// rendering, and every check it names is
// planned by a full run against a conforming server.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileContract } from '../../src/core/compile-contract.js';
import { behaviourPairs, seedBehaviour, seedRules, seedRulesMarkdown } from '../../src/plugins/seed-rules.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { specPath } from '../../src/config/project.js';
import { seedProject } from '../../src/config/seed-project.js';
import { planChecks } from '../../src/runner/plan.js';
import { root } from '../helpers/paths.js';

describe('the seed rules table', () => {
  it('is what the example APIs page shows between its seed-rules markers', async () => {
    const readme = await readFile(path.join(root, 'docs/example-apis.md'), 'utf8');
    const between = /<!-- seed-rules:start -->\n([\s\S]*?)\n<!-- seed-rules:end -->/.exec(readme)?.[1];
    expect(between).toBe(seedRulesMarkdown());
  });

  it.each(['client-session', 'repository-webhooks'] as const)(
    'names only operations of the %s spec, and the full plan judges every check it names',
    async (api) => {
      const contract = compileContract(await loadSpec(specPath(seedProject.api(api))));
      const plan = planChecks(api, contract, 'full', { behaviour: seedBehaviour(api) });
      const planned = new Set(plan.checks.map((entry) => `${entry.operation} ${entry.check}`));
      for (const rule of seedRules.filter((candidate) => candidate.api === api)) {
        for (const { check, operations } of rule.checks) {
          for (const operation of operations) {
            if (operation === '*')
              expect(
                [...planned].some((entry) => entry.endsWith(` ${check}`)),
                check,
              ).toBe(true);
            else expect(planned, `${operation} ${check}`).toContain(`${operation} ${check}`);
          }
        }
      }
      expect(plan.skipped).toEqual([]);
    },
  );

  it('covers every numbered rule of the webhooks seed\'s "Rules per endpoint" and "Events" sections', () => {
    const sources = seedRules
      .filter((rule) => rule.api === 'repository-webhooks')
      .map((rule) => rule.source)
      .join('; ');
    for (const n of [1, 2, 3, 4, 5, 6, 7]) expect(sources).toMatch(new RegExp(`Rules per endpoint ${n}\\b`));
    for (const n of [1, 2, 3, 4, 5, 6]) expect(sources).toMatch(new RegExp(`Events (?:\\d, )*${n}\\b`));
    expect(sources).toContain('Authentication');
  });
});

describe('behaviourPairs', () => {
  it('lists the behavioural (check, operation) pairs of an API, in table order, without the per-exchange checks', () => {
    const perExchange = new Set(['response_schema_conformance', 'payment_method_placement']);
    expect(behaviourPairs('client-session', perExchange)).toEqual([
      { check: 'auth_required', operation: 'retrieveClientSession' },
      { check: 'api_version_enforced', operation: 'retrieveClientSession' },
    ]);
    const hooks = behaviourPairs('repository-webhooks', perExchange);
    expect(hooks).toContainEqual({ check: 'events_default_push', operation: 'createWebhook' });
    expect(hooks.length).toBe(
      seedRules
        .filter((rule) => rule.api === 'repository-webhooks')
        .flatMap((rule) => rule.checks.filter(({ check }) => !perExchange.has(check)))
        .reduce((sum, { operations }) => sum + operations.length, 0),
    );
    expect(behaviourPairs('nowhere', perExchange)).toEqual([]);
  });
});
