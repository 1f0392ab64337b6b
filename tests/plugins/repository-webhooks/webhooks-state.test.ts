// The sandbox keeps at most the last N deliveries per hook, as much as a memory bound allows across hooks (the oldest
// going first, whichever hook they belong to), and none for a hook that is gone.
import { describe, expect, it } from 'vitest';
import { retainedSize } from '../../../src/receiver/retained-size.js';
import {
  defaultMaxDeliveries,
  defaultMaxDeliveryBytes,
  WebhooksState,
  type StoredDelivery,
  type StoredHook,
} from '../../../src/plugins/repository-webhooks/sandbox/webhooks-state.js';

function hookIn(state: WebhooksState, id: number): StoredHook {
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
  state.add(hook);
  return hook;
}

const key = (id: number) => ({ owner: 'octo', repo: 'app', id });
const delivery = (hookId: number, id: number) => ({ id, hookId }) as StoredDelivery;

describe('WebhooksState deliveries', () => {
  it('keeps the newest 1,000 deliveries per hook by default, newest first', () => {
    const state = new WebhooksState(['octo/app']);
    const hook = hookIn(state, 1);
    for (let id = 1; id <= defaultMaxDeliveries + 5; id++) state.recordDelivery(hook, delivery(1, id));
    const kept = state.deliveriesOf(key(1));
    expect(defaultMaxDeliveries).toBe(1000);
    expect(kept).toHaveLength(1000);
    expect(kept[0]!.id).toBe(1005);
    expect(kept.at(-1)!.id).toBe(6);
  });

  it('caps each hook on its own', () => {
    const state = new WebhooksState(['octo/app'], {
      maxDeliveries: 2,
      maxDeliveryBytes: defaultMaxDeliveryBytes,
    });
    const [a, b] = [hookIn(state, 1), hookIn(state, 2)];
    for (let id = 1; id <= 5; id++) state.recordDelivery(a, delivery(1, id));
    state.recordDelivery(b, delivery(2, 6));
    expect(state.deliveriesOf(key(1)).map((d) => d.id)).toEqual([5, 4]);
    expect(state.deliveriesOf(key(2)).map((d) => d.id)).toEqual([6]);
  });

  it('drops a delivery that finishes after its hook was deleted or the state was reset', () => {
    const state = new WebhooksState(['octo/app']);
    const deleted = hookIn(state, 1);
    state.removeHook(deleted);
    state.recordDelivery(deleted, delivery(1, 1));
    const cleared = hookIn(state, 2);
    state.reset();
    state.recordDelivery(cleared, delivery(2, 2));
    expect(state.deliveriesOf(key(1))).toEqual([]);
    expect(state.deliveriesOf(key(2))).toEqual([]);
  });

  it('drops the oldest deliveries of any hook once all of them hold more than the memory bound', () => {
    const size = retainedSize(delivery(1, 10));
    const state = new WebhooksState(['octo/app'], { maxDeliveries: 100, maxDeliveryBytes: 4 * size });
    const hooks = [hookIn(state, 1), hookIn(state, 2), hookIn(state, 3)];
    for (let id = 10; id < 40; id++) state.recordDelivery(hooks[id % 3]!, delivery(hooks[id % 3]!.id, id));
    const kept = hooks.flatMap((hook) => state.deliveriesOf(hook).map((d) => d.id)).sort((a, b) => a - b);
    expect(kept).toEqual([36, 37, 38, 39]);
    expect(state.retainedBytes).toBe(4 * size);
    expect(state.droppedForMemory).toBe(26);
  });

  it('keeps the newest delivery even when it alone is over the bound, and frees what a deleted hook held', () => {
    const state = new WebhooksState(['octo/app'], { maxDeliveries: 100, maxDeliveryBytes: 10 });
    const [a, b] = [hookIn(state, 1), hookIn(state, 2)];
    state.recordDelivery(a, delivery(1, 1));
    state.recordDelivery(b, delivery(2, 2));
    expect(state.deliveriesOf(key(1))).toEqual([]);
    expect(state.deliveriesOf(key(2)).map((d) => d.id)).toEqual([2]);
    state.removeHook(b);
    expect(state.retainedBytes).toBe(0);
  });

  it("counts a delivery dropped past its hook's count out of the memory too", () => {
    const state = new WebhooksState(['octo/app'], {
      maxDeliveries: 1,
      maxDeliveryBytes: defaultMaxDeliveryBytes,
    });
    const hook = hookIn(state, 1);
    for (let id = 1; id <= 5; id++) state.recordDelivery(hook, delivery(1, id));
    expect(state.retainedBytes).toBe(retainedSize(delivery(1, 5)));
  });
});
