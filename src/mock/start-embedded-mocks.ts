// The mock `contracts fuzz` embeds when it has no --base-url: the engine asked for. By default the stateful sandbox
// of each spec (start-stateful-mocks.ts), whose answers fuzz's lifecycle checks can judge; when Prism is asked for
// and it does not answer within the start timeout (Stripe's description takes it minutes to dereference), our own
// engine (src/mock/engine/) in its place, said in one line; every other way Prism fails to start stays an error.
import { seedProject } from '../config/seed-project.js';
import { PrismTimeout, startMocks, type MockOptions, type Mocks } from './start-mocks.js';
import { startStatefulMocks } from './start-stateful-mocks.js';

export type EmbeddedEngine = 'prism' | 'own' | 'stateful';

export async function startEmbeddedMocks(
  given: Omit<MockOptions, 'engine'> & { engine: EmbeddedEngine },
  say: (line: string) => void,
): Promise<Mocks & { engine: EmbeddedEngine }> {
  const { engine, ...rest } = given;
  if (engine === 'stateful')
    return { ...(await startStatefulMocks(rest, rest.apis ?? seedProject.apis, say)), engine: 'stateful' };
  const options: MockOptions = { ...rest, engine };
  if (options.engine === 'own') return { ...(await startMocks(options)), engine: 'own' };
  try {
    return { ...(await startMocks(options)), engine: 'prism' };
  } catch (error) {
    if (!(error instanceof PrismTimeout)) throw error;
    say(`${error.message}; serving the mock with our own engine instead (--mock-engine own starts it at once)`);
    return { ...(await startMocks({ ...options, engine: 'own' })), engine: 'own' };
  }
}
