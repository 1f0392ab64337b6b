// Benchmark 2: `contracts validate --har` on generated captures (both APIs, about 5% non-conforming): wall time,
// exchanges/s, peak RSS, and the ratio to a plain JSON.parse of the same file, each in its own process.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { quick, report, round, runChild, root } from './bench-util.js';

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

/** Writes a HAR of `count` exchanges of both APIs; every 20th breaks the contract. Returns how many break it. */
async function writeCapture(file: string, count: number): Promise<number> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  const hook = (id: number) => ({
    type: 'Repository', id, name: 'web', active: true, events: ['push', 'pull_request'],
    config: { content_type: 'json', insecure_ssl: '0', url: 'https://example.com/webhook' },
    updated_at: '2026-11-21T10:00:00Z', created_at: '2026-11-21T10:00:00Z',
    url: `https://api.example.com/repos/octo/app/hooks/${id}`, test_url: `https://api.example.com/repos/octo/app/hooks/${id}/tests`,
    ping_url: `https://api.example.com/repos/octo/app/hooks/${id}/pings`, deliveries_url: `https://api.example.com/repos/octo/app/hooks/${id}/deliveries`,
    last_response: { code: null, status: 'unused', message: null },
  });
  const session = { customerId: 'c-1', orderId: 'o-1', currencyCode: 'EUR', amount: 1300, order: { lineItems: [{ itemId: 'i', description: 'd', amount: 1300, quantity: 1 }], paymentMethod: { vaultOnSuccess: false } } };
  let failures = 0;
  await write('{"log":{"version":"1.2","creator":{"name":"contracts-bench","version":"1"},"entries":[\n');
  for (let i = 0; i < count; i++) {
    const broken = i % 20 === 19;
    if (broken) failures++;
    const kind = i % 3;
    const entry =
      kind === 0
        ? { method: 'GET', url: `https://api.example.com/client-session?clientToken=t${i}`, status: 200, body: broken ? { ...session, currencyCode: 'XXX' } : session }
        : kind === 1
          ? { method: 'GET', url: `https://api.example.com/repos/octo/app/hooks/${i}`, status: broken ? 418 : 200, body: hook(i) }
          : { method: 'POST', url: `https://api.example.com/repos/octo/app/hooks/${i}/pings`, status: 204, body: broken ? { unexpected: true } : undefined };
    const text = entry.body === undefined ? '' : JSON.stringify(entry.body);
    await write(
      (i > 0 ? ',\n' : '') +
        JSON.stringify({
          startedDateTime: '2026-11-21T10:00:00.000Z',
          time: 12,
          request: { method: entry.method, url: entry.url, httpVersion: 'HTTP/1.1', headers: [{ name: 'accept', value: 'application/json' }], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
          response: {
            status: entry.status, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], redirectURL: '', headersSize: -1, bodySize: text.length,
            headers: text ? [{ name: 'content-type', value: 'application/json; charset=utf-8' }, { name: 'content-length', value: String(text.length) }] : [],
            content: { size: text.length, mimeType: 'application/json', ...(text ? { text } : {}) },
          },
          cache: {},
          timings: { send: 0, wait: 10, receive: 2 },
        }),
    );
  }
  await write('\n]}}\n');
  out.end();
  await once(out, 'close');
  return failures;
}
