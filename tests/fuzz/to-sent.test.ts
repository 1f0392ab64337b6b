// The URL a case is sent to is built by joining strings where the URL parser would leave them as they are, and by
// the parser otherwise: either way it is what new URL(base + path) with the query appended gives, for any value that
// can be one path segment. One that cannot (`..`, `%2e`, empty: core/path-segment.ts) is never sent: no URL is built.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { specPath } from '../../src/config/project.js';
import { seedProject } from '../../src/config/seed-project.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { Executor, type ApiTarget, type ExecutorOptions } from '../../src/fuzz/executor.js';
import { pathSegmentProblem } from '../../src/core/path-segment.js';
import { type RequestBinder, UnsendablePath } from '../../src/fuzz/request-binding.js';
import { operationModels } from '../../src/fuzz/request-model.js';

const executor = new Executor({} as ExecutorOptions);

/** The URL as the parser makes it: what toSent gave before it joined strings. */
function parsed(base: string, template: string, path: Record<string, unknown>, query: Record<string, unknown>) {
  const url = new URL(
    base + template.replace(/\{([^}]+)\}/g, (_match, name: string) => encodeURIComponent(String(path[name] ?? ''))),
  );
  for (const [name, value] of Object.entries(query)) url.searchParams.append(name, String(value));
  return url.toString();
}

describe("a case's URL", () => {
  it('is the parsed URL, whatever the path and query values and the base, or none for a value that is no segment', async () => {
    const spec = await loadSpec(specPath(seedProject.api('repository-webhooks')));
    const model = operationModels(spec).find((candidate) => candidate.operationId === 'getWebhookDelivery')!;
    const value = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.constantFrom('.', '..', '%2e', '%2E%2e', 'a b', 'é', '#', '?', '/', '\\', '%', '%zz'),
      fc.integer(),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(
          'http://127.0.0.1:4010',
          'https://api.example.com/v3',
          'http://[::1]:4010',
          'http://EXAMPLE.com:80/a/../b',
          'http://h/é',
          // An empty query or fragment passes --base-url's checks.
          'http://h/api?',
          'http://h/api#',
        ),
        // The spec's template, and templates a config's spec may have, which the parser would change.
        fc.constantFrom(model.pathTemplate, '/café/{owner}', '/a b/{repo}/"q"', '/x/./{owner}', '/x/%2E%2e/{repo}'),
        fc.record({ owner: value, repo: value, hook_id: value, delivery_id: value }),
        fc.dictionary(fc.string({ unit: 'binary' }), value, { maxKeys: 3 }),
        (base, pathTemplate, path, query) => {
          const target = { api: 'repository-webhooks', baseUrl: base } as ApiTarget;
          const request = { path, query, headers: {} } as Parameters<RequestBinder['toSent']>[2];
          const send = () => executor.binder.toSent(target, { ...model, pathTemplate }, request);
          const refused = Object.entries(path).some(
            ([name, value]) => pathTemplate.includes(`{${name}}`) && pathSegmentProblem(value as string) !== undefined,
          );
          if (refused) expect(send).toThrow(UnsendablePath);
          else expect(send().url).toBe(parsed(base, pathTemplate, path, query));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
