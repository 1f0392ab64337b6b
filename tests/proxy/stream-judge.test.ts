// A streamed answer (OpenAPI 3.2 itemSchema) through the proxy: each bad item is said as it passes, and the
// exchange's report holds it once, the check counted as applied.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileContract } from '../../src/core/compile-contract.js';
import type { Finding } from '../../src/core/finding.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { startProxy } from '../../src/proxy/start-proxy.js';
import type { ProxiedExchange } from '../../src/proxy/judge-exchange.js';
import { startOas32StandIn } from '../helpers/oas32-stand-in.js';
import { root } from '../helpers/paths.js';

let standIn: Awaited<ReturnType<typeof startOas32StandIn>>;
beforeAll(async () => {
  standIn = await startOas32StandIn({ badItem: true });
});
afterAll(() => new Promise((resolve) => standIn.server.close(resolve)));

describe('a streamed answer through the proxy', () => {
  it.each([
    [
      '/items.jsonl',
      'exportItems',
      { instancePath: '/1/id', schemaPath: '/properties/id/minimum', message: 'item 1 (line 2): /id must be >= 1' },
    ],
    [
      '/events',
      'watchItems',
      {
        instancePath: '/1/data/id',
        schemaPath: '/properties/id/type',
        message: 'event 1 (line 6, data "{\\"id\\":\\"two\\",\\"name\\":\\"b\\"}"): /data/id must be integer',
      },
    ],
  ])('judges %s item by item, each finding said live and reported once', async (target, operation, expected) => {
    const contract = compileContract(await loadSpec(path.join(root, 'tests/fixtures/oas32/streams-3.2.yaml')));
    const live: Finding[] = [];
    const seen: ProxiedExchange[] = [];
    const proxy = await startProxy({
      contract,
      target: standIn.baseUrl,
      maxBodyBytes: 1 << 20,
      onStreamFinding: (_exchange, finding) => live.push(finding),
      onExchange: (exchange) => seen.push(exchange),
    });
    try {
      const answer = await fetch(`${proxy.url}${target}`);
      await answer.text();
      await expect.poll(() => seen.length).toBe(1);
    } finally {
      await proxy.stop();
    }
    const finding = { check: 'response_schema_conformance', severity: 'error', operation, ...expected };
    expect(live).toEqual([finding]);
    expect(seen[0]!.responseResult!.findings).toEqual([finding]);
    expect(seen[0]!.responseResult!.applied).toContain('response_schema_conformance');
  });
});
