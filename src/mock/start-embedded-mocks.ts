// The mock `contracts fuzz` embeds when it has no --base-url: the engine asked for, and when that is Prism and it
// does not answer within the start timeout (Stripe's description takes it minutes to dereference), our own engine
// (src/mock/engine/) in its place, said in one line; every other way Prism fails to start stays an error.
import { PrismTimeout, startMocks, type MockOptions, type Mocks } from './start-mocks.js';

export async function startEmbeddedMocks(
  options: MockOptions & { engine: 'prism' | 'own' },
  say: (line: string) => void,
): Promise<Mocks & { engine: 'prism' | 'own' }> {
  if (options.engine === 'own') return { ...(await startMocks(options)), engine: 'own' };
  try {
    return { ...(await startMocks(options)), engine: 'prism' };
  } catch (error) {
    if (!(error instanceof PrismTimeout)) throw error;
    say(`${error.message}; serving the mock with our own engine instead (--mock-engine own starts it at once)`);
    return { ...(await startMocks({ ...options, engine: 'own' })), engine: 'own' };
  }
}
