// `contracts fuzz` against a server with planted bugs of different classes: each is found under three seeds
// within the default budget, reported once with an id, the seed and a curl line that reproduces it, and the
// credentials in that line are environment references, never values.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { plantedBugs, startBuggyServer, type BuggyServer } from '../helpers/buggy-server.js';
import { startSandbox } from '../../src/plugins/example-sandbox.js';
import { root, seedConfig } from '../helpers/paths.js';

const seeds = [1, 2, 3];
const env = {
  CLIENT_SESSION_API_KEY: 'fuzz-test-key-4417',
  WEBHOOKS_TOKEN: 'fuzz-webhooks-token-9981',
  PATH: process.env.PATH,
  CONTRACTS_CONFIG: seedConfig,
};

interface Failure {
  id: string;
  phase: string;
  check: string;
  operation: string;
  status: number;
  seed: number;
  curl: string;
  message: string;
  note: string;
  script: string;
  steps: number;
  kind: string;
  count: number;
}
interface Report {
  seed: number;
  failures: Failure[];
}

let dir: string;
const servers: BuggyServer[] = [];
const runs: { seed: number; code: number; stdout: string; report: Report }[] = [];

async function fuzz(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['fuzz', ...args], {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    cwd: dir,
    env,
  });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-fuzz-'));
  await Promise.all(
    seeds.map(async (seed) => {
      const server = await startBuggyServer();
      servers.push(server);
      const file = path.join(dir, `seed-${seed}.json`);
      const { code, stdout } = await fuzz([
        '--base-url',
        server.url,
        '--seed',
        String(seed),
        '--rate',
        '0',
        '--report',
        `json:${file}`,
        '--scripts',
        path.join(dir, `scripts-${seed}`),
      ]);
      runs.push({ seed, code, stdout, report: JSON.parse(await readFile(file, 'utf8')) as Report });
    }),
  );
}, 400_000);

/** Runs a script in bash; its exit status and output. */
function bash(
  file: string,
  scriptEnv: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile('bash', [file], { env: scriptEnv, timeout: 120_000 }, (_error, stdout, stderr) =>
      resolve({ code: child.exitCode, stdout: String(stdout), stderr: String(stderr) }),
    );
  });
}

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await rm(dir, { recursive: true, force: true });
});

