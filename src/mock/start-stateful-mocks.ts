// The embedded mock as the stateful sandbox (src/mock/engine/start-stateful.ts), one server per API in this process:
// what `contracts fuzz` without --base-url judges by default. A stateless mock (Prism, our stateless engine) answers
// a read of what a create made with an example, so every lifecycle rule of the walk would judge the mock, not the
// spec; the stateful sandbox keeps what a create stores and passes every answer through the spec's checks.
import path from 'node:path';
import { specPath, type ApiEntry, type ApiName } from '../config/project.js';
import { ContractsError } from '../core/errors.js';
import { loadSpec } from '../core/load-spec.js';
import { startStateful, type StatefulServer } from './engine/start-stateful.js';
import type { MockOptions, Mocks } from './start-mocks.js';

export async function startStatefulMocks(
  options: MockOptions,
  selected: readonly ApiEntry[],
  warn: (line: string) => void,
): Promise<Mocks> {
  const servers: { api: ApiName; server: StatefulServer }[] = [];
  const stop = async () => {
    await Promise.all(servers.map(({ server }) => server.stop()));
  };
  try {
    for (const entry of selected) {
      const api = entry.name;
      if (options.signal?.aborted) throw new ContractsError('INTERRUPTED', 'interrupted before the mocks started');
      const file = options.specFiles?.[api] ?? specPath(entry);
      const spec = await loadSpec(file, path.relative(process.cwd(), file) || file);
      const server = await startStateful({
        spec,
        host: options.host ?? '127.0.0.1',
        port: options.ports?.[api] ?? entry.mockPort,
        warn,
      });
      servers.push({ api, server });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const mocks = servers.map(({ api, server }) => ({ api, url: server.url, port: server.port, pid: process.pid }));
  return {
    urls: Object.fromEntries(mocks.map((mock) => [mock.api, mock.url])),
    mocks,
    // In this process: it cannot end on its own.
    unexpectedExit: new Promise(() => {}),
    stop,
  };
}
