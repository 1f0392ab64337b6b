// The sandbox keeps at most the last N deliveries per hook, and none for a hook that is gone.
import { describe, expect, it } from 'vitest';
import {
  defaultMaxDeliveries,
  SandboxState,
  type StoredDelivery,
  type StoredHook,
} from '../../src/sandbox/sandbox-state.js';

function hookIn(state: SandboxState, id: number): StoredHook {
  const hook: StoredHook = {
    id,
    owner: 'octo',
    repo: 'app',
    name: 'web',
    active: true,
    events: ['push'],
    config: {},
    createdAt: '',
    updatedAt: '',
    lastResponse: { code: null, status: 'unused', message: null },
  };
  state.hooks.push(hook);
  return hook;
}

const delivery = (hookId: number, id: number) => ({ id, hookId }) as StoredDelivery;

describe('SandboxState deliveries', () => {
  it('keeps the newest 1,000 deliveries per hook by default, newest first', () => {
    const state = new SandboxState(new Map(), ['octo/app']);
    const hook = hookIn(state, 1);
    for (let id = 1; id <= defaultMaxDeliveries + 5; id++) state.recordDelivery(hook, delivery(1, id));
    const kept = state.deliveriesOf(1);
    expect(defaultMaxDeliveries).toBe(1000);
    expect(kept).toHaveLength(1000);
    expect(kept[0]!.id).toBe(1005);
    expect(kept.at(-1)!.id).toBe(6);
  });

  it('caps each hook on its own', () => {
    const state = new SandboxState(new Map(), ['octo/app'], 2);
    const [a, b] = [hookIn(state, 1), hookIn(state, 2)];
    for (let id = 1; id <= 5; id++) state.recordDelivery(a, delivery(1, id));
    state.recordDelivery(b, delivery(2, 6));
    expect(state.deliveriesOf(1).map((d) => d.id)).toEqual([5, 4]);
    expect(state.deliveriesOf(2).map((d) => d.id)).toEqual([6]);
  });

  it('drops a delivery that finishes after its hook was deleted or the state was reset', () => {
    const state = new SandboxState(new Map(), ['octo/app']);
    const deleted = hookIn(state, 1);
    state.removeHook(deleted);
    state.recordDelivery(deleted, delivery(1, 1));
    const cleared = hookIn(state, 2);
    state.reset();
    state.recordDelivery(cleared, delivery(2, 2));
    expect(state.deliveriesOf(1)).toEqual([]);
    expect(state.deliveriesOf(2)).toEqual([]);
  });
});
