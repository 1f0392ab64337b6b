// The real-server lane (issue #44's acceptance): `contracts fuzz` against a live service nobody here wrote, Directus
// on PostgreSQL (scripts/real-server/), with the OpenAPI description it serves itself and an admin's static token,
// its IP rate limiter on so that 429 answers with Retry-After happen. Default settings but two bounds that keep the
// lane near six minutes, --max-examples 5 and --max-time 300, and --timeout 30000 for a busy machine.
// `npm run test:real`; not in `npm test`.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RealServer, startRealServer } from '../../scripts/real-server/real-server.js';
import { type CliResult, runCli } from '../helpers/run-cli.js';
import { root } from '../helpers/paths.js';

const tokenVariable = 'CONTRACTS_DIRECTUS_TOKEN';
// Directus's description declares security on 6 of its operations; every one needs the token (an admin's): the
// config sends it as a header on every request, as a user of Directus would.
const config = `apis:
  - name: directus
    spec: directus.json
    credentials:
      - { env: ${tokenVariable}, header: Authorization, prefix: "Bearer " }
`;

interface SavedFailure {
  id: string;
  operation: string;
  check: string;
  status: number;
  curl?: string;
  script?: string;
  /** The groups lane's fields (issue #44 item 3): what the group's failures share, and how many there were. */
  kind?: unknown;
  count?: unknown;
}

interface FuzzReport {
  failures: SavedFailure[];
  omittedFailures?: number;
  requests: number;
}

let server: RealServer | undefined;
let fuzz: CliResult;
let replay: CliResult;
const seconds: Record<string, number> = {};
const file = (name: string) => path.join(server!.dir, name);
const env = () => ({ [tokenVariable]: server!.token, NO_COLOR: '1' });

async function timed<T>(name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    seconds[name] = Math.round((performance.now() - started) / 1000);
  }
}

beforeAll(async () => {
  server = await startRealServer();
  Object.assign(seconds, server.timings);
  writeFileSync(file('contracts.config.yaml'), config);
  fuzz = await timed('fuzz', () =>
    runCli(
      [
        ...['fuzz', '--api', 'directus', '--base-url', server!.url, '--max-examples', '5', '--max-time', '300'],
        // A machine shared by several runs made Directus take over 10 s (the default) on one request: the run stopped.
        ...['--timeout', '30000'],
        ...['--report', 'json:report.json', '--scripts', 'scripts', '--coverage', 'coverage.json'],
        ...['--har-out', 'run.har', '--quiet'],
      ],
      { cwd: server!.dir, env: env() },
    ),
  );
  replay = await timed('replay', () =>
    runCli(['fuzz', '--api', 'directus', '--replay', 'report.json', '--base-url', server!.url], {
      cwd: server!.dir,
      env: env(),
    }),
  );
}, 12 * 60_000);

/** Where the run's files are kept after the server's folder is removed: the report, the HAR, both outputs. */
const kept = process.env.CONTRACTS_REAL_KEEP ?? path.join(os.tmpdir(), 'contracts-real-last');

afterAll(async () => {
  if (server) {
    rmSync(kept, { recursive: true, force: true });
    mkdirSync(kept, { recursive: true });
    for (const [name, result] of Object.entries({ fuzz, replay }))
      if (result)
        writeFileSync(path.join(kept, `${name}.out`), `exit ${result.code}\n${result.stdout}\n${result.stderr}`);
    for (const name of ['report.json', 'run.har', 'coverage.json', 'scripts'])
      cpSync(file(name), path.join(kept, name), { recursive: true, force: true });
    console.log(`real-server lane: its report, HAR and outputs are in ${kept}`);
  }
  await server?.stop();
  console.log(`real-server lane, seconds per step: ${JSON.stringify(seconds)}`);
}, 60_000);

const report = () => JSON.parse(readFileSync(file('report.json'), 'utf8')) as FuzzReport;

