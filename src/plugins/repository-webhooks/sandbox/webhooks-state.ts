// The webhooks example's state in the sandbox: repositories, webhooks and their deliveries, in memory. Deliveries are bounded
// per hook by count and, across every hook, by the memory they hold (estimated as the receiver estimates its own,
// receiver/retained-size.ts): past it the oldest go first, whichever hook they belong to.
import { randomUUID } from 'node:crypto';
import { retainedSize } from '../../../receiver/retained-size.js';

/** Read-only: a hook changes only through WebhooksState.changeHook, which drops the JSON cached for it. */
export interface StoredHook {
  readonly id: number;
  readonly owner: string;
  readonly repo: string;
  readonly name: string;
  readonly active: boolean;
  readonly events: readonly string[];
  /** Config as sent, secret included; responses mask or omit the secret. */
  readonly config: Readonly<Record<string, unknown>>;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly lastResponse: { readonly code: number | null; readonly status: string; readonly message: string | null };
}

type HookChanges = Partial<Pick<StoredHook, 'config' | 'events' | 'active' | 'updatedAt' | 'lastResponse'>>;

export interface StoredDelivery {
  id: number;
  hookId: number;
  guid: string;
  deliveredAt: string;
  redelivery: boolean;
  /** Seconds the attempt took. */
  duration: number;
  status: string;
  statusCode: number;
  event: string;
  action: string | null;
  repositoryId: number;
  url: string;
  request: { headers: Record<string, string>; payload: Record<string, unknown> };
  response: { headers: Record<string, string>; payload: string };
}

export interface Repository {
  owner: string;
  repo: string;
  id: number;
}

export const defaultMaxDeliveries = 1000;
/** The memory every hook's deliveries together may hold (the receiver keeps as much by default). */
export const defaultMaxDeliveryBytes = 64 * 2 ** 20;

export interface DeliveryBounds {
  /** Per hook. */
  maxDeliveries: number;
  /** Across hooks, as retainedSize estimates it; the newest delivery is kept even when it alone is over. */
  maxDeliveryBytes: number;
}

export class WebhooksState {
  hooks: StoredHook[] = [];
  /** Per hook id, newest first, within the bounds: a hook pinged without end must not grow without end. */
  private deliveriesByHook = new Map<number, StoredDelivery[]>();
  repositories: Repository[] = [];
  private nextId = 1;
  private nextDeliveryId = 1;
  /** Every kept delivery and the memory it holds, oldest first (a Map keeps insertion order). */
  private retained = new Map<StoredDelivery, number>();
  /** The sum of the kept deliveries' retained sizes. */
  retainedBytes = 0;
  /** Deliveries let go to stay within the memory bound (not those past a hook's count). */
  droppedForMemory = 0;
  /**
   * Each hook's JSON as answers show it, UTF-8 encoded, for the base URL it was last asked with: a list of 30 hooks
   * is then 30 cached buffers copied together, not 16 KB serialized and encoded per request. Keyed by the hook object, and dropped by every
   * change to it (changeHook), its removal and a reset.
   */
  private hookJson = new WeakMap<StoredHook, { baseUrl: string; json: Buffer }>();

  constructor(
    private readonly repositoryNames: readonly string[],
    private readonly bounds: DeliveryBounds = {
      maxDeliveries: defaultMaxDeliveries,
      maxDeliveryBytes: defaultMaxDeliveryBytes,
    },
  ) {
    this.reset();
  }

  reset(): void {
    this.hooks = [];
    this.hookJson = new WeakMap();
    this.deliveriesByHook = new Map();
    this.retained = new Map();
    this.retainedBytes = 0;
    this.nextId = 1;
    this.nextDeliveryId = 1;
    this.repositories = this.repositoryNames.map((name, index) => {
      const [owner, repo] = name.split('/') as [string, string];
      return { owner, repo, id: 1000 + index };
    });
  }

  newId(): number {
    return this.nextId++;
  }

  /** Deliveries count apart from hooks, so a delivery finishing between a create's answer and its commit cannot take its id. */
  newDeliveryId(): number {
    return this.nextDeliveryId++;
  }

  /** The id newId() will return next, for an answer built before its commit takes the id. */
  peekId(): number {
    return this.nextId;
  }

  repository(owner: string, repo: string): Repository | undefined {
    return this.repositories.find((candidate) => candidate.owner === owner && candidate.repo === repo);
  }

  hook(owner: string, repo: string, id: number): StoredHook | undefined {
    return this.hooks.find((hook) => hook.owner === owner && hook.repo === repo && hook.id === id);
  }

  /** The hook's deliveries, newest first. */
  deliveriesOf(hookId: number): readonly StoredDelivery[] {
    return this.deliveriesByHook.get(hookId) ?? [];
  }

  /**
   * Keeps a finished delivery, dropping the hook's oldest beyond the count, then the oldest of any hook while all
   * of them hold more memory than the bound. A delivery whose hook was deleted (or cleared by a reset) while it was
   * in flight is dropped: it belongs to nothing that still exists.
   */
  recordDelivery(hook: StoredHook, delivery: StoredDelivery): void {
    if (!this.hooks.includes(hook)) return;
    const { maxDeliveries, maxDeliveryBytes } = this.bounds;
    const own = this.deliveriesByHook.get(hook.id) ?? [];
    own.unshift(delivery);
    this.deliveriesByHook.set(hook.id, own);
    const bytes = retainedSize(delivery, maxDeliveryBytes);
    this.retained.set(delivery, bytes);
    this.retainedBytes += bytes;
    while (own.length > maxDeliveries) this.forget(own.pop()!);
    while (this.retainedBytes > maxDeliveryBytes && this.retained.size > 1) {
      const oldest = this.retained.keys().next().value!;
      const list = this.deliveriesByHook.get(oldest.hookId) ?? [];
      // A hook's list is newest first, in the order recorded: its oldest is its last.
      if (list.at(-1) === oldest) list.pop();
      else list.splice(list.indexOf(oldest), 1);
      this.forget(oldest);
      this.droppedForMemory++;
    }
  }

  private forget(delivery: StoredDelivery): void {
    this.retainedBytes -= this.retained.get(delivery) ?? 0;
    this.retained.delete(delivery);
  }

  removeHook(hook: StoredHook): void {
    this.hooks = this.hooks.filter((candidate) => candidate !== hook);
    for (const delivery of this.deliveriesOf(hook.id)) this.forget(delivery);
    this.deliveriesByHook.delete(hook.id);
    this.hookJson.delete(hook);
  }

  /** The only way a stored hook changes, so its cached JSON never outlives it. */
  changeHook(hook: StoredHook, changes: HookChanges): void {
    Object.assign(hook, changes);
    this.hookJson.delete(hook);
  }

  /** The hook's JSON for `baseUrl`, rendered by `render` only when not cached. */
  hookJsonFor(hook: StoredHook, baseUrl: string, render: (hook: StoredHook, baseUrl: string) => string): Buffer {
    const cached = this.hookJson.get(hook);
    if (cached !== undefined && cached.baseUrl === baseUrl) return cached.json;
    const json = Buffer.from(render(hook, baseUrl));
    this.hookJson.set(hook, { baseUrl, json });
    return json;
  }

  newGuid(): string {
    return randomUUID();
  }
}