describe('contracts fuzz against a server with planted bugs', () => {
  it('exits 1 under every seed', () => {
    expect(runs.map((run) => run.code)).toEqual([1, 1, 1]);
  });

  it.each(plantedBugs.map((bug) => [bug.name, bug] as const))(
    'finds %s under seeds 1, 2 and 3, with an id and a curl line',
    (_name, bug) => {
      for (const run of runs) {
        const found = run.report.failures.filter(
          (failure) => failure.check === bug.check && failure.operation === bug.operation,
        );
        expect(found.length, `seed ${run.seed}: ${bug.check} on ${bug.operation}\n${run.stdout}`).toBeGreaterThan(0);
        for (const failure of found) {
          expect(failure.seed).toBe(run.seed);
          expect(failure.id).toMatch(/^[0-9a-f]{8}$/);
          expect(failure.curl).toMatch(/^curl -sS -i -X [A-Z]+ 'http:\/\/127\.0\.0\.1:\d+\//);
          expect(run.stdout).toContain(`[${failure.id}] ${bug.check} · ${bug.operation}`);
        }
      }
    },
  );

  it('finds the bug behind a redelivery by following links: delivery list -> detail -> redeliver, on a hook the run created', () => {
    for (const run of runs) {
      const failure = run.report.failures.find(
        (candidate) =>
          candidate.check === 'status_code_conformance' && candidate.operation === 'redeliverWebhookDelivery',
      )!;
      expect(failure.phase, `seed ${run.seed}`).toBe('stateful');
      expect(failure.status).toBe(200);
      // Shrunk to a walk along the links: a delivery listed, redelivered, listed again, and the newest redelivered.
      expect(failure.note).toMatch(
        /^redeliverWebhookDelivery, after: create hook #0 .*listWebhookDeliveries on hook #0; .*redeliverWebhookDelivery on hook #0 \(RedeliverWebhookDelivery from (listWebhookDeliveries|getWebhookDelivery)\); listWebhookDeliveries on hook #0(; getWebhookDelivery on hook #0 \(GetWebhookDelivery from listWebhookDeliveries\))?$/,
      );
      expect(failure.curl).toMatch(/\/hooks\/\d+\/deliveries\/\d+\/attempts'/);
    }
  });

  it('reports each failure once per check, operation, status and value kind, with its count', () => {
    for (const run of runs) {
      const keys = run.report.failures.map(
        (failure) => `${failure.check} ${failure.operation} ${failure.status} ${failure.kind}`,
      );
      for (const failure of run.report.failures) expect(failure.count).toBeGreaterThanOrEqual(1);
      expect(new Set(keys).size).toBe(keys.length);
    }
  });

  it('shrinks a random failure to a small request: no random case it reports carries a long body', () => {
    const random = runs.flatMap((run) =>
      run.report.failures.filter((failure) => failure.note.includes('in a random request')),
    );
    for (const failure of random) expect(failure.curl.length, failure.curl).toBeLessThan(400);
  });

  it('shrinks a failing edge value to the shortest that still fails: 1001 characters where the bug starts past 1000', () => {
    for (const run of runs) {
      const failure = run.report.failures.find(
        (candidate) => candidate.check === 'not_a_server_error' && candidate.operation === 'updateWebhookConfig',
      )!;
      expect(failure.note).toContain('cut to 1001 characters');
      expect(failure.curl).toContain(`"content_type":"${'x'.repeat(1001)}"`);
    }
  });

  it('never prints a credential or a webhook secret it made up; curl lines refer to credentials as "$VARIABLE"', async () => {
    for (const run of runs) {
      const report = await readFile(path.join(dir, `seed-${run.seed}.json`), 'utf8');
      for (const text of [run.stdout, report]) {
        expect(text).not.toContain(env.CLIENT_SESSION_API_KEY);
        expect(text).not.toContain(env.WEBHOOKS_TOKEN);
        expect(text).not.toMatch(/fuzz-secret-/);
      }
    }
    const session = runs[0]!.report.failures.find(
      (failure) => failure.check === 'negative_data_rejection' && failure.operation === 'retrieveClientSession',
    )!;
    expect(session.curl).toContain(`-H 'X-API-KEY: '"$CLIENT_SESSION_API_KEY"`);
    const hooks = runs[0]!.report.failures.find(
      (failure) => failure.check === 'not_a_server_error' && failure.operation === 'createWebhook',
    )!;
    expect(hooks.curl).toContain(`-H 'Authorization: Bearer '"$WEBHOOKS_TOKEN"`);
  });

  it('--replay re-sends the saved failures: still failing against the buggy server, no longer against the sandbox', async () => {
    const file = path.join(dir, 'seed-1.json');
    const fresh = await startBuggyServer();
    servers.push(fresh);
    const against = await fuzz(['--replay', file, '--base-url', fresh.url, '--rate', '0']);
    const fixed = await fuzz(['--replay', file]);
    const report = runs.find((run) => run.seed === 1)!.report;
    for (const [check, operation] of [
      ['not_a_server_error', 'createWebhook'],
      ['negative_data_rejection', 'retrieveClientSession'],
      ['ignored_auth', 'retrieveClientSession'],
      ['positive_data_acceptance', 'updateWebhook'],
      // The case's own clientToken: saved apart from the request, whose URL has it redacted by name.
      ['not_a_server_error', 'retrieveClientSession'],
    ]) {
      const id = report.failures.find((failure) => failure.check === check && failure.operation === operation)!.id;
      expect(against.stdout).toMatch(new RegExp(`^\\[${id}\\] ${check} · ${operation}: still fails`, 'm'));
      expect(fixed.stdout).toMatch(new RegExp(`^\\[${id}\\] ${check} · ${operation}: no longer fails`, 'm'));
    }
    expect(against.stdout).toMatch(/use_after_free · getWebhook: not replayed: found in a sequence/);
    expect(against.code).toBe(1);
  }, 120_000);

  it.each(['createWebhook', 'retrieveClientSession'])(
    'prints curl lines that reproduce the failure when pasted into a shell: the 500 of %s',
    async (operation) => {
      const failure = runs[0]!.report.failures.find(
        (candidate) => candidate.check === 'not_a_server_error' && candidate.operation === operation,
      )!;
      const { stdout } = await promisify(execFile)('bash', ['-c', failure.curl], {
        env: { ...env },
        timeout: 20_000,
      });
      expect(stdout).toMatch(/^HTTP\/1\.1 500/);
    },
  );

  it('reaches a bug at the end of a three-step sequence: create with a secret, update the config, read it', () => {
    for (const run of runs) {
      const failure = run.report.failures.find(
        (candidate) => candidate.check === 'not_a_server_error' && candidate.operation === 'getWebhookConfig',
      )!;
      expect(failure.phase, `seed ${run.seed}`).toBe('stateful');
      expect(failure.note).toMatch(
        /create hook #0 with events \["push"\] and a secret; updateWebhookConfig on hook #0$/,
      );
    }
  });

  it('writes each failure as a script with --scripts, and the console names it', async () => {
    for (const run of runs) {
      const scripts = path.join(dir, `scripts-${run.seed}`);
      for (const failure of run.report.failures) {
        expect(await readFile(path.join(scripts, `${failure.id}.sh`), 'utf8')).toBe(failure.script);
        if (failure.steps > 1) expect(run.stdout).toContain(`reproduce: bash ${path.join(scripts, failure.id)}.sh`);
      }
    }
  });

  it("reproduces each failure with its script, run in bash against a fresh target; the correct sandbox doesn't", async () => {
    const buggy = await startBuggyServer();
    servers.push(buggy);
    const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
    try {
      const scriptEnv = {
        ...env,
        CLIENT_SESSION_CLIENT_TOKEN: 'unused-token',
        CONTRACTS: `${process.execPath} ${path.join(root, 'bin/contracts.js')}`,
      };
      // Every failure of seed 1; of the others, those found in sequences and the clientToken's.
      const failures = runs.flatMap((run) =>
        run.report.failures.filter(
          (failure) =>
            run.seed === 1 ||
            failure.phase === 'stateful' ||
            (failure.check === 'not_a_server_error' && failure.operation === 'retrieveClientSession'),
        ),
      );
      const outcomes = await Promise.all(
        failures.map(async (failure) => {
          const file = path.join(dir, `scripts-${failure.seed}`, `${failure.id}.sh`);
          const [against, fixed] = await Promise.all(
            [buggy.url, sandbox.url].map((url) => bash(file, { ...scriptEnv, BASE_URL: url })),
          );
          return { failure, against: against!, fixed: fixed! };
        }),
      );
      for (const { failure, against, fixed } of outcomes) {
        const what = `${failure.check} · ${failure.operation} (seed ${failure.seed}, ${failure.steps} requests)`;
        expect(against.code, `${what}\n${against.stdout}${against.stderr}`).toBe(1);
        expect(against.stdout).toMatch(/^reproduced: /m);
        expect(fixed.code, `${what} against the sandbox\n${fixed.stdout}${fixed.stderr}`).toBe(0);
        expect(fixed.stdout).toMatch(/^not reproduced: /m);
      }
      // The sequences are there: the three-step bug's script creates, updates the config, then reads it.
      const threeStep = outcomes.find(
        ({ failure }) => failure.operation === 'getWebhookConfig' && failure.check === 'not_a_server_error',
      )!;
      expect(threeStep.failure.script).toMatch(
        /# \d+\. updateWebhookConfig: the run got 200\n[\s\S]*# \d+\. getWebhookConfig: the run got 500 \(the failure\)/,
      );
      for (const { failure } of outcomes) {
        expect(failure.script).not.toContain(env.WEBHOOKS_TOKEN);
        expect(failure.script).not.toContain(env.CLIENT_SESSION_API_KEY);
        expect(failure.script).not.toMatch(/fuzz-secret-/);
      }
    } finally {
      await sandbox.stop();
    }
  }, 240_000);

  it("varies the clientToken the run fills from a credential, printing the case's value and never the credential", () => {
    for (const run of runs) {
      const failure = run.report.failures.find(
        (candidate) => candidate.check === 'not_a_server_error' && candidate.operation === 'retrieveClientSession',
      )!;
      expect(failure.note).toBe('clientToken = 65 characters');
      expect(failure.curl).toContain(`'?clientToken=''${'x'.repeat(65)}'`);
      expect(failure.curl).toContain(`-H 'X-API-KEY: '"$CLIENT_SESSION_API_KEY"`);
    }
  });
});
