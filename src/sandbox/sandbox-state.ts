// The sandbox's in-memory state: client sessions, repositories, webhooks and their deliveries.
import { randomUUID } from 'node:crypto';

export interface StoredHook {
  id: number;
  owner: string;
  repo: string;
  name: string;
  active: boolean;
  events: string[];
  /** Config as sent, secret included; responses mask or omit the secret. */
  config: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  lastResponse: { code: number | null; status: string; message: string | null };
}

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

export const demoClientToken = 'demo-client-token';
export const defaultRepositories = ['octo/app'];
export const defaultMaxDeliveries = 1000;

export class SandboxState {
  hooks: StoredHook[] = [];
  /** Per hook id, newest first, at most maxDeliveries each: a hook pinged without end must not grow without end. */
  private deliveriesByHook = new Map<number, StoredDelivery[]>();
  repositories: Repository[] = [];
  sessions = new Map<string, Record<string, unknown>>();
  private nextId = 1;
  private nextDeliveryId = 1;

  constructor(
    private readonly seedSessions: ReadonlyMap<string, Record<string, unknown>>,
    private readonly repositoryNames: readonly string[],
    private readonly maxDeliveries = defaultMaxDeliveries,
  ) {
    this.reset();
  }

  reset(): void {
    this.hooks = [];
    this.deliveriesByHook = new Map();
    this.nextId = 1;
    this.nextDeliveryId = 1;
    this.sessions = new Map(this.seedSessions);
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
   * Keeps a finished delivery, dropping the hook's oldest beyond the cap. A delivery whose hook was deleted (or
   * cleared by a reset) while it was in flight is dropped: it belongs to nothing that still exists.
   */
  recordDelivery(hook: StoredHook, delivery: StoredDelivery): void {
    if (!this.hooks.includes(hook)) return;
    const own = this.deliveriesByHook.get(hook.id) ?? [];
    own.unshift(delivery);
    if (own.length > this.maxDeliveries) own.length = this.maxDeliveries;
    this.deliveriesByHook.set(hook.id, own);
  }

  removeHook(hook: StoredHook): void {
    this.hooks = this.hooks.filter((candidate) => candidate !== hook);
    this.deliveriesByHook.delete(hook.id);
  }

  newGuid(): string {
    return randomUUID();
  }
}
