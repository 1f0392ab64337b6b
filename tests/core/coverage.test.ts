import { beforeAll, describe, expect, it } from 'vitest';
import { compileContract, type Contract } from '../../src/core/compile-contract.js';
import { Coverage, coverageLines } from '../../src/core/coverage.js';
import { loadSpec, parseSpec } from '../../src/core/load-spec.js';
import { specFile } from '../helpers/paths.js';

let hooks: Contract;
let session: Contract;
beforeAll(async () => {
  hooks = compileContract(await loadSpec(specFile('repository-webhooks')));
  session = compileContract(await loadSpec(specFile('client-session')));
});

const json = { 'content-type': 'application/json' };

describe('Coverage', () => {
  it('counts documented operation × status pairs, by exact code, range or default', () => {
    const coverage = new Coverage([{ api: 'hooks', contract: hooks }]);
    coverage.recordResponse('hooks', 'getWebhook', { status: 200, headers: json });
    coverage.recordResponse('hooks', 'getWebhook', { status: 200, headers: json });
    coverage.recordResponse('hooks', 'getWebhook', { status: 404, headers: json });
    coverage.recordResponse('hooks', 'listWebhooks', { status: 500, headers: json });
    const report = coverage.report();
    expect(report.statusPairs).toEqual({ documented: 28, seen: 2, percent: 7.1 });
    expect(report.operations).toEqual({ documented: 12, exercised: 2 });
    const listed = report.perOperation.find((entry) => entry.operationId === 'listWebhooks')!;
    expect(listed.undocumentedStatuses).toEqual([500]);
  });

  it.each([
    ['top level only', { paymentMethod: {} }, '/paymentMethod only'],
    ['under order only', { order: { paymentMethod: {} } }, '/order/paymentMethod only'],
    ['both', { paymentMethod: {}, order: { paymentMethod: {} } }, 'both'],
    ['neither', { order: {} }, 'neither'],
  ])('names the placement branch a client-session response took: %s', (_name, body, branch) => {
    const coverage = new Coverage([{ api: 'session', contract: session }]);
    coverage.recordResponse('session', 'retrieveClientSession', { status: 200, headers: json, json: body });
    expect(coverage.report().perOperation[0]!.placement).toEqual({ [branch]: 1 });
  });

  it('counts the parameters requests carried, and says nothing of them when it saw responses only', () => {
    const coverage = new Coverage([{ api: 'hooks', contract: hooks }]);
    coverage.recordRequest('hooks', 'listWebhooks', { query: 'per_page=5', headers: {} });
    coverage.recordResponse('hooks', 'getWebhook', { status: 200, headers: json });
    const lines = coverageLines(coverage.report());
    expect(lines.find((line) => line.includes(' listWebhooks '))).toContain('parameters used: 3/4');
    expect(lines.find((line) => line.includes(' getWebhook '))).not.toContain('parameters used');
  });
});

