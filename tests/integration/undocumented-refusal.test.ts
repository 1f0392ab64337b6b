// One rule for an undocumented status across fuzz, proxy and validate: a 4xx answer to a request that breaks the
// spec is the refusal it deserves, documented or not; an undocumented status in answer to a valid request is a
// status_code_conformance failure. fuzz judged so already; validate --har flagged the refusal too.
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';
import { compileContract } from '../../src/core/compile-contract.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { excuseRefusal } from '../../src/core/refusal-rule.js';
import { specFile } from '../helpers/paths.js';
import { judged, withProxyTo } from '../helpers/proxy.js';

const spec = `openapi: 3.1.0
info: { title: items, version: "1" }
paths:
  /items:
    get:
      operationId: listItems
      parameters: [{ name: limit, in: query, required: true, schema: { type: integer } }]
      responses:
        "200":
          description: the items
          content: { application/json: { schema: { type: array } } }
`;

const entry = (query: string, status: number) => ({
  request: { method: 'GET', url: `http://api.test/items${query}`, headers: [], queryString: [] },
  response: {
    status,
    headers: [{ name: 'content-type', value: 'application/json' }],
    content: { mimeType: 'application/json', text: status === 200 ? '[]' : '{}' },
  },
});

describe('an undocumented 4xx', () => {
  it('is excused in answer to a request that breaks the spec, and a failure in answer to a valid one (validate --har)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-refusal-'));
    await writeFile(path.join(dir, 'items.yaml'), spec);
    await writeFile(
      path.join(dir, 'capture.har'),
      JSON.stringify({ log: { entries: [entry('', 400), entry('?limit=5', 400)] } }),
    );
    const { code, output } = await runMain(
      ['validate', '--spec', 'items.yaml', '--har', 'capture.har', '--format', 'json'],
      dir,
    );
    const { results } = JSON.parse(output) as { results: { findings: { check: string }[] }[] };
    const verdicts = results.map((result) => result.findings.map((found) => found.check));
    expect(verdicts).toEqual([['request_parameters_conformance'], ['status_code_conformance']]);
    expect(code).toBe(1);
  });

  it('is excused in answer to a request that breaks the spec, and a failure in answer to a valid one (proxy)', async () => {
    // A target that refuses everything with an undocumented 400 (listWebhooks documents 200 and 404).
    const target = http.createServer((_req, res) =>
      res.writeHead(400, { 'content-type': 'application/json' }).end('{}'),
    );
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const contract = compileContract(await loadSpec(specFile('repository-webhooks')));
    try {
      const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
      await withProxyTo(url, { contract }, async (proxy, seen) => {
        await (await fetch(`${proxy.url}/repos/octo/app/hooks?per_page=500`)).text();
        await (await fetch(`${proxy.url}/repos/octo/app/hooks?per_page=5`)).text();
        await judged(seen, 2);
        const checks = seen.map((exchange) => [
          ...exchange.requestResult.findings.map((found) => found.check),
          ...(exchange.responseResult?.findings ?? []).map((found) => found.check),
        ]);
        expect(checks).toEqual([['request_parameters_conformance'], ['status_code_conformance']]);
      });
    } finally {
      await new Promise((resolve) => target.close(resolve));
    }
  });

  const finding = (check: string) => ({
    check,
    severity: 'error',
    operation: 'listItems',
    instancePath: '',
    message: 'm',
  });
  it.each([
    ['an invalid request refused 400', [finding('request_parameters_conformance')], 400, []],
    ['a valid request answered 400', [], 400, ['status_code_conformance']],
    ['an invalid request answered 500', [finding('request_parameters_conformance')], 500, ['status_code_conformance']],
    ['an invalid request answered 200', [finding('request_parameters_conformance')], 200, ['status_code_conformance']],
  ] as const)('%s', (_name, requestFindings, status, want) => {
    const response = { operationId: 'listItems', applied: [], findings: [finding('status_code_conformance')] };
    const excused = excuseRefusal(response as never, { findings: requestFindings as never }, status);
    expect(excused.findings.map((found) => found.check)).toEqual(want);
  });
});
