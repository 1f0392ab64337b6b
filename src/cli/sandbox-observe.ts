// What `contracts sandbox --spec/--api` does with each exchange once answered: `--strict` says every answer the
// sandbox could not serve as the API's (its own 500 marked x-contracts-mock-refusal: an answer the spec's checks
// refused, a hook's answer they refused, a hook that threw) on stderr, one line each, and makes the run end 1;
// `--record FILE` writes the exchanges as a HAR (src/mock/engine/record-har.ts). Without --strict such an answer is
// still never served (the same 500, its body naming the finding), nothing is said and the run ends 0.
import path from 'node:path';
import { configBoundary, isConfined } from '../config/confine-path.js';
import { ContractsError } from '../core/errors.js';
import { escapeLine } from '../core/escape-line.js';
import { mockRefusalHeader, mockRefusalValue } from '../core/mock-refusal.js';
import type { SandboxRecording } from '../mock/engine/record-har.js';
import type { ServedExchange } from '../mock/engine/start-stateful.js';
import { checkReportTargets, type RunInput } from '../reports/report-path.js';
import type { Io } from './command.js';

export interface Observer {
  observe(exchange: ServedExchange): void;
  /** The sandbox listens at `url`: the recording's origin. */
  listening(url: string): void;
  /** Closes the recording; the exit code the run ends with. */
  finish(): Promise<number>;
}

/** Lines --strict says at most; past them only the count grows (the output stays bounded). */
const maxStrictLines = 1000;

export async function sandboxObserver(
  options: { strict: boolean; record: string | undefined; inputs: RunInput[]; spec: unknown },
  io: Io,
): Promise<Observer> {
  const recording = options.record === undefined ? undefined : await openRecording(options.record, options, io);
  let refused = 0;
  return {
    listening(url) {
      if (recording) recording.base = url;
    },
    observe(exchange) {
      recording?.record(exchange);
      const { answer, request } = exchange;
      if (!options.strict || answer === 'drop' || answer.headers[mockRefusalHeader] !== mockRefusalValue) return;
      if (++refused > maxStrictLines) return;
      io.err(`sandbox --strict: ${escapeLine(`${request.method} ${request.target}`)}: ${refusalDetail(answer.body)}`);
    },
    async finish() {
      await recording?.close();
      if (options.record !== undefined) io.out(`HAR written to ${escapeLine(options.record)}`);
      if (refused === 0) return 0;
      io.err(
        `sandbox --strict: ${refused} answer(s) were not served as the API's (the spec's checks refused them, or a hook failed): answered 500`,
      );
      return 1;
    },
  };
}

function refusalDetail(body: string): string {
  try {
    const detail = (JSON.parse(body) as { detail?: unknown }).detail;
    return escapeLine(typeof detail === 'string' ? detail : body).slice(0, 1000);
  } catch {
    return escapeLine(body).slice(0, 1000);
  }
}

/**
 * The HAR --record writes, opened before the sandbox starts: a path outside the project (the git repository the
 * working folder is in, else that folder), or one that is the spec, the hooks module or the seed data, is refused.
 */
async function openRecording(
  file: string,
  options: { inputs: RunInput[]; spec: unknown },
  io: Io,
): Promise<SandboxRecording> {
  const target = path.resolve(io.cwd, file);
  const boundary = configBoundary(io.cwd);
  if (!isConfined(target, boundary))
    throw new ContractsError(
      'REPORT_NOT_WRITABLE',
      `--record ${escapeLine(file)} leads outside the project (${escapeLine(boundary)}): name a file inside it`,
    );
  await checkReportTargets([{ kind: 'json', file: target, shown: file }], options.inputs).catch((error: unknown) => {
    throw new ContractsError('REPORT_NOT_WRITABLE', (error as Error).message.replace(/^--report json:/, '--record '));
  });
  const [{ HarWriter }, { SandboxRecording }] = await Promise.all([
    import('../har/har-writer.js'),
    import('../mock/engine/record-har.js'),
  ]);
  io.redactor.addSpecCredentials(options.spec);
  try {
    const writer = await HarWriter.create(
      target,
      '',
      (text) => io.redactor.redact(text),
      options.spec,
      'contracts sandbox',
    );
    return new SandboxRecording(writer, (line) => io.err(line));
  } catch (error) {
    throw new ContractsError(
      'REPORT_NOT_WRITABLE',
      `cannot write the HAR to ${escapeLine(file)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}
