// A worker thread of `validate --har --jobs N`: compiles the specs once, then judges the batches of entries the
// main thread sends, answering each with its verdicts (the main thread puts them back in capture order).
import { parentPort, workerData } from 'node:worker_threads';
import { ContractsError } from '../core/errors.js';
import { compileHarContracts, type HarWorkerData, type ToMain, type ToWorker } from './har-jobs.js';
import { judgeHarEntry, type HarVerdict } from './judge-har-entry.js';

const port = parentPort!;
const data = workerData as HarWorkerData;
// For tests only: a worker that fails at an entry (throws, or dies outright), which no capture can make it do.
const fault = /^(throw|exit)@(\d+)$/.exec(process.env.CONTRACTS_TEST_WORKER_FAULT ?? '');

try {
  const setup = await compileHarContracts(data.specs, data.settings.strict);
  port.postMessage({ type: 'ready', coverage: setup.coverage.report().perOperation } satisfies ToMain);
  port.on('message', (message: ToWorker) => {
    const verdicts: HarVerdict[] = [];
    for (const { index, found } of message.entries) {
      try {
        if (fault && Number(fault[2]) === index) {
          if (fault[1] === 'exit') process.exit(70);
          throw new Error(`test fault at entry ${index}`);
        }
        verdicts.push(judgeHarEntry(setup, found, index, data.settings));
      } catch (error) {
        // A fault of ours, not of the capture: said once, by the main thread, and the run stops.
        port.postMessage({ type: 'failed', index, message: (error as Error).message, verdicts } satisfies ToMain);
        return;
      }
    }
    port.postMessage({ type: 'verdicts', verdicts } satisfies ToMain);
  });
} catch (error) {
  const fault =
    error instanceof ContractsError
      ? { code: error.code, message: error.message, location: error.location }
      : { message: (error as Error).message };
  port.postMessage({ type: 'not-ready', fault } satisfies ToMain);
}
