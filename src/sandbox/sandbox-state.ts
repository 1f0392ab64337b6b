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

export class SandboxState {
  hooks: StoredHook[] = [];
  deliveries: StoredDelivery[] = [];
  repositories: Repository[] = [];
  sessions = new Map<string, Record<string, unknown>>();
  private nextId = 1;

  constructor(
    private readonly seedSessions: ReadonlyMap<string, Record<string, unknown>>,
    private readonly repositoryNames: readonly string[],
  ) {
    this.reset();
  }

  reset(): void {
    this.hooks = [];
    this.deliveries = [];
    this.nextId = 1;
    this.sessions = new Map(this.seedSessions);
    this.repositories = this.repositoryNames.map((name, index) => {
      const [owner, repo] = name.split('/') as [string, string];
      return { owner, repo, id: 1000 + index };
    });
  }

  newId(): number {
    return this.nextId++;
  }

  repository(owner: string, repo: string): Repository | undefined {
    return this.repositories.find((candidate) => candidate.owner === owner && candidate.repo === repo);
  }

  hook(owner: string, repo: string, id: number): StoredHook | undefined {
    return this.hooks.find((hook) => hook.owner === owner && hook.repo === repo && hook.id === id);
  }

  newGuid(): string {
    return randomUUID();
  }
}
