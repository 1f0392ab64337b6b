import { beforeAll, describe, expect, it } from 'vitest';
import { compileContract, type Contract } from '../../src/core/compile-contract.js';
import { Coverage, coverageLines } from '../../src/core/coverage.js';
import { loadSpec } from '../../src/core/load-spec.js';
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
