// `contracts validate`: checks one recorded response, or every exchange of a HAR capture, against a spec.
import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { specPath, type Project } from '../config/project.js';
import { ContractsError } from '../core/errors.js';
import { decodeBody, type Exchange } from '../core/exchange.js';
import type { Finding } from '../core/finding.js';
import { exitCodes, markedInJson, type Command, type OptionSpec, type Io, type ParsedOptions } from './command.js';
import { coverageOptions, coverageSettings, reportCoverage } from './coverage-output.js';
import { outputGone } from './output-gone.js';
import { startProgress } from './progress.js';
import { parseSpecs, specOption, specOverrides } from './spec-option.js';
import { requireChoice } from './options/values.js';
import { mark, type Side } from '../har/judge-har-entry.js';
import { setOwn } from '../core/own-key.js';
import { userChecksNotRun, withUserChecks } from '../core/user-checks/run-user-checks.js';
import { checksOption, sayUserChecksNotRun, userChecksFor, userChecksOnHar } from './checks-option.js';
import { formatOption, maxBodyOption, quietOption, strictOption } from './options/shared-options.js';
import { text, texts, valueOf, withOption } from './options/typed-option.js';

const validateFormat = formatOption(['text', 'json'] as const);

export const validateCommand: Command = {
  name: 'validate',
  summary: 'Check one recorded response, or a HAR capture, against a spec',
  usage:
    '(--api NAME | --spec FILE) ((--operation ID | --method M --path P) --status N [--header H]... [--body FILE|-] | --har FILE [--side request|response|both]) | --delivery --headers FILE --body FILE|-',
  description: [
    'Runs the per-exchange checks (status code, content type, body schema, response headers, paymentMethod',
    'placement) on responses you already have: one given by its parts, or every exchange of a HAR capture',
    '(each matched to its operation by method and path; an exchange that matches none is reported).',
    'With --har the request side is checked too (parameters, body, presence of the credential; --side).',
  ].join('\n'),
  // The options name the project's APIs, known once main() has read it.
  options(project: Project): OptionSpec[] {
    return [
      {
        name: 'api',
        type: 'string',
        valueName: 'name',
        description: `The spec of a shipped API: ${project.names.join(', ')} (with --har also all)`,
      },
      specOption(
        'Any Swagger 2.0 or OpenAPI 3.0-3.2 file: FILE alone, or for an API (API=FILE, or FILE with --api NAME) instead of its own',
      ),
      {
        name: 'operation',
        type: 'string',
        valueName: 'id',
        description: 'operationId of the response (instead of --method and --path)',
      },
      { name: 'method', type: 'string', valueName: 'method', description: 'HTTP method of the request' },
      {
        name: 'path',
        type: 'string',
        valueName: 'path',
        description: 'Concrete request path, e.g. /repos/o/r/hooks/42',
      },
      { name: 'status', type: 'string', valueName: 'code', description: 'Response status code' },
      { name: 'header', type: 'string', valueName: 'Name: value', multiple: true, description: 'A response header' },
      {
        name: 'body',
        type: 'string',
        valueName: 'file|-',
        description: 'Response body from a file, or - for standard input',
      },
      { name: 'har', type: 'string', valueName: 'file', description: 'Check every exchange of a HAR capture' },
      {
        name: 'side',
        type: 'string',
        valueName: 'request|response|both',
        description: 'With --har: which side of each exchange to check (default both)',
        requires: ['har'],
      },
      {
        name: 'jobs',
        type: 'string',
        valueName: 'N',
        description:
          'With --har: worker threads that check the exchanges (default: one per core but one, from 3 cores and for a capture over 16 MB; 1 checks on the main thread)',
        requires: ['har'],
      },
      ...coverageOptions.map((option) => ({ ...option, requires: ['har'] })),
      strictOption,
      checksOption,
      withOption(maxBodyOption, {
        description: 'Largest body read (--body, standard input, each HAR body); a larger one is reported, not checked',
      }),
      {
        name: 'delivery',
        type: 'boolean',
        description: "Check one recorded webhook delivery (--headers and --body) against the spec's webhooks",
      },
      {
        name: 'headers',
        type: 'string',
        valueName: 'file',
        description: 'With --delivery: its request headers, as "Name: value" lines or a JSON object',
        requires: ['delivery'],
      },
      {
        name: 'secret-env',
        type: 'string',
        valueName: 'NAME',
        description:
          "With --delivery: the variable holding the hook's secret (default WEBHOOK_SECRET; unset: signatures not judged)",
        requires: ['delivery'],
      },
      validateFormat,
      quietOption,
    ];
  },
  examples: [
    {
      command:
        "contracts validate --api orders --operation getOrder --status 200 --header 'Content-Type: application/json' --body order.json",
      description: 'One recorded response',
    },
    {
      command:
        "curl -s … | contracts validate --api orders --method GET --path /orders/42 --status 200 --header 'content-type: application/json' --body -",
      description: 'A body from standard input',
    },
    {
      command: 'contracts validate --api orders --har staging.har --format json',
      description: 'Every exchange of a browser or proxy capture',
    },
    {
      command: 'WEBHOOK_SECRET=… contracts validate --delivery --headers delivery-headers.txt --body delivery.json',
      description: 'One recorded webhook delivery: signatures, headers, payload',
    },
  ],
  async run(options, positionals, io) {
    if (positionals.length > 0) throw new ContractsError('USAGE', `unexpected argument "${positionals[0]}"`);
    const format = valueOf(options, validateFormat);
    const maxBodyBytes = valueOf(options, maxBodyOption);
    if (options.delivery)
      return (await import('./validate-delivery.js')).validateDelivery(options, io, format, maxBodyBytes);
    const specFiles = resolveSpecs(options, io, options.har !== undefined);
    if (options.har !== undefined) {
      userChecksOnHar(options, io, specFiles, io.project.apis);
      for (const name of ['operation', 'method', 'path', 'status', 'header', 'body']) {
        if (options[name] !== undefined)
          throw new ContractsError('USAGE', `--har checks whole captures: it does not go with --${name}`);
      }
    }
    const jobs = requireJobs(options.jobs);
    const side =
      options.side === undefined ? 'both' : requireChoice('side', options.side, ['request', 'response', 'both']);
    const coverageSetting = coverageSettings(options, io);
    const single = options.har === undefined ? await singleExchange(options, io, maxBodyBytes) : undefined;
    const strict = valueOf(options, strictOption);
    if (single) return validateOne(single, specFiles[0]!, { strict, format, options }, io);
    return validateHar(options, io, {
      specFiles,
      jobs,
      side: side as Side,
      strict,
      format: format as 'text' | 'json',
      maxBodyBytes,
      coverageSetting,
    });
  },
};

