// The engine of our own never serves what its spec refuses: whatever the request (valid or not, any Prefer, HEAD),
// its answer passes the core's exchange checks (a refusal's undocumented 4xx excused, refusal-rule.ts) or is the
// mock's own 500 that says it could not make one (mock-refusal.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkExchange } from '../../src/core/check-exchange.js';
import { checkRequest } from '../../src/core/check-request.js';
import { compileContract } from '../../src/core/compile-contract.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { mockRefusal } from '../../src/core/mock-refusal.js';
import { excuseRefusal } from '../../src/core/refusal-rule.js';
import { answerRequest, type Engine } from '../../src/mock/engine/answer-request.js';
import { basePaths, route } from '../../src/mock/engine/route.js';
import { root } from '../helpers/paths.js';

const fixture = `${root}/tests/fixtures/mock-engine/shop.yaml`;

async function engineOf(file: string): Promise<Engine> {
  const spec = await loadSpec(file);
  return {
    contract: compileContract(spec, { lazy: true, lazyRequests: true }),
    bases: basePaths(spec.document),
    answers: new Map(),
  };
}

const requests = fc.record({
  method: fc.constantFrom('GET', 'POST', 'HEAD', 'PUT'),
  path: fc.constantFrom('/items', '/api/v2/items', '/items/special', '/items/it_abc123', '/items/x', '/impossible'),
  query: fc.constantFrom('', 'limit=3', 'limit=0', 'limit=abc', 'limit=3&limit=4'),
  key: fc.boolean(),
  prefer: fc.constantFrom(undefined, 'code=404', 'code=422', 'code=201', 'example=two', 'example=broken', 'code=500'),
  body: fc.oneof(fc.constant(''), fc.constant('{"name":"x"}'), fc.json()),
});

describe('the engine of our own', () => {
  it('never serves an answer the spec refuses, whatever the request', async () => {
    const engine = await engineOf(fixture);
    const { contract } = engine;
    fc.assert(
      fc.property(requests, ({ method, path, query, key, prefer, body }) => {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (key) headers['x-key'] = 'k';
        if (prefer) headers.prefer = prefer;
        const answer = answerRequest(engine, { method, path, query, headers, body });
        const routed = route(contract.operations, engine.bases, method, path);
        // The spec says nothing about a request that reaches none of its operations (404, 405).
        if (routed.kind !== 'operation') {
          expect([404, 405]).toContain(answer.status);
          return;
        }
        if (mockRefusal(answer) !== undefined) return;
        const as = { method: routed.match.operation.method, path: routed.path };
        const request = checkRequest(contract, { method: as.method, path: as.path, query, headers, body });
        const judged = excuseRefusal(checkExchange(contract, { ...as, ...answer }), request, answer.status);
        expect(judged.findings.filter((finding) => finding.severity === 'error')).toEqual([]);
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it("makes a refusal's documented body once per operation and status, each answer with its own reason", async () => {
    const engine = await engineOf(fixture);
    const refuse = (query: string) =>
      answerRequest(engine, { method: 'GET', path: '/items', query, headers: {}, body: '' });
    const [low, text] = [refuse('limit=0'), refuse('limit=abc')];
    expect([low.status, text.status]).toEqual([422, 422]);
    expect([...engine.answers.keys()]).toEqual(['refusal\nlistItems\n422\n']);
    const reasons = [low, text].map((answer) => (JSON.parse(answer.body) as { message: string }).message);
    expect(reasons[0]).toMatch(/limit/);
    expect(reasons[1]).toMatch(/limit/);
    expect(reasons[0]).not.toEqual(reasons[1]);
  });

  it.each([
    ['a schema no value satisfies', '/impossible', undefined],
    ['an undocumented Prefer code', '/items', 'code=418'],
    ['a named example that is not there', '/items', 'example=absent'],
  ])("answers %s with the mock's own 500", async (_name, path, prefer) => {
    const engine = await engineOf(fixture);
    const answer = answerRequest(engine, {
      method: 'GET',
      path,
      query: '',
      headers: prefer ? { prefer } : {},
      body: '',
    });
    expect({ status: answer.status, refusal: mockRefusal(answer) !== undefined }).toEqual({
      status: 500,
      refusal: true,
    });
  });
});
