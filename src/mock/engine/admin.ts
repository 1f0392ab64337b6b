// The stateful sandbox's own surface, on a prefix no spec path is likely to use: `POST /__contracts/reset` puts the
// seeds back (204), `GET /__contracts/state` answers what the store holds, `{ "<collection>": [item, …] }`. Off with
// --no-admin (its paths are then the spec's like any other).
import type { EngineAnswer } from './engine-answer.js';
import { problem } from './engine-answer.js';
import { plant, type Seed } from './seed-data.js';
import type { Stateful } from './stateful-engine.js';

export const adminPrefix = '/__contracts/';

/** The admin answer, or undefined when the path is not under the admin prefix. */
export function answerAdmin(
  stateful: Stateful,
  seeds: readonly Seed[],
  method: string,
  path: string,
): EngineAnswer | undefined {
  if (!path.startsWith(adminPrefix)) return undefined;
  const verb = method.toUpperCase();
  const name = path.slice(adminPrefix.length);
  if (name === 'reset') {
    if (verb !== 'POST') return problem(405, 'Method Not Allowed', `${path} takes POST`, { allow: 'POST' });
    plant(stateful, seeds);
    return { status: 204, headers: {}, body: '' };
  }
  if (name === 'state') {
    if (verb !== 'GET' && verb !== 'HEAD')
      return problem(405, 'Method Not Allowed', `${path} takes GET`, { allow: 'GET' });
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(stateful.store.snapshot()),
    };
  }
  return problem(404, 'Not Found', `${path}: the admin surface has ${adminPrefix}reset and ${adminPrefix}state`);
}
