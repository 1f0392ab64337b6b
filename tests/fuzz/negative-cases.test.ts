// No false positives by construction: every case the fuzzer would send as negative breaks the spec as the server
// reads it off the wire (path decoded, headers trimmed, query as text, body parsed), and every case it would send as
// positive is valid there. Judged by the compiled validators on the request rebuilt from the wire form.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { specPath } from '../../src/config/project.js';
import { seedProject } from '../../src/config/seed-project.js';
import { compileContract } from '../../src/core/compile-contract.js';
import { compileSpec } from '../../src/core/compile-spec.js';
import { loadSpec } from '../../src/core/load-spec.js';
import type { SentRequest } from '../../src/fuzz/curl-line.js';
import { classify, Executor, sendable, type ApiTarget } from '../../src/fuzz/executor.js';
import type { FuzzCase } from '../../src/fuzz/fuzz-case.js';
import {
  negativeArbitrary,
  negativePhase,
  randomArbitrary,
  boundariesPhase,
  type Generator,
} from '../../src/fuzz/generate-cases.js';
import { operationModels, violations, type OperationModel, type RequestData } from '../../src/fuzz/request-model.js';
import { HttpCapture } from '../../src/http/http-capture.js';
import { fuzzPluginsOf } from '../../src/plugins/registry.js';
import { HookFixtures } from '../../src/plugins/repository-webhooks/fuzz/hook-fixtures.js';
import { ResultCollector } from '../../src/reports/results.js';

async function setUp(api: string) {
  const spec = await loadSpec(specPath(seedProject.api(api)));
  const models = operationModels(spec);
  const target: ApiTarget = {
    api,
    baseUrl: 'http://127.0.0.1:1',
    contract: compileContract(spec),
    compiled: compileSpec(spec),
    models: new Map(models.map((m) => [m.operationId, m])),
  };
  const executor = new Executor({
    capture: new HttpCapture({ timeoutMs: 1000 }),
    env: {},
    plugins: await fuzzPluginsOf([api]),
    settings: { owner: 'octo', repo: 'app', hookUrl: 'http://127.0.0.1:9/contracts-check', readOnly: false },
    marker: 'm',
    rate: 0,
    strict: false,
    results: new ResultCollector(),
    seed: 1,
    deadline: Infinity,
    log: () => undefined,
    addSecret: () => undefined,
  });
  // The run's hook and delivery, as the webhooks fixtures hold them once made.
  const fixtures = executor.fixturesOf(api);
  if (fixtures instanceof HookFixtures) {
    fixtures.sharedHook = 7;
    fixtures.sharedDelivery = 9;
    fixtures.ownHooks.set(7, 'http://127.0.0.1:9/contracts-check?contracts-fuzz=m-1');
  }
  return { spec, target, executor };
}

/** The request as a server reads it: the path matched and decoded, query and headers as text (headers trimmed). */
function fromWire(model: OperationModel, sent: SentRequest): RequestData {
  const url = new URL(sent.url);
  const names: string[] = [];
  const pattern = new RegExp(
    '^' + model.pathTemplate.replace(/\{([^}]+)\}/g, (_m, name: string) => (names.push(name), '([^/]*)')) + '$',
  );
  const match = pattern.exec(url.pathname)!;
  const headers = new Headers(sent.headers);
  const request: RequestData = { path: {}, query: {}, headers: {} };
  names.forEach((name, index) => (request.path[name] = decodeURIComponent(match[index + 1]!)));
  for (const [name, value] of url.searchParams) request.query[name] = value;
  headers.forEach((value, name) => (request.headers[name] = value));
  // A body that is not JSON (a negative case's truncated text) is read back as the text it is.
  if (sent.body !== undefined) {
    try {
      request.body = JSON.parse(sent.body);
    } catch {
      request.rawBody = sent.body;
    }
  }
  return request;
}

describe.each(seedProject.names)('the cases generated for %s', (api) => {
  it('are, when sent as negative, invalid as the server reads them, and when sent as positive, valid', async () => {
    const { spec, target, executor } = await setUp(api);
    let negatives = 0;
    let positives = 0;
    for (const model of target.models.values()) {
      const plugin = executor.options.plugins?.(api);
      const generator: Generator = { api, document: spec.document, model, ...(plugin ? { plugin } : {}) };
      const cases: FuzzCase[] = [
        ...negativePhase(generator),
        ...boundariesPhase(generator),
        ...fc.sample(negativeArbitrary(generator), { seed: 42, numRuns: 100 }),
        ...fc.sample(randomArbitrary(generator), { seed: 42, numRuns: 100 }),
      ];
      for (const fuzzCase of cases) {
        const request = executor.binder.bind(model, fuzzCase);
        const { verdict } = classify(model, target.compiled, request);
        if (!sendable(fuzzCase, verdict)) continue;
        const back = fromWire(model, executor.binder.toSent(target, model, request));
        const broken = violations(model, target.compiled, back);
        if (verdict === 'positive') {
          positives++;
          expect(broken, `${model.operationId}: ${fuzzCase.note}`).toEqual([]);
        } else {
          negatives++;
          expect(broken.length, `${model.operationId}: ${fuzzCase.note} was sent as negative`).toBeGreaterThan(0);
        }
      }
    }
    expect(negatives).toBeGreaterThan(api === 'client-session' ? 3 : 300);
    expect(positives).toBeGreaterThan(api === 'client-session' ? 10 : 300);
  });
});

describe('the guard before sending', () => {
  it.each([
    ['a padded X-API-VERSION is the same header once trimmed', { 'X-API-VERSION': ' 2.4 ' }, 'positive'],
    ['per_page written as text is the number on the wire', { per_page: '5' }, 'positive'],
    ['X-API-VERSION 2.3 breaks the enum', { 'X-API-VERSION': '2.3' }, 'negative'],
  ] as const)('%s', async (_name, values, want) => {
    const { target, executor } = await setUp('per_page' in values ? 'repository-webhooks' : 'client-session');
    const model = target.models.get('per_page' in values ? 'listWebhooks' : 'retrieveClientSession')!;
    const fuzzCase: FuzzCase = {
      api: target.api,
      operationId: model.operationId,
      phase: 'negative',
      intent: 'negative',
      note: 'claimed negative',
      request: {
        path: {},
        query: 'per_page' in values ? { per_page: values.per_page } : {},
        headers: 'per_page' in values ? {} : { ...values },
      },
    };
    const { verdict } = classify(model, target.compiled, executor.binder.bind(model, fuzzCase));
    expect(verdict).toBe(want);
    // A case claimed negative that the spec allows is never sent (Schemathesis's false positives, by construction).
    expect(sendable(fuzzCase, verdict)).toBe(want !== 'positive');
  });
});
