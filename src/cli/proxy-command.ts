// `contracts proxy`: a validating reverse proxy in front of a service; every request and response is checked against
// the API's spec as traffic flows.
import path from 'node:path';
import { specPath, type ApiName, type Project } from '../config/project.js';
import { ContractsError } from '../core/errors.js';
import type { Finding } from '../core/finding.js';
import type { ProxiedExchange, ProxyOptions } from '../proxy/start-proxy.js';
import { exitCodes, type Command, type Io, type OptionSpec, type ParsedOptions } from './command.js';
import { coverageOptions, coverageSettings, reportCoverage } from './coverage-output.js';
import { checksOption, sayUserChecksNotRun, userChecksFor } from './checks-option.js';
import { settleUserChecks } from '../reports/settle-user-checks.js';
import { untilSignalled } from './parse-args.js';
import { requireChoice, requireMegabytes, requireMilliseconds } from './options/values.js';
import {
  headTimeoutOption,
  hostOption,
  maxBodyOption,
  portOption,
  reportOption,
  timeoutOption,
} from './options/shared-options.js';
import { valueOf, withOption } from './options/typed-option.js';

export const proxyCommand: Command = {
  name: 'proxy',
  summary: 'A reverse proxy that checks every request and response against the spec as traffic flows',
  usage:
    '--api NAME --target URL [--port P] [--host H] [--errors] [--har-out FILE] [--report KIND:FILE]... [--coverage FILE] [--min-coverage N]',
  description: [
    'Forwards every request unchanged to --target (bodies streamed both ways, connections kept alive, redirects',
    'relayed, never followed) and checks both sides with the core: request parameters, body and the presence of',
    'the credential; response status, content type, body schema, headers. One line per violation as it happens;',
    'at exit (Ctrl-C) a summary, the coverage, and with --har-out the traffic as a HAR (credentials redacted).',
    'Checking never holds up an answer: each exchange is judged once the client has it, and at exit every one',
    'received has been judged before the summary is printed.',
    'A target that cannot answer is answered 502 with the reason.',
    'A request the target could read otherwise than the proxy did (ambiguous framing, a dot segment or an encoded',
    'slash in its path) is refused 400, never forwarded; an answer framed ambiguously is answered 502.',
    'Past --max-connections, or --max-in-flight of memory held, a request is answered 503; a head slower than',
    '--head-timeout, 408. At Ctrl-C, exchanges still going after --stop-timeout are cut off and reported as not judged.',
    '',
    '--errors: a request that breaks the spec is answered 400 with a JSON body naming the violations, and is',
    'not forwarded; the violations are printed too. Exit status: 1 when anything broke the contract.',
  ].join('\n'),
  // The options name the project's APIs, known once main() has read it.
  options(project: Project): OptionSpec[] {
    return [
      {
        name: 'api',
        type: 'string',
        valueName: 'name',
        description: `The API behind the target: ${project.names.join(', ')}`,
      },
      {
        name: 'target',
        type: 'string',
        valueName: 'url',
        description: 'Where requests go, e.g. http://127.0.0.1:4020',
      },
      portOption(4030),
      hostOption,
      {
        name: 'errors',
        type: 'boolean',
        description: 'Answer a request that breaks the spec 400 instead of forwarding it',
      },
      checksOption,
      {
        name: 'har-out',
        type: 'string',
        valueName: 'file',
        description: 'Write the traffic as a HAR capture (credentials redacted)',
      },
      withOption(maxBodyOption, {
        description: 'Largest body (each way) kept for checking; a larger one streams on, not checked',
      }),
      withOption(reportOption, {
        description: 'At exit, write a report of every check judged: junit:FILE, json:FILE or html:FILE',
      }),
      withOption(timeoutOption, {
        description: 'How long the target may stay silent before the request is answered 502',
        default: '30000',
      }),
      ...limitOptions(),
      ...coverageOptions,
    ];
  },
  examples: [
    {
      command: 'contracts proxy --api orders --target http://127.0.0.1:4020 --port 4030',
      description: 'Point the frontend at :4030 instead of the service',
    },
    {
      command:
        'contracts proxy --api orders --target https://staging.example.com --errors --har-out run.har --coverage coverage.json',
      description: 'Refuse invalid requests, keep the traffic and the coverage',
    },
  ],
  async run(options, positionals, io) {
    if (positionals.length > 0) throw new ContractsError('USAGE', `unexpected argument "${positionals[0]}"`);
    if (options.api === undefined)
      throw new ContractsError('USAGE', `name the API behind the target: --api ${io.project.names.join('|')}`);
    const entry = io.project.api(String(requireChoice('api', options.api, io.project.names)));
    const api = entry.name;
    const target = requireTarget(options.target);
    const port = valueOf(options, portOption(4030));
    const maxBodyBytes = valueOf(options, maxBodyOption);
    const timeoutMs = valueOf(options, timeoutOption);
    const limits = proxyLimits(options);
    const coverageSetting = coverageSettings(options, io);
    const [{ writeReports }, { ResultCollector, summarize }] = await Promise.all([
      import('../reports/write-reports.js'),
      import('../reports/results.js'),
    ]);
    const reports = await reportTargets(options, io);
    const results = new ResultCollector();
    const started = performance.now();
    const signalled = untilSignalled();
    const [
      { loadSpec },
      { compileContract },
      { Coverage },
      { startProxy },
      { HarWriter },
      { duplicateOperationIdWarnings },
    ] = await Promise.all([
      import('../core/load-spec.js'),
      import('../core/compile-contract.js'),
      import('../core/coverage.js'),
      import('../proxy/start-proxy.js'),
      import('../har/har-writer.js'),
      import('../core/operation-index.js'),
    ]);
    const contract = compileContract(await loadSpec(specPath(entry), entry.spec));
    for (const warning of duplicateOperationIdWarnings(contract.operations)) io.err(`contracts proxy: ${warning}`);
    const userChecks = await userChecksFor(options, io, [api], io.project.apis)(api, contract);
    const coverage = new Coverage([{ api, contract }]);
    io.redactor.addSpecCredentials(contract.spec.document);
    const redact = (text: string) => io.redactor.redact(text);
    const har =
      typeof options['har-out'] === 'string'
        ? await HarWriter.create(
            path.resolve(io.cwd, options['har-out']),
            target,
            redact,
            contract.spec.document,
          ).catch((error: NodeJS.ErrnoException) => {
            throw new ContractsError(
              'REPORT_NOT_WRITABLE',
              `cannot write the HAR to ${String(options['har-out'])}: ${error.code ?? error.message}`,
            );
          })
        : undefined;
    const counts = emptyCounts();
    const saidLive = new WeakSet<Finding>();
    const notJudged: string[] = [];
    const proxy = await startProxy({
      contract,
      target,
      port,
      host: valueOf(options, hostOption),
      errors: Boolean(options.errors),
      maxBodyBytes,
      timeoutMs,
      ...limits,
      redact,
      userChecks,
      onStreamFinding: sayLive(io.out, saidLive),
      onExchange(exchange) {
        tally(exchange, counts, io.out, saidLive);
        har?.add(exchange);
        if (exchange.notJudged !== undefined) return void notJudged.push(notJudgedEntry(exchange));
        // The results only for --report: keeping them costs a fifth of the checking time per exchange.
        recordExchange(exchange, api, coverage, reports.length > 0 ? results : undefined);
      },
    }).catch((error: NodeJS.ErrnoException) => {
      throw new ContractsError(
        'USAGE',
        `cannot listen on ${valueOf(options, hostOption)}:${port}: ${error.code ?? error.message}`,
      );
    });
    io.out(`Proxy for ${api} at ${proxy.url} → ${target}${options.errors ? ' (invalid requests answered 400)' : ''}`);
    io.out('Ctrl-C to stop.');
    const signal = await signalled;
    await proxy.stop();
    await har?.close();
    const { received, judgedAtOnce } = proxy.stats();
    const underCoverage = await closingReport(
      { signal, counts, received, judgedAtOnce, coverage: coverage.report(), coverageSetting },
      io,
    );
    if (har) io.out(`HAR written to ${String(options['har-out'])}`);
    const notExercised = sayUserChecksNotRun(userChecks, io.out);
    settleUserChecks(results, api, userChecks);
    const all = results.all();
    await writeReports(
      {
        mode: 'proxy',
        targets: { [api]: target },
        results: all,
        summary: summarize(all),
        notRun: notJudged,
        durationMs: performance.now() - started,
      },
      reports,
      io.redactor,
    );
    if (received !== counts.exchanges) return exitCodes.cannotRun;
    return counts.fail + counts.unmatched + counts.upstreamErrors + notExercised > 0 || underCoverage
      ? exitCodes.failed
      : exitCodes.ok;
  },
};