describe('Coverage, figure by figure', () => {
  // A spec of its own: exact codes, a range and a default; two media types; parameters in path, query and header;
  // a placement rule on one response.
  const ok = (content?: Record<string, unknown>) => ({ description: 'd', ...(content ? { content } : {}) });
  const spec = {
    openapi: '3.1.0',
    info: { title: 'c', version: '1' },
    paths: {
      '/a/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        get: {
          operationId: 'getA',
          parameters: [
            { name: 'q', in: 'query', schema: { type: 'string' } },
            { name: 'X-H', in: 'header', schema: { type: 'string' } },
          ],
          responses: {
            '200': ok({ 'application/json': { schema: {} }, 'text/csv': { schema: {} } }),
            '4XX': ok({ 'application/problem+json': { schema: {} } }),
            default: ok(),
          },
        },
      },
      '/b': {
        get: {
          operationId: 'getB',
          responses: {
            '200': ok({
              'application/json': {
                schema: { 'x-payment-method-placement': { accepted: ['/pm', '/order/pm'] } },
              },
            }),
          },
        },
      },
      '/c': { post: { operationId: 'postC', responses: { '201': ok() } } },
    },
  };
  const contract = compileContract(parseSpec('c.json', JSON.stringify(spec)));

  it('counts requests, responses, media types, parameters, undocumented statuses and placement branches', () => {
    const coverage = new Coverage([{ api: 'c', contract }]);
    coverage.recordRequest('c', 'getA', { query: 'q=1&other=2', headers: { 'x-h': 'v' } });
    coverage.recordResponse('c', 'getA', { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8' } }, true);
    coverage.recordRequest('c', 'getA', { query: '', headers: {} });
    coverage.recordResponse(
      'c',
      'getA',
      { status: 404, headers: { 'content-type': 'application/problem+json' } },
      true,
    );
    coverage.recordResponse('c', 'getA', { status: 503, headers: {} });
    coverage.recordResponse('c', 'getA', { status: 200, headers: { 'content-type': 'application/xml' } });
    coverage.recordResponse('c', 'getB', {
      status: 200,
      headers: { 'content-type': 'application/json' },
      json: { order: { pm: {} } },
    });
    coverage.recordResponse('c', 'getB', {
      status: 200,
      headers: { 'content-type': 'application/json' },
      json: { pm: {} },
    });
    coverage.recordResponse('c', 'getB', {
      status: 200,
      headers: { 'content-type': 'application/json' },
      json: { pm: {} },
    });
    coverage.recordResponse('c', 'getB', { status: 200, headers: { 'content-type': 'application/json' } });
    for (const status of [500, 500, ...Array.from({ length: 25 }, (_, index) => 300 + index)])
      coverage.recordResponse('c', 'getB', { status, headers: {} });
    coverage.recordResponse('c', 'nowhere', { status: 200, headers: {} });
    coverage.recordRequest('other', 'getA', { query: '', headers: {} });
    const report = coverage.report();
    expect(report.operations).toEqual({ documented: 3, exercised: 2 });
    expect(report.statusPairs).toEqual({ documented: 5, seen: 4, percent: 80 });
    expect(report.perOperation).toEqual([
      {
        api: 'c',
        operationId: 'getA',
        calls: 4,
        statuses: { '200': true, '4XX': true, default: true },
        mediaTypes: {
          '200': { 'application/json': false, 'text/csv': true },
          '4XX': { 'application/problem+json': true },
        },
        parameters: { 'path id': true, 'query q': true, 'header X-H': true },
        requestsSeen: 2,
        undocumentedStatuses: [],
      },
      {
        api: 'c',
        operationId: 'getB',
        calls: 31,
        statuses: { '200': true },
        mediaTypes: { '200': { 'application/json': true } },
        parameters: {},
        requestsSeen: 0,
        undocumentedStatuses: [500, ...Array.from({ length: 19 }, (_, index) => 300 + index)],
        placement: { '/order/pm only': 1, '/pm only': 2 },
      },
      {
        api: 'c',
        operationId: 'postC',
        calls: 0,
        statuses: { '201': false },
        mediaTypes: {},
        parameters: {},
        requestsSeen: 0,
        undocumentedStatuses: [],
      },
    ]);
    expect(coverageLines(report)).toEqual([
      'coverage: 2/3 operations exercised; 4/5 documented operation × status pairs seen (80%)',
      '  ✓ c getA (4 calls): ✓200 ✓4XX ✓default; media types seen: 200 text/csv, 4XX application/problem+json; parameters used: 3/3',
      `  ✓ c getB (31 calls): ✓200; media types seen: 200 application/json; undocumented statuses: 500, ${Array.from({ length: 19 }, (_, index) => 300 + index).join(', ')}; placement: /order/pm only ×1, /pm only ×2`,
      '  · c postC (0 calls): ·201',
    ]);
    expect(coverage.wantsBody('c', 'getB')).toBe(true);
    expect(coverage.wantsBody('c', 'getA')).toBe(false);
    expect(coverage.wantsBody('other', 'getB')).toBe(false);
  });

  it('rounds the percentage down to a tenth, and calls an empty contract fully covered', () => {
    const coverage = new Coverage([{ api: 'c', contract }]);
    coverage.recordResponse('c', 'getA', { status: 200, headers: {} });
    expect(coverage.report().statusPairs).toEqual({ documented: 5, seen: 1, percent: 20 });
    coverage.recordResponse('c', 'postC', { status: 201, headers: {} });
    expect(coverage.report().statusPairs).toEqual({ documented: 5, seen: 2, percent: 40 });
    const thirds = new Coverage([{ api: 'h', contract: hooks }]);
    thirds.recordResponse('h', 'getWebhook', { status: 200, headers: {} });
    expect(thirds.report().statusPairs.percent).toBe(3.5);
    expect(new Coverage([]).report().statusPairs).toEqual({ documented: 0, seen: 0, percent: 100 });
  });

  it('counts in another thread what observations say, the same as here', () => {
    const here = new Coverage([{ api: 'c', contract }]);
    const observations = [
      here.observeRequest('c', 'getA', { query: 'q=1', headers: {} }),
      here.observeResponse('c', 'getA', { status: 200, headers: { 'content-type': 'application/json' } }, true),
      here.observeResponse('c', 'getB', {
        status: 200,
        headers: { 'content-type': 'application/json' },
        json: { pm: {}, order: { pm: {} } },
      }),
      here.observeResponse('c', 'getB', { status: 200, headers: { 'content-type': 'application/json' }, json: {} }),
    ];
    expect(observations[0]).toEqual({
      side: 'request',
      api: 'c',
      operationId: 'getA',
      parameters: ['path id', 'query q'],
    });
    expect(observations[2]).toMatchObject({ placement: 'both' });
    expect(observations[3]).toMatchObject({ placement: 'neither' });
    const there = Coverage.counting(here.report().perOperation);
    for (const observation of observations) {
      here.record(observation!);
      there.record(observation!);
    }
    expect(there.report()).toEqual(here.report());
    expect(here.report().perOperation[0]!.calls).toBe(1);
  });
});

