// What a format's generator keeps alive: built once, on first use, and then held for the rest of the run. fast-check's
// fc.webUrl (behind `format: uri`) held an index of every Unicode code point, 82 MB, from its first use to the end of
// a fuzz run of GitHub's description, whatever else the run did (issue #44 item 8). Measured in a process of its own:
// fast-check's string units are shared by the whole process, and another test may have built one already.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** The heap a generator for each format keeps alive once built and drawn from (after a full collection), in MB. */
async function retainedMb(formats: readonly string[]): Promise<Record<string, number>> {
  const script = `
    import fc from 'fast-check';
    import { formatArbitrary } from ${JSON.stringify(path.join(root, 'src/fuzz/format-arbitrary.ts'))};
    const heap = () => (gc(), gc(), process.memoryUsage().heapUsed);
    const kept = [];
    const retained = {};
    for (const format of ${JSON.stringify(formats)}) {
      const before = heap();
      const arbitrary = formatArbitrary(format, false);
      fc.sample(arbitrary, { numRuns: 50, seed: 1 });
      kept.push(arbitrary);
      retained[format] = (heap() - before) / 2 ** 20;
    }
    console.log(JSON.stringify(retained));
  `;
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: root, encoding: 'utf8', timeout: 120_000 },
      (error, out) => (error ? reject(error) : resolve(out)),
    ),
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, number>;
}

describe('format generators', () => {
  it('keep a few MB alive at most once built, the URL formats included', { timeout: 150_000 }, async () => {
    const formats = ['uri', 'uri-reference', 'iri', 'iri-reference', 'email', 'hostname', 'date-time', 'uuid'];
    const retained = await retainedMb(formats);
    // A bound far from both sides: a few MB each now, 82 MB for `uri` before.
    const over = Object.entries(retained).filter(([, mb]) => mb > 16);
    expect(over).toEqual([]);
  });
});