/** One recorded exchange against one spec: every check that applies, its findings. */
async function validateOne(
  single: NonNullable<Awaited<ReturnType<typeof singleExchange>>>,
  specFile: { file: string; display: string; api: string },
  { strict, format, options }: { strict: boolean; format: string; options: ParsedOptions },
  io: Io,
): Promise<number> {
  const [{ loadSpec }, { compileContract }, { checkExchange, omittedCount }, { duplicateOperationIdWarnings }] =
    await Promise.all([
      import('../core/load-spec.js'),
      import('../core/compile-contract.js'),
      import('../core/check-exchange.js'),
      import('../core/operation-index.js'),
    ]);
  const specFiles = [specFile];
  // One exchange needs its own operation's validators only: compiled when first used (start-up, bench/README.md).
  const contract = compileContract(await loadSpec(specFiles[0]!.file, specFiles[0]!.display), {
    strict,
    lazy: true,
  });
  for (const warning of duplicateOperationIdWarnings(contract.operations)) io.err(`contracts validate: ${warning}`);
  if (single.operationId !== undefined && !contract.byOperationId.has(single.operationId)) {
    throw new ContractsError(
      'USAGE',
      `no operation "${single.operationId}" in ${specFiles[0]!.display}; its operations: ${[...contract.byOperationId.keys()].join(', ')}`,
    );
  }
  const userChecks = await userChecksFor(options, io, [specFile.api], io.project.apis)(specFile.api, contract);
  const { method, path: requestPath } = single.exchange;
  const result = withUserChecks(
    checkExchange(contract, single.exchange, {
      strict,
      ...(single.operationId ? { operationId: single.operationId } : {}),
    }),
    userChecks,
    contract,
    { method, path: requestPath },
    single.exchange,
  );
  const failed = result.findings.some((finding) => finding.severity === 'error');
  const omitted = omittedCount(result);
  if (format === 'json')
    io.out(
      JSON.stringify(
        {
          operation: result.operationId ?? null,
          applied: result.applied,
          findings: result.findings,
          ...(omitted ? { omitted } : {}),
          ...(userChecks ? { notExercised: userChecksNotRun(userChecks).map(({ check }) => check) } : {}),
        },
        null,
        2,
      ),
    );
  else io.out(describe(result.operationId, result.applied.length, result.findings, omitted));
  if (format !== 'json') sayUserChecksNotRun(userChecks, io.out, false);
  return failed ? exitCodes.failed : exitCodes.ok;
}

