// `contracts fuzz --har-out FILE` against the server with planted bugs, read back by `contracts validate --har`: every
// exchange the run judged gets the same verdict from both. A valid request passes validate's request checks and its
// answer fails exactly the core checks the run failed; a request the run sent as breaking the spec fails them.
// Nothing secret is in the file.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { exchangeCheckNames } from '../../src/core/finding.js';
import { startBuggyServer, type BuggyServer } from '../helpers/buggy-server.js';
import { seedConfig } from '../helpers/paths.js';

const env = {
  CLIENT_SESSION_API_KEY: 'har-out-key-5521',
  WEBHOOKS_TOKEN: 'har-out-token-8830',
  PATH: process.env.PATH,
  CONTRACTS_CONFIG: seedConfig,
};
/** The core's checks of one answer: what `validate` judges, and what fuzz judges on a valid request's answer. */
const answerChecks = new Set<string>(exchangeCheckNames);

interface Entry {
  response: { status: number };
  _contracts: { api: string; operation: string; request: string; failed?: string[]; answer?: string };
}
interface Verdict {
  index: number;
  operation: string | null;
  findings: { check: string; severity: string }[];
}

let dir: string;
let server: BuggyServer;
let fuzzOut: string;
let entries: Entry[];
let verdicts: Verdict[];
let harText: string;

async function run(args: string[]) {
  const out: string[] = [];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => out.push(line), cwd: dir, env });
  return { code, out: out.join('\n') };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-har-out-'));
  server = await startBuggyServer();
  const har = path.join(dir, 'run.har');
  const fuzz = await run(['fuzz', '--base-url', server.url, '--seed', '1', '--rate', '0', '--har-out', har]);
  fuzzOut = fuzz.out;
  harText = await readFile(har, 'utf8');
  entries = (JSON.parse(harText) as { log: { entries: Entry[] } }).log.entries;
  const validated = await run(['validate', '--api', 'all', '--har', har, '--format', 'json']);
  verdicts = (JSON.parse(validated.out) as { results: Verdict[] }).results;
}, 180_000);

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('contracts fuzz --har-out', () => {
  it('writes every exchange of the run, and says where', () => {
    expect(fuzzOut).toMatch(/^HAR written to .*run\.har$/m);
    const requests = Number(/seed 1, (\d+) requests/.exec(fuzzOut)![1]);
    expect(entries.length).toBe(requests);
    expect(verdicts.length).toBe(entries.length);
    const kinds = new Set(entries.map((entry) => entry._contracts.request));
    expect([...kinds].sort()).toEqual(['breaks the spec', 'no credentials', 'not judged', 'valid']);
  });

  it('reads back through validate --har with the verdicts of the run, entry by entry', () => {
    let judged = 0;
    let failing = 0;
    for (const verdict of verdicts) {
      const entry = entries[verdict.index - 1]!;
      const { request, failed = [], answer, operation } = entry._contracts;
      if (request === 'not judged' || answer !== undefined) continue;
      judged++;
      const errors = verdict.findings.filter((finding) => finding.severity === 'error');
      const requestChecks = errors.filter((finding) => finding.check.startsWith('request_'));
      const where = `entry ${verdict.index}: ${operation}, ${request}, answered ${entry.response.status}`;
      expect(verdict.operation, where).toBe(operation);
      if (request === 'valid') {
        expect(requestChecks, where).toEqual([]);
        const validateFailed = [...new Set(errors.map((finding) => finding.check))].sort();
        const runFailed = failed.filter((check) => answerChecks.has(check)).sort();
        expect(validateFailed, where).toEqual(runFailed);
        if (runFailed.length > 0) failing++;
      } else if (request === 'breaks the spec') {
        expect(requestChecks.length, where).toBeGreaterThan(0);
      }
    }
    // Exercised: hundreds of judged exchanges, some of them answered wrongly (the planted bugs).
    expect(judged).toBeGreaterThan(500);
    expect(failing).toBeGreaterThan(0);
  });

  it('holds no credential and no secret the run made up', () => {
    expect(harText).not.toContain(env.CLIENT_SESSION_API_KEY);
    expect(harText).not.toContain(env.WEBHOOKS_TOKEN);
    expect(harText).not.toMatch(/fuzz-secret-/);
    expect(harText).toContain('[REDACTED]');
  });
});
