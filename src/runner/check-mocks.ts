// The embedded mocks of `contracts check` without --base-url (start-embedded-mocks.ts): by default the stateful
// sandbox of each spec (a create stores, a read returns it; every answer passes the spec's checks before it is
// sent), Prism only when asked (`--mock-engine prism`). An API whose plug-in runs a check sequence of its own keeps
// Prism under the default: those sequences' mock mode is written for a stateless mock answering its examples (the
// ids they use exist in no store; their stateful checks are skipped there, runner/plan.ts).
import type { ApiEntry, ApiName } from '../config/project.js';
import { type EmbeddedEngine, startEmbeddedMocks } from '../mock/start-embedded-mocks.js';
import type { Mocks } from '../mock/start-mocks.js';
import type { CheckRunOptions } from './run-check.js';

/** Starts each API's mock with its engine, written into `engines`; one Mocks for all of them. */
export async function startCheckMocks(
  options: CheckRunOptions,
  engines: Partial<Record<ApiName, EmbeddedEngine>>,
): Promise<Mocks> {
  const asked = options.mockEngine ?? 'stateful';
  const engineOf = (api: ApiEntry): EmbeddedEngine =>
    asked === 'stateful' && options.plugins(api.name) ? 'prism' : asked;
  const groups = [...new Set(options.apis.map(engineOf))].map(
    (engine) => [engine, options.apis.filter((api) => engineOf(api) === engine)] as const,
  );
  const started: Mocks[] = [];
  const stop = async () => {
    await Promise.all(started.map((mocks) => mocks.stop()));
  };
  try {
    for (const [engine, apis] of groups) {
      const mocks = await startEmbeddedMocks(
        {
          apis,
          ports: Object.fromEntries(apis.map((api) => [api.name, 0])),
          ...(options.specFiles ? { specFiles: options.specFiles } : {}),
          engine,
        },
        (line) => options.log?.(line),
      );
      started.push(mocks);
      for (const api of apis) engines[api.name] = mocks.engine;
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    urls: Object.assign({}, ...started.map((mocks) => mocks.urls)),
    mocks: started.flatMap((mocks) => mocks.mocks),
    unexpectedExit: Promise.race(started.map((mocks) => mocks.unexpectedExit)),
    stop,
  };
}