describe('Coverage, at the edges', () => {
  // Two media types on one status, the placement rule on the first only; a second status with the same JSON type and
  // no rule; a header and a query parameter of the same name as each other's place.
  const spec = {
    openapi: '3.1.0',
    info: { title: 'e', version: '1' },
    paths: {
      '/e': {
        get: {
          operationId: 'getE',
          parameters: [
            { name: 'h', in: 'header', schema: { type: 'string' } },
            { name: 'q', in: 'query', schema: { type: 'string' } },
          ],
          responses: {
            '200': {
              description: 'd',
              content: {
                'application/json': { schema: { 'x-payment-method-placement': { accepted: ['/pm', '/order/pm'] } } },
                'text/plain': { schema: {} },
              },
            },
            '201': { description: 'd', content: { 'application/json': { schema: {} } } },
          },
        },
      },
      '/f': { get: { operationId: 'getF', responses: { '204': { description: 'd' } } } },
    },
  };
  const contract = compileContract(parseSpec('e.json', JSON.stringify(spec)));
  const jsonBody = { status: 200, headers: { 'content-type': 'application/json' }, json: { pm: {} } };

  it('counts a parameter only in its own place: a header named like a query parameter is not that parameter', () => {
    const coverage = new Coverage([{ api: 'e', contract }]);
    expect(coverage.observeRequest('e', 'getE', { query: 'h=1', headers: { q: 'v' } })).toEqual({
      side: 'request',
      api: 'e',
      operationId: 'getE',
      parameters: [],
    });
    expect(coverage.observeRequest('e', 'getE', { query: 'q=1', headers: { H: 'v' } })).toEqual({
      side: 'request',
      api: 'e',
      operationId: 'getE',
      parameters: ['header h', 'query q'],
    });
  });

  it('names the placement branch only for the media type and status that carry the rule', () => {
    const coverage = new Coverage([{ api: 'e', contract }]);
    expect(coverage.observeResponse('e', 'getE', jsonBody)).toEqual({
      side: 'response',
      api: 'e',
      operationId: 'getE',
      counted: false,
      status: 200,
      documented: '200',
      mediaType: 'application/json',
      placement: '/pm only',
    });
    expect(coverage.observeResponse('e', 'getE', { ...jsonBody, headers: { 'content-type': 'text/plain' } })).toEqual({
      side: 'response',
      api: 'e',
      operationId: 'getE',
      counted: false,
      status: 200,
      documented: '200',
      mediaType: 'text/plain',
    });
    expect(coverage.observeResponse('e', 'getE', { ...jsonBody, status: 201 })).not.toHaveProperty('placement');
    expect(coverage.wantsBody('e', 'getE')).toBe(true);
    expect(coverage.wantsBody('e', 'getF')).toBe(false);
  });

  it('counts a response as a call unless its request was counted already', () => {
    const coverage = new Coverage([{ api: 'e', contract }]);
    coverage.record(coverage.observeResponse('e', 'getE', jsonBody)!);
    coverage.record(coverage.observeResponse('e', 'getE', jsonBody, true)!);
    expect(coverage.report().perOperation[0]!.calls).toBe(1);
  });

  it('ignores what it has no operation for: another API, a thread without contracts, an unknown observation', () => {
    const coverage = new Coverage([{ api: 'e', contract }]);
    expect(coverage.observeResponse('other', 'getE', jsonBody)).toBeUndefined();
    expect(coverage.observeRequest('other', 'getE', { query: '', headers: {} })).toBeUndefined();
    const counting = Coverage.counting(coverage.report().perOperation);
    expect(counting.observeResponse('e', 'getE', jsonBody)).toBeUndefined();
    counting.record({ side: 'response', api: 'other', operationId: 'getE', counted: false, status: 200 });
    counting.record({ side: 'request', api: 'e', operationId: 'nothing', parameters: [] });
    expect(counting.report()).toEqual(coverage.report());
  });

  it('says nothing of parameters for an operation that has none', () => {
    const coverage = new Coverage([{ api: 'e', contract }]);
    coverage.record(coverage.observeRequest('e', 'getF', { query: '', headers: {} })!);
    coverage.record(coverage.observeRequest('e', 'getE', { query: '', headers: {} })!);
    const lines = coverageLines(coverage.report());
    expect(lines.find((line) => line.includes(' getF '))).toBe('  ✓ e getF (1 calls): ·204');
    expect(lines.find((line) => line.includes(' getE '))).toContain('parameters used: 0/2');
  });
});
