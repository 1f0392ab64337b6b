// The HAR checker without the CLI: a capture on disk judged entry by entry on this thread (and in a worker), the
// verdicts in capture order, each with the lines `validate --har` prints for it.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkHar } from '../../src/har/check-har.js';
import type { HarVerdict } from '../../src/har/judge-har-entry.js';
import { harEntry } from '../helpers/har-entry.js';
import { fixture } from '../helpers/paths.js';

const entry = (method: string, url: string, status: number, body: string) => harEntry(method, url, status, body);

let file: string;
beforeAll(async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'contracts-har-'));
  file = path.join(dir, 'capture.har');
  const base = 'https://shop.example/api/v2';
  const entries = [
    entry('GET', `${base}/items?limit=2`, 200, '[{"id":"it_aaaaaa","name":"first"}]'),
    entry('GET', `${base}/items`, 200, '[{"id":"nope","name":"first"}]'),
    entry('GET', `${base}/elsewhere`, 200, '{}'),
    'not an entry',
  ];
  await writeFile(file, JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries } }));
});

async function verdicts(jobs: number, format: 'text' | 'json'): Promise<HarVerdict[]> {
  const check = checkHar({
    file,
    shown: 'capture.har',
    specs: [{ file: fixture('mock-engine/shop.yaml'), display: 'shop.yaml', api: 'shop' }],
    jobs,
    side: 'both',
    strict: false,
    format,
    maxBodyBytes: 1 << 20,
  });
  const all: HarVerdict[] = [];
  try {
    await check.ready;
    for await (const verdict of check.verdicts) all.push({ ...verdict, coverage: undefined });
  } finally {
    check.close();
  }
  return all;
}

describe('checkHar', () => {
  it('gives each entry its verdict, in capture order, with the lines printed for a failing one', async () => {
    expect((await verdicts(1, 'text')).map(({ index, verdict, out }) => ({ index, verdict, out }))).toEqual([
      { index: 1, verdict: 'passed', out: undefined },
      {
        index: 2,
        verdict: 'failed',
        out: [
          '#2 GET /api/v2/items → 200  (listItems)',
          '    ✗ response_schema_conformance: /0/id must match pattern "^it_[a-z0-9]{6}$", not "nope"',
        ],
      },
      {
        index: 3,
        verdict: 'unmatched',
        out: [
          '#3 GET /api/v2/elsewhere → 200',
          '    ✗ operation_matching: GET /api/v2/elsewhere matches no operation of the spec',
        ],
      },
      { index: 4, verdict: 'invalid', out: ['#4 ✗ entry 4 is a string, not an object'] },
    ]);
  });

  it('gives the same verdicts from a worker thread as on this one', async () => {
    expect(await verdicts(2, 'json')).toEqual(await verdicts(1, 'json'));
  });
});
