// Every benchmark runs once on tiny inputs, so they cannot rot. No figure is asserted: timing belongs to `npm run bench`.
// The bound is wide: stateful-vs-prism starts Prism (about 20 s of the run, quick) and the machine may be shared.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';

const run = promisify(execFile);

describe('npm run bench --quick', () => {
  it('runs every benchmark and writes every figure', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'contracts-bench-'));
    try {
      const out = path.join(dir, 'results.json');
      await run(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--quick', '--out', out], {
        cwd: root,
        env: { ...process.env, SCARF_ANALYTICS: 'false' },
      });
      const results = JSON.parse(await readFile(out, 'utf8')) as {
        machine: Record<string, unknown>;
        results: Record<string, any>;
      };
      expect(Object.keys(results.machine)).toEqual(expect.arrayContaining(['cpu', 'cores', 'node']));
      const { 'check-cost': cost, 'har-throughput': har, 'mock-throughput': mock, 'end-to-end': e2e } = results.results;
      expect(cost.ratios).toEqual({
        checkVsJsonParse: expect.any(Number),
        openapiResponseValidatorVsCheck: expect.any(Number),
        prismVsCheck: expect.any(Number),
      });
      expect(har['200']).toMatchObject({
        exchanges: 200,
        checkSeconds: expect.any(Number),
        checkPeakRssMb: expect.any(Number),
        ratioToJsonParse: expect.any(Number),
      });
      expect(results.results['github-load']).toMatchObject({
        runs: 1,
        loadAndValidateSeconds: expect.any(Number),
        loadAndValidatePeakRssMb: expect.any(Number),
        ratioToJsonParse: expect.any(Number),
        rssRatioToJsonParse: expect.any(Number),
      });
      expect(mock.clientSession.prism.requestsPerSecond).toBeGreaterThan(0);
      expect(mock.repositoryWebhooks.bareNodeHttp.requestsPerSecond).toBeGreaterThan(0);
      expect(mock.startupSeconds).toEqual(expect.any(Number));
      expect(e2e.checkAgainstMocks.passedFailedSkipped).toEqual([expect.any(Number), 0, expect.any(Number)]);
      expect(e2e.checkAgainstSandbox.passedFailedSkipped).toEqual([expect.any(Number), 0, 0]);
      expect(results.results['proxy-throughput'].clientSession.proxyToDirect).toEqual(expect.any(Number));
      const versus = results.results['stateful-vs-prism'];
      for (const load of [versus.getStoredItem, versus.create])
        expect(load).toMatchObject({
          sandbox: { requestsPerSecond: expect.any(Number) },
          prism: { requestsPerSecond: expect.any(Number) },
          sandboxToPrism: expect.any(Number),
          cpuRatio: expect.any(Number),
        });
      expect(versus.startUp).toEqual({ sandboxSeconds: expect.any(Number), prismSeconds: expect.any(Number) });
      expect(versus.startUpPhases).toMatchObject({
        spec: 'tests/fixtures/planted/notes/openapi.yaml',
        parseSeconds: expect.any(Number),
        compileSeconds: expect.any(Number),
        modelSeconds: expect.any(Number),
        engineSeconds: expect.any(Number),
        seedSeconds: expect.any(Number),
        firstAnswerSeconds: expect.any(Number),
        firstAnswerStatus: 200,
      });
      expect(results.results['fuzz-throughput']).toMatchObject({
        fuzzToAutocannon: expect.any(Number),
        fuzzToHttpCapture: expect.any(Number),
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 360_000);
});