/** A HAR capture, streamed (check-har.ts): each exchange's verdict in capture order, then the summary and coverage. */
async function validateHar(
  options: ParsedOptions,
  io: Io,
  {
    specFiles,
    jobs,
    side,
    strict,
    format,
    maxBodyBytes,
    coverageSetting,
  }: {
    specFiles: ReturnType<typeof resolveSpecs>;
    jobs: ReturnType<typeof requireJobs>;
    side: Side;
    strict: boolean;
    format: 'text' | 'json';
    maxBodyBytes: number;
    coverageSetting: ReturnType<typeof coverageSettings>;
  },
): Promise<number> {
  // Streamed: entries are read and split here, judged here or by --jobs worker threads, and reported in capture
  // order; a bounded window of them is in flight, so memory does not grow with the capture. A signal, or the
  // reader of the output going away, stops it between exchanges (or while it waits for the file), so what was
  // written, the JSON above all, is complete.
  const { checkHar } = await import('../har/check-har.js');
  const run = checkHar({
    file: path.resolve(io.cwd, String(options.har)),
    shown: String(options.har),
    specs: specFiles,
    jobs,
    side: side as Side,
    strict,
    format: format as 'text' | 'json',
    maxBodyBytes,
  });
  try {
    await run.ready;
  } catch (error) {
    run.close();
    throw error;
  }
  const counts = { exchanges: 0, passed: 0, failed: 0, unmatched: 0, invalid: 0 };
  const stop = whenStopped();
  const progress = startProgress({
    stream: io.progressStream,
    quiet: valueOf(options, quietOption),
    label: 'validate',
    unit: 'exchanges',
    findings: 'failing',
    snapshot: () => ({ done: counts.exchanges, findings: counts.failed + counts.unmatched + counts.invalid }),
  });
  io = progress.around(io);
  try {
    if (format === 'json') io.out('{\n  "results": [');
    for (;;) {
      const reading = run.verdicts.next();
      const next = await stop.race(reading);
      if (next === 'stopped') {
        // The read left behind may still fail (the file cut off): that no longer matters.
        reading.catch(() => undefined);
        break;
      }
      if (next.done) break;
      const verdict = next.value;
      counts.exchanges++;
      counts[verdict.verdict]++;
      for (const line of verdict.out ?? [])
        io.out(format === 'json' ? `${counts.exchanges > 1 ? ',' : ''}    ${line}` : line);
    }
  } catch (error) {
    // The JSON begun above is closed with the error in it: a reader of --format json always gets a whole document.
    if (format === 'json') {
      const code = error instanceof ContractsError ? error.code : 'INTERNAL';
      const message = error instanceof ContractsError ? error.toLine() : `internal error: ${(error as Error).message}`;
      io.out(`  ],\n  "summary": ${JSON.stringify(counts)},\n  "error": ${JSON.stringify({ code, message })}\n}`);
      throw markedInJson(error as object);
    }
    throw error;
  } finally {
    progress.stop();
    stop.dispose();
    run.close();
  }
  const { reason } = stop;
  const coverageReport = run.coverage().report();
  if (format === 'json')
    io.out(
      `  ],\n  "summary": ${JSON.stringify(counts)},\n  "coverage": ${JSON.stringify(coverageReport.statusPairs)}${reason ? `,\n  "stopped": ${JSON.stringify(`${reason}: only the first ${counts.exchanges} exchanges were checked`)}` : ''}\n}`,
    );
  else
    io.out(
      `${counts.exchanges} exchange${counts.exchanges === 1 ? '' : 's'}: ${counts.passed} conform, ${counts.failed} fail, ${counts.unmatched} match no operation${counts.invalid ? `, ${counts.invalid} not an exchange` : ''}`,
    );
  const showCoverage = coverageSetting.file !== undefined || coverageSetting.min !== undefined;
  const underCoverage =
    showCoverage && reason === undefined
      ? await reportCoverage(coverageReport, coverageSetting, io, format === 'json' ? io.err : io.out)
      : false;
  // Whoever read the output has gone (`| head`): nothing more to say, and not a result to rely on.
  if (reason === 'output closed') return exitCodes.cannotRun;
  if (reason) {
    io.err(
      `contracts validate: ${reason}: stopped after ${counts.exchanges} exchange${counts.exchanges === 1 ? '' : 's'}; the rest of the capture was not checked`,
    );
    return exitCodes.cannotRun;
  }
  return counts.failed + counts.unmatched + counts.invalid > 0 || underCoverage ? exitCodes.failed : exitCodes.ok;
}

