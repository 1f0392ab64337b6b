// Benchmark 2: `contracts validate --har` on generated captures (both APIs, about 5% non-conforming): wall time,
// exchanges/s, peak RSS, and the ratio to a plain JSON.parse of the same file, each in its own process.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { quick, report, round, runChild, root } from './bench-util.js';
import { writeCapture } from './har-capture.js';

const sizes = quick ? [200, 400] : [10_000, 100_000];
const dir = await mkdtemp(path.join(tmpdir(), 'contracts-bench-har-'));
const figures: Record<string, unknown> = {};
try {
  for (const count of sizes) {
    const file = path.join(dir, `capture-${count}.har`);
    const expectedFailures = await writeCapture(file, count);
    const bytes = (await stat(file)).size;
    const parse = await runChild(process.execPath, ['-e', `JSON.parse(require('fs').readFileSync(${JSON.stringify(file)}, 'utf8'))`]);
    const check = await runChild(process.execPath, [path.join(root, 'bin/contracts.js'), 'validate', '--api', 'all', '--har', file, '--side', 'response']);
    const summary = /(\d+) exchanges: (\d+) conform, (\d+) fail, (\d+) match no operation/.exec(check.stdout);
    if (!summary || Number(summary[1]) !== count || Number(summary[3]) !== expectedFailures) {
      throw new Error(`validate --har did not report the expected result for ${count} exchanges: ${check.stdout.slice(-300)} ${check.stderr.slice(-300)}`);
    }
    figures[String(count)] = {
      exchanges: count,
      fileMb: round(bytes / 1e6),
      failing: expectedFailures,
      checkSeconds: round(check.seconds, 3),
      exchangesPerSecond: Math.round(count / check.seconds),
      checkPeakRssMb: check.peakRssMb,
      jsonParseSeconds: round(parse.seconds, 3),
      jsonParsePeakRssMb: parse.peakRssMb,
      ratioToJsonParse: round(check.seconds / parse.seconds),
    };
  }
  const [small, large] = sizes.map((size) => figures[String(size)] as { checkPeakRssMb: number; fileMb: number });
  figures.rssGrowthMbFromSmallToLarge = large!.checkPeakRssMb - small!.checkPeakRssMb;
  report('har-throughput', figures);
} finally {
  await rm(dir, { recursive: true, force: true });
}
