// Benchmark 2: `contracts validate --har` on generated captures (both APIs, about 5% non-conforming): wall time,
// exchanges/s, peak RSS, and the ratio to a plain JSON.parse of the same file, each in its own process; checked on
// worker threads (the default, one per core) and on the main thread (--jobs 1), side by side. The full run adds a
// capture of 1M exchanges (about 0.9 GB, in the temporary directory and deleted after): time and peak RSS only,
// as JSON.parse cannot hold a string that long.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { quick, report, round, runChild, root } from './bench-util.js';
import { writeCapture } from './har-capture.js';

const sizes = quick ? [200, 400] : [10_000, 100_000, 1_000_000];
/** Above this, no JSON.parse and no single-thread run beside it. */
const sideBySideUpTo = 100_000;
const dir = await mkdtemp(path.join(tmpdir(), 'contracts-bench-har-'));
const figures: Record<string, unknown> = {};
try {
  for (const count of sizes) {
    const file = path.join(dir, `capture-${count}.har`);
    const expectedFailures = await writeCapture(file, count);
    const bytes = (await stat(file)).size;
    const sideBySide = count <= sideBySideUpTo;
    const parse = sideBySide
      ? await runChild(process.execPath, [
          '-e',
          `JSON.parse(require('fs').readFileSync(${JSON.stringify(file)}, 'utf8'))`,
        ])
      : undefined;
    const validate = async (jobs: string[]) => {
      const run = await runChild(process.execPath, [
        path.join(root, 'bin/contracts.js'),
        'validate',
        '--api',
        'all',
        '--har',
        file,
        '--side',
        'response',
        ...jobs,
      ]);
      const summary = /(\d+) exchanges: (\d+) conform, (\d+) fail, (\d+) match no operation/.exec(run.stdout);
      if (!summary || Number(summary[1]) !== count || Number(summary[3]) !== expectedFailures) {
        throw new Error(
          `validate --har did not report the expected result for ${count} exchanges: ${run.stdout.slice(-300)} ${run.stderr.slice(-300)}`,
        );
      }
      return run;
    };
    const load = os.loadavg()[0]!;
    const check = await validate(['--jobs', String(os.availableParallelism())]);
    const single = sideBySide ? await validate(['--jobs', '1']) : undefined;
    figures[String(count)] = {
      exchanges: count,
      fileMb: round(bytes / 1e6),
      failing: expectedFailures,
      jobs: os.availableParallelism(),
      checkSeconds: round(check.seconds, 3),
      exchangesPerSecond: Math.round(count / check.seconds),
      checkPeakRssMb: check.peakRssMb,
      ...(single && parse
        ? {
            singleThreadSeconds: round(single.seconds, 3),
            singleThreadPeakRssMb: single.peakRssMb,
            jsonParseSeconds: round(parse.seconds, 3),
            jsonParsePeakRssMb: parse.peakRssMb,
            ratioToJsonParse: round(check.seconds / parse.seconds),
            singleThreadRatioToJsonParse: round(single.seconds / parse.seconds),
            speedUpOverSingleThread: round(single.seconds / check.seconds),
          }
        : {}),
      loadAverage: [round(load, 1), round(os.loadavg()[0]!, 1)],
    };
    await rm(file);
  }
  const [small, large] = sizes
    .slice(0, 2)
    .map((size) => figures[String(size)] as { checkPeakRssMb: number; fileMb: number });
  figures.rssGrowthMbFromSmallToLarge = large!.checkPeakRssMb - small!.checkPeakRssMb;
  report('har-throughput', figures);
} finally {
  await rm(dir, { recursive: true, force: true });
}
