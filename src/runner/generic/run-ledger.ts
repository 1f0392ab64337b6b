// What the generic conformance pass has sent so far: per operation, its last successful exchange (what later steps
// bind their parameters from) or why it has none; and the resources this run created, so that it updates and
// deletes only those, each once, and knows what to clean up after an interrupt.
import type { ParamValue } from '../../core/request-model.js';

export interface SentExchange {
  operationId: string;
  status: number;
  /** The path parameters it was sent with (`$request.path.NAME`). */
  path: Readonly<Record<string, ParamValue>>;
  /** The answer's body as JSON, or undefined. */
  json: unknown;
  /** The answer's Location header, if any. */
  location: string | undefined;
}

/** A resource this run created: the create's exchange binds what acts on it afterwards. */
export interface Instance {
  resource: string;
  created: SentExchange;
  deleted: boolean;
}

/** Why an operation gave nothing to bind from; `sent`: it was sent and the target answered so (not the spec's doing). */
export interface NoAnswer {
  sent: boolean;
  why: string;
}

export class RunLedger {
  private readonly answered = new Map<string, SentExchange>();
  private readonly missing = new Map<string, NoAnswer>();
  readonly instances: Instance[] = [];

  /** A 2xx answer: later steps may bind from it; a create's makes an instance of `created`. */
  succeeded(exchange: SentExchange, created?: string): Instance | undefined {
    this.answered.set(exchange.operationId, exchange);
    this.missing.delete(exchange.operationId);
    if (created === undefined) return undefined;
    const instance: Instance = { resource: created, created: exchange, deleted: false };
    this.instances.push(instance);
    return instance;
  }

  /** The operation gave nothing to bind from, unless an earlier request to it did. */
  failed(operationId: string, noAnswer: NoAnswer): void {
    if (!this.answered.has(operationId) && !this.missing.has(operationId)) this.missing.set(operationId, noAnswer);
  }

  /** The exchange of `operationId` to bind from: the anchor's own create, else its last live instance, else its last 2xx. */
  exchangeOf(operationId: string, anchor: Instance | undefined): SentExchange | undefined {
    if (anchor?.created.operationId === operationId) return anchor.created;
    const live = this.instances.findLast(
      (instance) => !instance.deleted && instance.created.operationId === operationId,
    );
    return live?.created ?? this.answered.get(operationId);
  }

  /** Why `operationId` has no exchange to bind from. */
  whyNone(operationId: string): NoAnswer {
    return this.missing.get(operationId) ?? { sent: false, why: `${operationId} was not sent before it` };
  }

  /** The resources of `resource` this run created and has not deleted, oldest first. */
  live(resource: string): Instance[] {
    return this.instances.filter((instance) => instance.resource === resource && !instance.deleted);
  }
}