function requireTarget(value: unknown): string {
  if (typeof value !== 'string')
    throw new ContractsError('USAGE', 'name the service to forward to: --target URL (e.g. http://127.0.0.1:4020)');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ContractsError('USAGE', `--target must be an http(s) URL, not "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ContractsError('USAGE', `--target must be an http(s) URL, not "${value}"`);
  if (url.search || url.hash) throw new ContractsError('USAGE', '--target takes no query or fragment');
  return value;
}

/** What a client may make the proxy hold, and how long a stop may take. */
function limitOptions(): OptionSpec[] {
  return [
    withOption(headTimeoutOption, {
      description: "How long a request's head (request line and headers) may take to arrive; then 408, and closed",
    }),
    {
      name: 'max-connections',
      type: 'string',
      valueName: 'n',
      description: 'Client connections served at once; one more is answered 503 and closed',
      default: '256',
    },
    {
      name: 'max-in-flight',
      type: 'string',
      valueName: 'MB',
      description:
        'Memory the exchanges in flight may hold (heads and kept bodies, at least twice --max-body); past it, 503',
      default: '128',
    },
    {
      name: 'stop-timeout',
      type: 'string',
      valueName: 'ms',
      description: 'At Ctrl-C, how long exchanges in flight may take to end; then cut off, reported as not judged',
      default: '5000',
    },
  ];
}

function proxyLimits(
  options: ParsedOptions,
): Pick<ProxyOptions, 'headTimeoutMs' | 'maxConnections' | 'maxInFlightBytes' | 'stopTimeoutMs'> {
  const maxConnections = Number(options['max-connections']);
  if (!Number.isSafeInteger(maxConnections) || maxConnections < 1)
    throw new ContractsError(
      'USAGE',
      `--max-connections must be a whole number from 1, not "${String(options['max-connections'])}"`,
    );
  return {
    headTimeoutMs: valueOf(options, headTimeoutOption),
    maxConnections,
    maxInFlightBytes: requireMegabytes(options['max-in-flight'], 'max-in-flight'),
    stopTimeoutMs: requireMilliseconds('stop-timeout', options['stop-timeout']),
  };
}

type ExchangeCounts = ReturnType<typeof emptyCounts>;

function emptyCounts() {
  return {
    exchanges: 0,
    conform: 0,
    fail: 0,
    blocked: 0,
    unmatched: 0,
    upstreamErrors: 0,
    clientGone: 0,
    notJudged: 0,
  };
}

/** Counts an exchange for the summary and prints its lines as it ends: one per finding, and why it failed. */
/** OpenAPI 3.2 streams: an item's finding is said as the item passes, and not again when the exchange ends. */
function sayLive(out: (line: string) => void, saidLive: WeakSet<Finding>) {
  return (exchange: { method: string; target: string; status: number }, finding: Finding) => {
    saidLive.add(finding);
    out(findingLine(finding, `${exchange.method} ${exchange.target} → ${exchange.status} (${finding.operation})`));
  };
}

function findingLine(finding: Finding, line: string): string {
  return `${finding.severity === 'error' ? '✗' : '!'} ${line} ${finding.check}${finding.instancePath ? ` ${finding.instancePath}` : ''}: ${finding.message}`;
}

function tally(
  exchange: ProxiedExchange,
  counts: ExchangeCounts,
  out: (line: string) => void,
  saidLive: WeakSet<Finding>,
): void {
  counts.exchanges++;
  if (exchange.notJudged !== undefined) {
    counts.notJudged++;
    out(
      `! ${exchange.method} ${exchange.target} → ${exchange.status || 'no answer'}: not judged: ${exchange.notJudged}`,
    );
    return;
  }
  const findings: Finding[] = [...exchange.requestResult.findings];
  // An exchange that matches no operation is said once.
  if (exchange.responseResult && exchange.requestResult.operationId !== undefined)
    findings.push(...exchange.responseResult.findings);
  const failed = findings.some((finding) => finding.severity === 'error');
  if (exchange.operationId === undefined) counts.unmatched++;
  else if (failed) counts.fail++;
  // A client that hung up is no fault of the target's: its response is not judged, nor counted as conforming.
  else if (exchange.clientGone) counts.clientGone++;
  else if (!exchange.upstreamError) counts.conform++;
  if (exchange.blocked) counts.blocked++;
  if (exchange.upstreamError && !exchange.clientGone) counts.upstreamErrors++;
  const line = `${exchange.method} ${exchange.target} → ${exchange.status}${exchange.operationId ? ` (${exchange.operationId})` : ''}${exchange.blocked ? ' blocked' : ''}`;
  for (const finding of findings) if (!saidLive.has(finding)) out(findingLine(finding, line));
  // Blocked with a reason: the proxy cut the request off itself (malformed mid-body, or over its memory).
  if (exchange.upstreamError && !exchange.clientGone)
    out(`✗ ${line}: ${exchange.blocked ? 'refused by the proxy' : 'the target failed'}: ${exchange.upstreamError}`);
}

/** A not-judged exchange as the reports' notRun lists it: its operation, or its method and path. */
/** One judged exchange into the coverage, and into the results by check when there are reports to write. */
function recordExchange(
  exchange: ProxiedExchange,
  api: ApiName,
  coverage: import('../core/coverage.js').Coverage,
  results: import('../reports/results.js').ResultCollector | undefined,
): void {
  if (exchange.operationId === undefined) return;
  if (results)
    for (const result of [exchange.requestResult, ...(exchange.responseResult ? [exchange.responseResult] : [])]) {
      for (const check of result.applied)
        results.record(
          api,
          exchange.operationId,
          check,
          result.findings.filter((finding) => finding.check === check),
          exchange.durationMs,
        );
    }
  coverage.recordRequest(api, exchange.operationId, exchange.request);
  if (exchange.response) {
    const { status, headers, json } = exchange.response;
    coverage.recordResponse(
      api,
      exchange.operationId,
      { status, headers, ...(json !== undefined ? { json } : {}) },
      true,
    );
  }
}

/** The lines at stop: what was received and judged, and the coverage; whether it is under --min-coverage. */
async function closingReport(
  {
    signal,
    counts,
    received,
    judgedAtOnce,
    coverage,
    coverageSetting,
  }: {
    signal: string;
    counts: ExchangeCounts;
    received: number;
    judgedAtOnce: number;
    coverage: import('../core/coverage.js').CoverageReport;
    coverageSetting: ReturnType<typeof coverageSettings>;
  },
  io: Io,
): Promise<boolean> {
  // stop() judged every exchange received: a difference would be a bug of ours, said rather than hidden.
  if (received !== counts.exchanges)
    io.err(`${received - counts.exchanges} of the ${received} requests received were not checked`);
  io.out(
    `${signal}: ${counts.exchanges} exchange${counts.exchanges === 1 ? '' : 's'}: ${counts.conform} conform, ${counts.fail} fail${counts.blocked ? ` (${counts.blocked} blocked)` : ''}, ${counts.unmatched} match no operation${counts.upstreamErrors ? `, ${counts.upstreamErrors} target failures` : ''}${counts.clientGone ? `, ${counts.clientGone} cut off by the client` : ''}${counts.notJudged ? `, ${counts.notJudged} cut off at stop (not judged)` : ''}`,
  );
  if (judgedAtOnce > 0)
    io.out(`${judgedAtOnce} exchanges were checked while forwarding waited: more traffic than checking keeps up with`);
  return reportCoverage(coverage, coverageSetting, io, io.out);
}

function notJudgedEntry(exchange: ProxiedExchange): string {
  return `${exchange.operationId ?? `${exchange.method} ${exchange.request.path}`} (cut off at stop: not judged)`;
}

/** The --report targets, refused before anything runs when one would overwrite a spec of the project. */
async function reportTargets(options: ParsedOptions, io: Io) {
  const [{ parseReportTargets }, { checkReportTargets }] = await Promise.all([
    import('../reports/write-reports.js'),
    import('../reports/report-path.js'),
  ]);
  const reports = parseReportTargets(valueOf(options, reportOption), io.cwd);
  await checkReportTargets(
    reports,
    io.project.apis.map((shipped) => ({
      file: specPath(shipped),
      what: `the shipped ${shipped.name} spec (${shipped.spec})`,
    })),
  );
  return reports;
}
