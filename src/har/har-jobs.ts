// Where the entries of `validate --har` are judged: on the main thread (--jobs 1), or spread over worker threads,
// each with the specs compiled once. Both take batches of entries and hand back verdicts; check-har.ts puts them
// in order.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { compileContract } from '../core/compile-contract.js';
import { Coverage, type OperationCoverage } from '../core/coverage.js';
import { ContractsError, type ContractsErrorCode, type SourceLocation } from '../core/errors.js';
import { loadSpec } from '../core/load-spec.js';
import type { HarEntryText } from './har.js';
import { judgeHarEntry, type HarContracts, type HarJudgeSettings, type HarVerdict } from './judge-har-entry.js';

export interface HarSpec {
  file: string;
  display: string;
  api: string;
}

export interface HarWorkerData {
  specs: HarSpec[];
  settings: HarJudgeSettings;
}

export type ToWorker = { entries: HarEntryText[] };
export type ToMain =
  | { type: 'ready'; coverage: OperationCoverage[] }
  | { type: 'not-ready'; fault: { code?: ContractsErrorCode; message: string; location?: SourceLocation | undefined } }
  | { type: 'verdicts'; verdicts: HarVerdict[] }
  | { type: 'failed'; index: number; message: string; verdicts: HarVerdict[] };

export async function compileHarContracts(specs: readonly HarSpec[], strict: boolean): Promise<HarContracts> {
  const contracts = await Promise.all(
    specs.map(async (spec) => ({
      api: spec.api,
      contract: compileContract(await loadSpec(spec.file, spec.display), { strict }),
    })),
  );
  return { contracts, coverage: new Coverage(contracts) };
}

/** What judges batches: verdicts and faults come back through the callbacks given to it. */
export interface Judges {
  /** The coverage counts before any exchange, once the specs are compiled; rejects with why they are not. */
  ready: Promise<OperationCoverage[]>;
  submit(entries: HarEntryText[]): void;
  close(): void;
}

export interface JudgeEvents {
  verdicts(verdicts: HarVerdict[]): void;
  /** The run cannot go on: judging entry `index` threw (after the verdicts before it), or a worker died. */
  failed(error: Error, index?: number): void;
}

/** --jobs 1: judged here, as each batch is submitted. */
export function judgeHere(specs: HarSpec[], settings: HarJudgeSettings, events: JudgeEvents): Judges {
  const setup = compileHarContracts(specs, settings.strict);
  let compiled: HarContracts | undefined;
  return {
    ready: setup.then((done) => {
      compiled = done;
      return done.coverage.report().perOperation;
    }),
    submit(entries) {
      if (!compiled) throw new Error('entries submitted before the specs were compiled');
      const verdicts: HarVerdict[] = [];
      for (const { index, found } of entries) {
        try {
          verdicts.push(judgeHarEntry(compiled, found, index, settings));
        } catch (error) {
          events.verdicts(verdicts);
          events.failed(error as Error, index);
          return;
        }
      }
      events.verdicts(verdicts);
    },
    close() {},
  };
}

/** --jobs N: N worker threads; each batch goes to the one with the fewest batches outstanding. */
export function judgeInWorkers(
  jobs: number,
  specs: HarSpec[],
  settings: HarJudgeSettings,
  events: JudgeEvents,
): Judges {
  let closing = false;
  let failed = false;
  const fail = (error: Error, index?: number) => {
    if (failed || closing) return;
    failed = true;
    events.failed(error, index);
  };
  let settle: { resolve(coverage: OperationCoverage[]): void; reject(error: Error): void } | undefined;
  const ready = new Promise<OperationCoverage[]>((resolve, reject) => (settle = { resolve, reject }));
  const workers = Array.from({ length: jobs }, () => {
    const worker = startWorker({ specs, settings });
    const state = { worker, outstanding: 0 };
    worker.on('message', (message: ToMain) => {
      if (message.type === 'ready') settle?.resolve(message.coverage);
      else if (message.type === 'not-ready') {
        const { fault } = message;
        settle?.reject(
          fault.code ? new ContractsError(fault.code, fault.message, fault.location) : new Error(fault.message),
        );
      } else if (message.type === 'verdicts') {
        state.outstanding--;
        events.verdicts(message.verdicts);
      } else {
        events.verdicts(message.verdicts);
        fail(new Error(message.message), message.index);
      }
    });
    worker.on('error', (error) => {
      settle?.reject(error);
      fail(error);
    });
    worker.on('exit', (code) => {
      const error = new ContractsError(
        'INTERNAL',
        `a checking worker stopped unexpectedly (exit code ${code}): the run cannot be completed`,
      );
      settle?.reject(error);
      fail(error);
    });
    return state;
  });
  return {
    ready,
    submit(entries) {
      let chosen = workers[0]!;
      for (const state of workers) if (state.outstanding < chosen.outstanding) chosen = state;
      chosen.outstanding++;
      chosen.worker.postMessage({ entries } satisfies ToWorker);
    },
    close() {
      closing = true;
      for (const { worker } of workers) void worker.terminate();
    },
  };
}

/**
 * A worker running har-worker. Run from TypeScript (the checkout, through tsx), the worker registers tsx first:
 * a loader registered on the main thread does not reach worker threads in Node 20.
 */
function startWorker(data: HarWorkerData): Worker {
  const here = fileURLToPath(import.meta.url);
  const extension = path.extname(here);
  const entry = new URL(`./har-worker${extension}`, import.meta.url).href;
  const source =
    extension === '.ts'
      ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`
      : `import(${JSON.stringify(entry)});`;
  return new Worker(source, { eval: true, workerData: data });
}