/**
 * Says on SIGINT or SIGTERM, or when the output's reader goes away, that the run is to stop; `reason` says which.
 * `race` waits for a promise or the stop. It holds one waiter at a time: a Promise.race of each read against one
 * long-lived promise would leave a reaction on it per read, each keeping that read's result (the exchange, its
 * body) alive to the end of the run, and memory would grow with the capture.
 */
function whenStopped(): {
  race<T>(promise: Promise<T>): Promise<T | 'stopped'>;
  reason: string | undefined;
  dispose(): void;
} {
  let wake: ((value: 'stopped') => void) | undefined;
  const stop = {
    race<T>(promise: Promise<T>): Promise<T | 'stopped'> {
      if (stop.reason !== undefined) return Promise.resolve('stopped');
      return new Promise<T | 'stopped'>((resolve, reject) => {
        wake = resolve;
        promise.then(resolve, reject).finally(() => {
          if (wake === resolve) wake = undefined;
        });
      });
    },
    reason: undefined as string | undefined,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      outputGone.signal.removeEventListener('abort', onGone);
    },
  };
  const halt = (reason: string) => {
    stop.reason ??= reason;
    wake?.('stopped');
  };
  const onSignal = (signal: NodeJS.Signals) => halt(signal);
  const onGone = () => halt('output closed');
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  if (outputGone.signal.aborted) onGone();
  else outputGone.signal.addEventListener('abort', onGone);
  return stop;
}

function resolveSpecs(options: ParsedOptions, io: Io, har: boolean): { file: string; display: string; api: string }[] {
  if (options.api === undefined) {
    // Without --api, the --spec values say it all: FILE alone (an API of its own), or API=FILE for each API.
    const specs = parseSpecs(options.spec, io.cwd, io.project.names);
    if (specs.length === 1 && specs[0]!.api === undefined)
      return [{ file: specs[0]!.file, display: specs[0]!.shown, api: specs[0]!.shown }];
    if (specs.length > 0 && specs.every((spec) => spec.api !== undefined)) {
      if (specs.length > 1 && !har)
        throw new ContractsError(
          'USAGE',
          'one response belongs to one API: give one --spec (several only go with --har)',
        );
      return specs.map((spec) => ({ file: spec.file, display: spec.shown, api: spec.api! }));
    }
    if (specs.length > 1)
      throw new ContractsError('USAGE', 'several --spec values need their APIs: --spec API=FILE for each');
  }
  if (options.api === undefined)
    throw new ContractsError(
      'USAGE',
      `name the spec: --api ${io.project.names.join('|')}${har ? '|all' : ''} or --spec FILE`,
    );
  if (String(options.api) === 'all' && !har)
    throw new ContractsError('USAGE', '--api all only goes with --har: one response belongs to one API');
  const chosen = io.project.select(String(options.api));
  const overrides = specOverrides(
    options.spec,
    io.cwd,
    chosen.map((entry) => entry.name),
    io.project.names,
  );
  return chosen.map((entry) => ({
    file: overrides[entry.name] ?? specPath(entry),
    display:
      overrides[entry.name] === undefined
        ? entry.spec
        : path.relative(io.cwd, overrides[entry.name]!) || overrides[entry.name]!,
    api: entry.name,
  }));
}

