// The HAR checker's judge on an in-memory capture: entries as the splitter hands them on (no file), judged
// against the compiled spec, one verdict each with what `validate --har` prints for it.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Found } from '../../src/har/har.js';
import { compileHarContracts } from '../../src/har/har-jobs.js';
import { type HarContracts, type HarJudgeSettings, judgeHarEntry } from '../../src/har/judge-har-entry.js';
import { harEntry } from '../helpers/har-entry.js';
import { fixture } from '../helpers/paths.js';

let setup: HarContracts;
beforeAll(async () => {
  setup = await compileHarContracts(
    [{ file: fixture('mock-engine/shop.yaml'), display: 'shop.yaml', api: 'shop' }],
    false,
  );
});

const settings: HarJudgeSettings = { side: 'both', strict: false, format: 'text', maxBodyBytes: 1 << 20 };

/** One HAR 1.2 entry as the splitter hands it on: a GET answered with a body of `contentType`. */
function entry(url: string, status: number, body: string, contentType = 'application/json'): Found {
  return { text: JSON.stringify(harEntry('GET', url, status, body, contentType)) };
}

const base = 'https://shop.example/api/v2';

describe('a HAR entry judged from memory', () => {
  it.each([
    {
      case: 'a conforming exchange passes, printing nothing',
      found: entry(`${base}/items?limit=2`, 200, '[{"id":"it_aaaaaa","name":"first"}]'),
      verdict: { index: 1, verdict: 'passed' },
    },
    {
      case: 'an answer breaking its schema fails, naming the field and the operation',
      found: entry(`${base}/items`, 200, '[{"id":"nope","name":"first"}]'),
      verdict: {
        index: 1,
        verdict: 'failed',
        out: [
          '#1 GET /api/v2/items → 200  (listItems)',
          '    ✗ response_schema_conformance: /0/id must match pattern "^it_[a-z0-9]{6}$", not "nope"',
        ],
      },
    },
    {
      case: 'a request to no operation of the spec is unmatched',
      found: entry(`${base}/elsewhere`, 200, '{}'),
      verdict: {
        index: 1,
        verdict: 'unmatched',
        out: [
          '#1 GET /api/v2/elsewhere → 200',
          '    ✗ operation_matching: GET /api/v2/elsewhere matches no operation of the spec',
        ],
      },
    },
    {
      case: 'an entry that is no exchange is invalid, by position only',
      found: { notObject: 'a string' },
      verdict: { index: 1, verdict: 'invalid', out: ['#1 ✗ entry 1 is a string, not an object'] },
    },
  ])('$case', ({ found, verdict }) => {
    const { coverage: _coverage, ...judged } = judgeHarEntry(setup, found, 1, settings);
    expect(judged).toEqual(verdict);
  });
});