describe('contracts fuzz against a live Directus with its own description and its rate limiter on', () => {
  it('does its job: exit 0 or 1, whatever the target answered (2 would mean it could not)', () => {
    const said = fuzz.stderr
      .split('\n')
      .filter((line) => line.startsWith('contracts fuzz: ') && !/credentials/.test(line));
    expect([0, 1], `exit ${fuzz.code}: ${said.join(' | ')}`).toContain(fuzz.code);
  });

  it('met the rate limiter: some answers were 429 (the lane tests what it says)', () => {
    const har = JSON.parse(readFileSync(file('run.har'), 'utf8')) as {
      log: { entries: { response: { status: number } }[] };
    };
    expect(har.log.entries.filter((entry) => entry.response.status === 429).length).toBeGreaterThan(0);
  });

  it('exercises every operation of the description despite the 429s', () => {
    const coverage = JSON.parse(readFileSync(file('coverage.json'), 'utf8')) as {
      perOperation: { operationId: string; calls: number }[];
    };
    expect(coverage.perOperation.length).toBeGreaterThan(100);
    expect(coverage.perOperation.filter((operation) => operation.calls === 0).map((o) => o.operationId)).toEqual([]);
  });

  it('keeps one failure per cause (operation, check, status, value kind), each with how often it happened', () => {
    const { failures } = report();
    const keys = failures.map((f) => JSON.stringify([f.operation, f.check, f.status, f.kind]));
    const repeated = keys.filter((key, index) => keys.indexOf(key) !== index);
    const uncounted = failures.filter((f) => typeof f.kind !== 'string' || typeof f.count !== 'number');
    expect({ repeated: [...new Set(repeated)], uncounted: uncounted.map((f) => f.id) }).toEqual({
      repeated: [],
      uncounted: [],
    });
  });

  it('keeps a complete reproduction for every failure: none left out, each with a curl line and a script', () => {
    const { failures, omittedFailures } = report();
    const scripts = new Set(readdirSync(file('scripts')));
    const incomplete = failures.filter((f) => !f.curl || !scripts.has(`${f.id}.sh`)).map((f) => f.id);
    expect({ omittedFailures: omittedFailures ?? 0, incomplete }).toEqual({ omittedFailures: 0, incomplete: [] });
  });

  it('--replay says "still fails" for every failure it re-sends unchanged', () => {
    const verdicts = replay.stdout
      .split('\n')
      .map((line) =>
        /^\[([0-9a-f]+)\] .*?: (still fails|no longer fails|could not reproduce|not replayed)(.*)$/.exec(line),
      )
      .filter((match) => match !== null)
      .map((match) => ({ id: match[1]!, verdict: match[2]!, why: match[3]! }));
    expect(
      { code: replay.code, firstError: replay.stderr.split('\n').find((l) => / --replay: /.test(l)) },
      `${replay.stdout.slice(-3000)}\n${replay.stderr.slice(-2000)}`,
    ).toEqual({
      code: report().failures.length > 0 ? 1 : 0,
      firstError: undefined,
    });
    // Re-sent unchanged: the saved request went out again as it was (replay.ts says "not re-sent unchanged"
    // otherwise: an item of its own in place of one gone). "could not reproduce" is such a re-send whose answer says
    // the target's state is not the run's (what it names is gone, or exists now): no verdict on the failure.
    const unchanged = verdicts.filter((v) => v.verdict !== 'not replayed' && !/not re-sent unchanged/.test(v.why));
    const stateless = unchanged.filter((v) => v.verdict !== 'could not reproduce');
    expect(stateless.length).toBeGreaterThan(0);
    expect({
      notStillFailing: stateless.filter((v) => v.verdict !== 'still fails'),
      // A request that went out otherwise than saved is the replay's own fault, whatever the answer; but for a value
      // the report redacted by its name (getAsset's `key`: redact-fields.ts), which it could not send.
      sentOtherwise: verdicts.filter(
        (v) =>
          /went out otherwise than saved/.test(v.why) &&
          !/not re-sent unchanged: the query \(the report redacted [^)]*\) went/.test(v.why),
      ),
    }).toEqual({ notStillFailing: [], sentOtherwise: [] });
  });

  it(
    'runs each reproduction script with only the variables its requests use',
    async () => {
      const dir = file('scripts');
      const results = [];
      for (const name of readdirSync(dir).sort()) {
        const text = readFileSync(path.join(dir, name), 'utf8');
        const requestLines = text.split('\n').filter((line) => !/^\s*(#|:)/.test(line));
        const uses = requestLines.some(
          (line) => line.includes(`$${tokenVariable}`) || line.includes(`\${${tokenVariable}`),
        );
        const code = await runScript(path.join(dir, name), {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          BASE_URL: server!.url,
          CONTRACTS: `${process.execPath} ${path.join(root, 'bin/contracts.js')}`,
          ...(uses ? { [tokenVariable]: server!.token } : {}),
        });
        results.push({ script: name, code: code.code, stderr: code.stderr.split('\n').at(-2) ?? '' });
      }
      expect(results.length).toBeGreaterThan(0);
      // 1: reproduced; 0: the target answers otherwise now (what it needed changed since); 2: could not run.
      expect(results.filter((result) => result.code !== 0 && result.code !== 1)).toEqual([]);
    },
    8 * 60_000,
  );
});

function runScript(script: string, scriptEnv: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', [script], { cwd: server!.dir, env: scriptEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code) => (clearTimeout(timer), resolve({ code, stderr })));
  });
}
