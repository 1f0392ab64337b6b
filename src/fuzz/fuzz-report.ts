// What a fuzz run prints and saves: per operation the checks that passed, failed or were skipped, then each
// distinct failure once with its id, the seed, the shrunk case and a curl line. Nothing in it depends on the clock
// or on the port of the embedded sandbox, so the same seed prints the same text.
import { seedProject } from '../config/seed-project.js';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ContractsError } from '../core/errors.js';
import type { Redactor } from '../reports/redact.js';
import { jsonReport } from '../reports/json-report.js';
import { answerLine } from './failure-answer.js';
import { warningLines } from './undocumented-refusals.js';
import { shellQuote } from './shell-word.js';
import { groupedBy } from './failure-book.js';
import type { FuzzRun } from './run-fuzz.js';

/** Each API's mock port in the project: where a restarted mock listens (restartedOrigin). */
export type MockPorts = Readonly<Record<string, number>>;

/** `scripts`: the folder --scripts wrote each failure's reproduction to, as shown to the user. */
export function fuzzConsoleReport(
  run: FuzzRun,
  embedded: boolean,
  scripts?: string,
  mockEngine: 'prism' | 'own' | 'stateful' = 'prism',
  ports: MockPorts = {},
): string {
  const lines: string[] = [`contracts fuzz: seed ${run.seed}, ${run.requests} requests`];
  for (const api of [...new Set(run.results.map((result) => result.api))]) {
    const url = run.targets[api as keyof typeof run.targets];
    lines.push(
      `${api} (${embedded ? (servedBySandbox(api) ? 'embedded sandbox' : `its ${mockEngine === 'stateful' ? 'stateful sandbox' : mockEngine === 'own' ? 'mock (our own engine)' : 'Prism mock'}, ${url}`) : url})`,
    );
    const results = run.results.filter((result) => result.api === api);
    for (const operation of [...new Set(results.map((result) => result.operation))]) {
      const checks = results.filter((result) => result.operation === operation);
      const count = (status: string) => checks.filter((check) => check.status === status).length;
      const blocked = checks.filter(notExercised).length;
      const mark = count('failed') > 0 ? '✗' : count('passed') > 0 ? '✓' : '-';
      lines.push(
        `  ${mark} ${operation.padEnd(26)} ${[`${count('passed')} passed`, count('failed') > blocked ? `${count('failed') - blocked} failed` : '', blocked ? `${blocked} not exercised` : '', count('skipped') ? `${count('skipped')} skipped` : ''].filter(Boolean).join(', ')}`,
      );
      // A failed check with the answer that broke it; one the target kept from being exercised is said below, once
      // per reason, and never as a failure of that check (no answer broke it).
      for (const check of checks.filter((candidate) => candidate.status === 'failed' && !notExercised(candidate)))
        lines.push(`      ✗ ${check.check}`);
      lines.push(...warningLines(checks));
      // One line per reason: a choice like --read-only skips every check of an operation at once.
      const skippedBy = new Map<string, string[]>();
      for (const check of checks.filter((candidate) => candidate.status === 'skipped'))
        skippedBy.set(check.reason ?? '', [...(skippedBy.get(check.reason ?? '') ?? []), check.check]);
      for (const [reason, names] of skippedBy) lines.push(`      - skipped: ${names.join(', ')}: ${reason}`);
    }
    const blockedBy = new Map<string, typeof results>();
    for (const result of results.filter(notExercised))
      blockedBy.set(result.reason!, [...(blockedBy.get(result.reason!) ?? []), result]);
    for (const [reason, blocked] of blockedBy) {
      const what = blocked.length === 1 ? `${blocked[0]!.operation} ${blocked[0]!.check}` : `${blocked.length} checks`;
      lines.push(`  ✗ not exercised: ${what}: ${reason}`);
      if (blocked.length > 1)
        lines.push(`      (${[...new Set(blocked.map((result) => result.operation))].join(', ')})`);
    }
  }
  if (run.failures.length > 0) {
    lines.push('', `Failures (${run.failures.length} distinct, seed ${run.seed}), ${groupedBy}:`);
    for (const failure of run.failures) {
      const count = failure.count ?? 1;
      lines.push(
        `  [${failure.id}] ${failure.check} · ${failure.operation} · ${failure.status}${failure.kind ? ` · ${failure.kind}` : ''} · ${count} occurrence${count === 1 ? '' : 's'}`,
        `      ${failure.message}`,
        `      case (${failure.phase}): ${failure.note}`,
        ...(failure.others?.length ? [`      also: ${failure.others.join('; ')}`] : []),
        ...(failure.answer
          ? [`      answer: ${answerLine(failure.answer, (body) => stable(run, body, embedded, ports))}`]
          : []),
        ...reproduceLines(run, failure, embedded, scripts, mockEngine, ports),
      );
    }
    lines.push('', `Repeat this run with --seed ${run.seed}.`);
  }
  if (run.notRun.length > 0)
    lines.push(
      '',
      `Not run: ${run.notRun.length} checks (${run.results.find((result) => result.reason?.startsWith('not run: '))?.reason?.slice(9) ?? 'the run stopped early'})`,
    );
  const { passed, failed, skipped } = run.summary;
  const distinct = run.failures.length;
  const blocked = run.results.filter(notExercised).length;
  lines.push(
    '',
    `${passed} passed, ${failed - blocked} failed, ${blocked ? `${blocked} not exercised, ` : ''}${skipped} skipped; ${distinct} distinct failure${distinct === 1 ? '' : 's'}`,
  );
  return lines.join('\n');
}

