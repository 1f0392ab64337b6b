// startMocks with the engine of our own (startMocks({ engine: 'own' })): one worker thread per API (engine-worker.ts),
// each serving its spec on its port; no Prism.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { specPath, type ApiEntry } from '../../config/project.js';
import { ContractsError, type ContractsErrorCode } from '../../core/errors.js';
import type { MockOptions, Mocks, RunningMock } from '../start-mocks.js';
import type { EngineWorkerData, FromEngineWorker } from './engine-worker.js';

export async function startOwnMocks(options: MockOptions, selected: readonly ApiEntry[]): Promise<Mocks> {
  const host = options.host ?? '127.0.0.1';
  const workers: Worker[] = [];
  const mocks: RunningMock[] = [];
  let stopping = false;
  let reportExit: (value: Awaited<Mocks['unexpectedExit']>) => void = () => {};
  const unexpectedExit = new Promise<Awaited<Mocks['unexpectedExit']>>((resolve) => (reportExit = resolve));
  const stop = async () => {
    stopping = true;
    await Promise.all(workers.map((worker) => stopWorker(worker)));
  };
  try {
    for (const entry of selected) {
      const api = entry.name;
      if (options.signal?.aborted) throw new ContractsError('INTERRUPTED', 'interrupted before the mocks started');
      const file = options.specFiles?.[api] ?? specPath(entry);
      const shown = path.relative(process.cwd(), file) || file;
      const port = options.ports?.[api] ?? entry.mockPort;
      const worker = startWorker({ api, file, shown, host, port });
      workers.push(worker);
      const started = await firstMessage(worker, options.signal);
      if ('error' in started) throw new ContractsError(started.error.code as ContractsErrorCode, started.error.message);
      worker.once('exit', (code) => {
        if (!stopping) reportExit({ api, code, signal: null, output: 'the engine thread ended' });
      });
      const shownHost = host.includes(':') ? `[${host}]` : host;
      mocks.push({ api, url: `http://${shownHost}:${started.port}`, port: started.port, pid: process.pid });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { urls: Object.fromEntries(mocks.map((mock) => [mock.api, mock.url])), mocks, unexpectedExit, stop };
}

function firstMessage(worker: Worker, signal: AbortSignal | undefined): Promise<FromEngineWorker> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new ContractsError('INTERRUPTED', 'interrupted while the mock was starting'));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (message: FromEngineWorker) => {
      signal?.removeEventListener('abort', onAbort);
      resolve(message);
    });
    worker.once('error', (error) =>
      reject(new ContractsError('MOCK_START_FAILED', `the mock failed: ${error.message}`)),
    );
    worker.once('exit', (code) =>
      reject(new ContractsError('MOCK_START_FAILED', `the mock ended (${code}) before it answered`)),
    );
  });
}

async function stopWorker(worker: Worker): Promise<void> {
  // Asked first (the server closes its sockets), then ended whatever it does; terminate() of an ended one resolves.
  const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.postMessage('stop');
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([ended, new Promise<void>((resolve) => (timer = setTimeout(resolve, 2000)))]);
  clearTimeout(timer);
  await worker.terminate();
}

/**
 * A worker running engine-worker. Run from TypeScript (the checkout, through tsx), the worker registers tsx first:
 * a loader registered on the main thread does not reach worker threads (as src/har/har-jobs.ts does).
 */
function startWorker(data: EngineWorkerData): Worker {
  const extension = path.extname(fileURLToPath(import.meta.url));
  const entry = new URL(`./engine-worker${extension}`, import.meta.url).href;
  const source =
    extension === '.ts'
      ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`
      : `import(${JSON.stringify(entry)});`;
  return new Worker(source, { eval: true, workerData: data });
}
