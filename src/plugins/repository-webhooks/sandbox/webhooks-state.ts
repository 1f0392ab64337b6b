// The webhooks example's state in the sandbox: repositories, webhooks and their deliveries. The webhooks themselves
// are kept where the sandbox keeps them (HookRecords: the engine's store, sandbox-plugin.ts; in memory for a unit
// test); what the spec has no resource for is kept here: which repositories exist, and deliveries. Deliveries are
// bounded per hook by count and, across every hook, by the memory they hold (estimated as the receiver estimates its
// own, receiver/retained-size.ts): past it the oldest go first, whichever hook they belong to.
import { randomUUID } from 'node:crypto';
import { retainedSize } from '../../../receiver/retained-size.js';

/** A hook as the sandbox's rules read it: a copy of what is stored; a change is made through WebhooksState.changeHook. */
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

/** A hook's address: ids are drawn per repository, as the engine draws them per collection. */
export type HookKey = Pick<StoredHook, 'owner' | 'repo' | 'id'>;

/** Where hooks are kept. */
export interface HookRecords {
  /** A repository's hooks, in the order they were made. */
  list(owner: string, repo: string): StoredHook[];
  get(owner: string, repo: string, id: number): StoredHook | undefined;
  /** Keeps the hook as given (a new one, or a change to one). */
  put(hook: StoredHook): void;
  remove(key: HookKey): void;
  /** Forgets every hook (on reset). */
  clear(): void;
}

/** A hook's key among every repository's: ids are drawn per repository. */
export const hookKeyOf = (key: HookKey) => `${key.owner}/${key.repo}#${key.id}`;

/** Hooks in memory (a unit test's); the sandbox keeps them in the engine's store. */
export class MemoryHookRecords implements HookRecords {
  private hooks = new Map<string, StoredHook>();
  list(owner: string, repo: string): StoredHook[] {
    return [...this.hooks.values()].filter((hook) => hook.owner === owner && hook.repo === repo);
  }
  get(owner: string, repo: string, id: number): StoredHook | undefined {
    return this.hooks.get(hookKeyOf({ owner, repo, id }));
  }
  put(hook: StoredHook): void {
    this.hooks.set(hookKeyOf(hook), hook);
  }
  remove(key: HookKey): void {
    this.hooks.delete(hookKeyOf(key));
  }
  clear(): void {
    this.hooks.clear();
  }
}

export class WebhooksState {
  /** Per hook, newest first, within the bounds: a hook pinged without end must not grow without end. */
  private deliveriesByHook = new Map<string, StoredDelivery[]>();
  repositories: Repository[] = [];
  private nextDeliveryId = 1;
  /** Every kept delivery and the memory it holds, oldest first (a Map keeps insertion order). */
  private retained = new Map<StoredDelivery, { bytes: number; hook: string }>();
  /** The sum of the kept deliveries' retained sizes. */
  retainedBytes = 0;
  /** Deliveries let go to stay within the memory bound (not those past a hook's count). */
  droppedForMemory = 0;

  constructor(
    private readonly repositoryNames: readonly string[],
    private readonly bounds: DeliveryBounds = {
      maxDeliveries: defaultMaxDeliveries,
      maxDeliveryBytes: defaultMaxDeliveryBytes,
    },
    readonly records: HookRecords = new MemoryHookRecords(),
  ) {
    this.reset();
  }

  reset(): void {
    this.records.clear();
    this.deliveriesByHook = new Map();
    this.retained = new Map();
    this.retainedBytes = 0;
    this.nextDeliveryId = 1;
    this.repositories = this.repositoryNames.map((name, index) => {
      const [owner, repo] = name.split('/') as [string, string];
      return { owner, repo, id: 1000 + index };
    });
  }

  /** Deliveries count apart from hooks, so a delivery finishing between a create's answer and its commit cannot take its id. */
  newDeliveryId(): number {
    return this.nextDeliveryId++;
  }

  repository(owner: string, repo: string): Repository | undefined {
    return this.repositories.find((candidate) => candidate.owner === owner && candidate.repo === repo);
  }

  hook(owner: string, repo: string, id: number): StoredHook | undefined {
    return this.records.get(owner, repo, id);
  }

  /** A repository's hooks, in the order they were made. */
  hooksOf(repository: Pick<Repository, 'owner' | 'repo'>): StoredHook[] {
    return this.records.list(repository.owner, repository.repo);
  }

  /** Keeps a new hook. */
  add(hook: StoredHook): void {
    this.records.put(hook);
  }

  /** The hook's deliveries, newest first. */
  deliveriesOf(hook: HookKey): readonly StoredDelivery[] {
    return this.deliveriesByHook.get(hookKeyOf(hook)) ?? [];
  }

  /**
   * Keeps a finished delivery, dropping the hook's oldest beyond the count, then the oldest of any hook while all
   * of them hold more memory than the bound. A delivery whose hook was deleted (or cleared by a reset) while it was
   * in flight is dropped: it belongs to nothing that still exists.
   */
  recordDelivery(hook: HookKey, delivery: StoredDelivery): void {
    if (!this.hook(hook.owner, hook.repo, hook.id)) return;
    const { maxDeliveries, maxDeliveryBytes } = this.bounds;
    const key = hookKeyOf(hook);
    const own = this.deliveriesByHook.get(key) ?? [];
    own.unshift(delivery);
    this.deliveriesByHook.set(key, own);
    const bytes = retainedSize(delivery, maxDeliveryBytes);
    this.retained.set(delivery, { bytes, hook: key });
    this.retainedBytes += bytes;
    while (own.length > maxDeliveries) this.forget(own.pop()!);
    while (this.retainedBytes > maxDeliveryBytes && this.retained.size > 1) {
      const [oldest, { hook: owner }] = this.retained.entries().next().value!;
      const list = this.deliveriesByHook.get(owner) ?? [];
      // A hook's list is newest first, in the order recorded: its oldest is its last.
      if (list.at(-1) === oldest) list.pop();
      else list.splice(list.indexOf(oldest), 1);
      this.forget(oldest);
      this.droppedForMemory++;
    }
  }

  private forget(delivery: StoredDelivery): void {
    this.retainedBytes -= this.retained.get(delivery)?.bytes ?? 0;
    this.retained.delete(delivery);
  }

  /** The hook gone, and its deliveries with it. */
  removeHook(hook: HookKey): void {
    this.records.remove(hook);
    const key = hookKeyOf(hook);
    for (const delivery of this.deliveriesByHook.get(key) ?? []) this.forget(delivery);
    this.deliveriesByHook.delete(key);
  }

  /** Changes a hook as it is now (a delivery finishing late changes only what it reports); a hook gone stays gone. */
  changeHook(hook: HookKey, changes: HookChanges): void {
    const current = this.hook(hook.owner, hook.repo, hook.id);
    if (current) this.records.put({ ...current, ...changes });
  }

  newGuid(): string {
    return randomUUID();
  }
}
