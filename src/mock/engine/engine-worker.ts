// The engine's own thread (start-own-mocks.ts starts it): a mock embedded in `contracts fuzz` must answer while the
// fuzzer generates, and compiling a big operation's schemas blocks for seconds, so neither waits on the other.
import { parentPort, workerData } from 'node:worker_threads';
import { ContractsError } from '../../core/errors.js';
import { loadSpec } from '../../core/load-spec.js';
import { indexOperations } from '../../core/operation-index.js';
import { startEngine } from './start-engine.js';

export interface EngineWorkerData {
  api: string;
  file: string;
  shown: string;
  host: string;
  port: number;
}

export type FromEngineWorker = { port: number } | { error: { code: string; message: string } };

async function main(data: EngineWorkerData): Promise<void> {
  const spec = await loadSpec(data.file, data.shown);
  if (indexOperations(spec.document).length === 0)
    throw new ContractsError(
      'MOCK_START_FAILED',
      `${data.shown} has no operations under paths${spec.document.webhooks ? ' (only webhooks, which the API sends rather than serves)' : ''}: a mock serves operations, so there is nothing to start for ${data.api}`,
    );
  const engine = await startEngine({
    spec,
    host: data.host,
    port: data.port,
    inUse: `port ${data.port} for the ${data.api} mock is already in use on ${data.host}: stop what holds it or choose another port`,
  });
  parentPort!.postMessage({ port: engine.port } satisfies FromEngineWorker);
  parentPort!.once('message', () => void engine.stop().then(() => process.exit(0)));
}

main(workerData as EngineWorkerData).catch((error: unknown) => {
  const code = error instanceof ContractsError ? error.code : 'MOCK_START_FAILED';
  parentPort!.postMessage({ error: { code, message: (error as Error).message } } satisfies FromEngineWorker);
});
