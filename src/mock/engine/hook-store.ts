// The stateful engine's store as a hook reads and writes it (sandbox-hooks.ts, HookStore): by resource name and
// parent ids, the same collection keys the engine uses (collectionKey), so what a hook puts a read answers. Values
// go in and out as copies made through JSON: a hook keeps no reference into the store, and a value that is not JSON
// is refused at once (the engine serves stored items as JSON).
import type { HookStore } from './sandbox-hooks.js';
import { collectionKey, type ResourceFacts, type Stateful } from './stateful-engine.js';

/**
 * `shared`: values are handed out and kept as they are, not copied, for code of this package that never changes
 * one it was given or gave (an API plug-in's hooks, src/sandbox/sandbox-plugin.ts); a user's hooks get copies.
 */
export function hookStore(
  stateful: Stateful,
  requestParams: Record<string, string>,
  { shared = false }: { shared?: boolean } = {},
): HookStore {
  const copy = shared ? <T>(value: T): T => value : copied;
  const facts = (resource: string): ResourceFacts => {
    const found = typeof resource === 'string' ? stateful.resources.get(resource) : undefined;
    if (found) return found;
    const names = [...stateful.resources.keys()];
    throw new Error(
      `ctx.store: no resource named ${JSON.stringify(resource)}; the spec's are ${names.join(', ') || 'none'}`,
    );
  };
  const key = (resource: string, parents: Record<string, string> | undefined) =>
    collectionKey(facts(resource), parents ?? requestParams);
  return {
    resources: () => [...stateful.resources.keys()],
    list: (resource, parents) => stateful.store.list(key(resource, parents)).map((item) => copy(item.value)),
    get: (resource, id, parents) => {
      const item = stateful.store.get(key(resource, parents), String(id));
      return item && copy(item.value);
    },
    put: (resource, id, value, parents) => {
      const collection = key(resource, parents);
      const stored = copy(value);
      if (stored === null || typeof stored !== 'object' || Array.isArray(stored))
        throw new Error(`ctx.store.put: ${resource} ${JSON.stringify(String(id))} must be a JSON object`);
      const existing = stateful.store.get(collection, String(id));
      if (existing) stateful.store.update(existing, stored);
      else stateful.store.put(collection, String(id), stored);
    },
    remove: (resource, id, parents) => stateful.store.remove(key(resource, parents), String(id)),
  };
}

function copied<T>(value: T): T {
  const text = JSON.stringify(value);
  return (text === undefined ? undefined : JSON.parse(text)) as T;
}