async function singleExchange(
  options: ParsedOptions,
  io: Io,
  maxBodyBytes: number,
): Promise<{ exchange: Exchange; operationId?: string }> {
  const operationId = text(options.operation);
  const method = text(options.method);
  const requestPath = text(options.path);
  if (operationId === undefined && (method === undefined || requestPath === undefined)) {
    throw new ContractsError(
      'USAGE',
      'say which response this is: --operation ID, or --method and --path (or check a capture with --har)',
    );
  }
  if (operationId !== undefined && (method !== undefined || requestPath !== undefined))
    throw new ContractsError('USAGE', '--operation replaces --method and --path: give one or the other');
  const statusText = text(options.status);
  if (statusText === undefined || !/^[1-5]\d\d$/.test(statusText))
    throw new ContractsError(
      'USAGE',
      `--status must be an HTTP status code (100-599)${statusText === undefined ? '' : `, not "${statusText}"`}`,
    );
  const headers: Record<string, string> = {};
  for (const header of texts(options.header)) {
    const colon = header.indexOf(':');
    if (colon <= 0) throw new ContractsError('USAGE', `--header takes "Name: value", not "${header}"`);
    setOwn(headers, header.slice(0, colon).trim().toLowerCase(), header.slice(colon + 1).trim());
  }
  const bodySource = text(options.body);
  const read =
    bodySource === undefined
      ? { bytes: Buffer.alloc(0), tooLarge: false }
      : bodySource === '-'
        ? await readCapped(process.stdin, maxBodyBytes, 'standard input')
        : await readCapped(createReadStream(path.resolve(io.cwd, bodySource)), maxBodyBytes, bodySource);
  const { text: body, notUtf8 } = decodeBody(read.bytes);
  const exchange: Exchange = read.tooLarge
    ? {
        method: method ?? 'GET',
        path: requestPath ?? '/',
        status: Number(statusText),
        headers,
        body: '',
        bodyTooLarge: maxBodyBytes,
      }
    : {
        method: method ?? 'GET',
        path: requestPath ?? '/',
        status: Number(statusText),
        headers,
        body,
        ...(notUtf8 ? { bodyNotUtf8: true } : {}),
      };
  return {
    exchange,
    ...(operationId !== undefined ? { operationId } : {}),
  };
}

/** --jobs: worker threads that check a HAR capture; by default as many as pay on this machine (check-har.ts). */
function requireJobs(value: unknown): number | 'auto' {
  if (value === undefined) return 'auto';
  const jobs = Number(value);
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 64)
    throw new ContractsError('USAGE', `--jobs must be a whole number from 1 to 64, not "${String(value)}"`);
  return jobs;
}

/** Reads at most `limit` bytes: reading stops at the first byte past it (`/dev/zero` or an endless pipe included). */
export async function readCapped(
  stream: Readable,
  limit: number,
  shown: string,
): Promise<{ bytes: Buffer; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > limit) {
        stream.destroy();
        return { bytes: Buffer.alloc(0), tooLarge: true };
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ContractsError(
      'INPUT_NOT_READABLE',
      code === 'ENOENT' ? `file not found: ${shown}` : `cannot read ${shown}: ${code ?? (error as Error).message}`,
    );
  }
  return { bytes: Buffer.concat(chunks), tooLarge: false };
}

function describe(operationId: string | undefined, applied: number, findings: Finding[], omitted: number): string {
  if (findings.length === 0) return `✓ conforms (${operationId}: ${applied} checks)`;
  const lines = findings.map((finding) => `${mark(finding)} ${finding.check}: ${finding.message}`);
  if (omitted > 0) lines.push(`… and ${omitted} more`);
  return lines.join('\n');
}