/** A check the target kept from being exercised (a failed create, a sequence that never got there): failed, with why. */
const notExercised = (result: FuzzRun['results'][number]) => result.status === 'failed' && result.reason !== undefined;

/**
 * One request: its curl line (and the script, with --scripts). A failure after other requests (a sequence, the hook a
 * case acted on): the script that sends them all, or how to get it, and the last request's curl line.
 */
function reproduceLines(
  run: FuzzRun,
  failure: FuzzRun['failures'][number],
  embedded: boolean,
  scripts: string | undefined,
  mockEngine: 'prism' | 'own' | 'stateful',
  ports: MockPorts,
): string[] {
  const curl = stable(run, failure.curl, embedded, ports);
  const file = scripts === undefined ? undefined : path.join(scripts, `${failure.id}.sh`);
  const steps = failure.steps ?? 1;
  const start = embedded
    ? [`      the target is gone with the run; start it first: ${startCommand(failure.api, mockEngine, ports)}`]
    : [];
  if (steps <= 1) return [...start, `      reproduce: ${curl}`, ...(file ? [`      script: bash ${file}`] : [])];
  return [
    ...start,
    file
      ? `      reproduce: bash ${file} (the ${steps} requests that led to it, ids read from the answers)`
      : `      reproduce: the ${steps} requests that led to it (--scripts DIR writes them as a bash script; the JSON report's "script"), the last:`,
    `      ${file ? 'the last: ' : ''}${curl}`,
  ];
}

/** Writes each failure's reproduction script to `dir` as ID.sh (executable), redacted as every output is. */
export async function writeFuzzScripts(run: FuzzRun, dir: string, redactor: Redactor): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    for (const failure of run.failures)
      if (failure.script)
        await writeFile(path.join(dir, `${failure.id}.sh`), redactor.redact(failure.script), { mode: 0o755 });
  } catch (error) {
    throw new ContractsError(
      'REPORT_NOT_WRITABLE',
      `cannot write the reproduction scripts to ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/**
 * Whether `contracts sandbox` (no --api) serves this API: it serves the package's own project, the APIs its
 * contracts.config.yaml lists (config/seed-project.ts), as fuzz's embedded target does for them.
 */
const servedBySandbox = (api: string): boolean => seedProject.has(api);

/** The port `contracts sandbox` listens on by default (sandbox-command.ts). */
const sandboxPort = 4020;

/**
 * Where a curl line sends what went to an embedded target, which ends with the run: the port the command that
 * starts it again listens on (startCommand), so the line runs as printed once that is started.
 */
function restartedOrigin(api: string, ports: MockPorts): string {
  return `http://127.0.0.1:${servedBySandbox(api) ? sandboxPort : (ports[api] ?? 4010)}`;
}

/** The command that starts an embedded target again, on the port restartedOrigin names. */
function startCommand(api: string, mockEngine: 'prism' | 'own' | 'stateful', ports: MockPorts): string {
  if (servedBySandbox(api)) return `npx contracts sandbox --port ${sandboxPort}`;
  const port = restartedOrigin(api, ports).split(':').at(-1);
  if (mockEngine === 'stateful') return `npx contracts sandbox --api ${shellQuote(api)} --port ${port}`;
  const engine = mockEngine === 'own' ? ' --engine own' : '';
  return `npx contracts mock --api ${shellQuote(api)} ${shellQuote(`--port-${api}`)} ${port}${engine}`;
}

/**
 * The run marker and the port of the sandbox or mock vary from run to run; the curl line shows neither: an embedded
 * target's origin is the one its start command listens on. Only the marker in a config.url is replaced: a secret the
 * run made up carries it too, and must stay whole for the redactor to find it.
 */
function stable(run: FuzzRun, text: string, embedded: boolean, ports: MockPorts): string {
  let shown = run.marker === '' ? text : text.split(`contracts-fuzz=${run.marker}-`).join('contracts-fuzz=RUN-');
  if (embedded)
    // The longest first: a port that is another's prefix (5432, 54321) is not replaced inside it.
    for (const [api, target] of Object.entries(run.targets).sort(([, a], [, b]) => (b?.length ?? 0) - (a?.length ?? 0)))
      if (target) shown = shown.split(target).join(restartedOrigin(api, ports));
  return shown;
}

/** `--report json:FILE`: the check report's shape, plus the seed and every failure with the request it sent. */
export async function writeFuzzJson(run: FuzzRun, file: string, redactor: Redactor): Promise<void> {
  const base = JSON.parse(jsonReport(run)) as Record<string, unknown>;
  const text = redactor.redact(
    JSON.stringify(
      {
        ...base,
        seed: run.seed,
        requests: run.requests,
        ...(run.rateLimited ? { rateLimited: run.rateLimited } : {}),
        failureGrouping: groupedBy,
        failures: run.failures.map(({ key: _key, ...failure }) => failure),
      },
      null,
      2,
    ),
  );
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(temporary, text);
    await rename(temporary, file);
  } catch (error) {
    throw new ContractsError(
      'REPORT_NOT_WRITABLE',
      `cannot write the json report to ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}
