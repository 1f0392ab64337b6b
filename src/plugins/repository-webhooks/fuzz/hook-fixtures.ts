// The webhooks example's fuzz fixtures (src/fuzz/fuzz-plugin.ts): the hooks a run creates. Each carries the run
// marker in its config.url, so that what a lost answer left behind is found and deleted at the end; one shared hook
// and one delivery of it (a ping) are made before the phases, for the operations that act on them; a DELETE gets a
// hook of its own. The repository (--owner, --repo) binds the path's owner and repo.
import type { CheckName, Finding } from '../../../core/finding.js';
import type { ResultCollector } from '../../../reports/results.js';
import { trailStep, type ApiTarget, type Executor, type Sent, type Tally } from '../../../fuzz/executor.js';
import { isPlainObject, type FuzzCase, type Phase } from '../../../fuzz/fuzz-case.js';
import type { CaseFixture, FuzzFixtures } from '../../../fuzz/fuzz-plugin.js';
import type { TrailStep } from '../../../fuzz/repro-script.js';
import type { OperationModel, ParamValue, RequestData } from '../../../fuzz/request-model.js';
import { deliveryChecks, type FuzzDeliveries } from './fuzz-deliveries.js';
import { runStateful } from './stateful.js';

/** What the webhooks options of `contracts fuzz` set (src/cli/fuzz-command.ts). */
export interface HookSettings {
  owner: string;
  repo: string;
  /** config.url of every hook the run creates, before the run marker is added. */
  hookUrl: string;
  readOnly: boolean;
  /** The receiver the sequences' hooks deliver to, or why there is none (its delivery checks are then skipped). */
  deliveries?: FuzzDeliveries | { off: string };
  deliveryWaitMs?: number;
}

const onHook = (model: OperationModel) => model.params.some((param) => param.name === 'hook_id');
const onDelivery = (model: OperationModel) => model.params.some((param) => param.name === 'delivery_id');

/** Parameters the run binds: the repository it was given, and the hooks and deliveries it made. */
const bound = new Set(['hook_id', 'delivery_id', 'cursor']);

export function isHookBound(param: { name: string; in: string }): boolean {
  return (param.in === 'path' && (param.name === 'owner' || param.name === 'repo')) || bound.has(param.name);
}

export class HookFixtures implements FuzzFixtures {
  /** Hooks this run created and has not seen deleted, by id → their config.url. */
  readonly ownHooks = new Map<number, string>();
  /** Operations after which a full wait for their delivery came to nothing (stateful-rules.ts cuts later waits). */
  readonly deliveryWaitsSpent = new Set<string>();
  sharedHook: number | undefined;
  sharedDelivery: number | undefined;
  /**
   * What was sent to make the shared hook and its delivery (create, ping, the list that showed the delivery): the
   * target's state every later case met, which a reproduction makes first.
   */
  setupTrail: TrailStep[] = [];
  private hookCount = 0;
  /** What the last createHook that made no usable hook was answered, for the message of what it leaves unexercised. */
  private lastCreate = '';

  constructor(
    readonly executor: Executor,
    readonly settings: HookSettings,
  ) {}

  get owner(): string {
    return this.settings.owner;
  }

  get repo(): string {
    return this.settings.repo;
  }

  needs(model: OperationModel): boolean {
    return onHook(model);
  }

  unready(model: OperationModel): string | undefined {
    if (onHook(model) && this.settings.readOnly) return '--read-only creates no hook to act on';
    if (onHook(model) && this.sharedHook === undefined) return 'no hook of the run to act on';
    if (onDelivery(model) && this.sharedDelivery === undefined) return 'no delivery of the run to act on';
    return undefined;
  }

  readOnlySkip(model: OperationModel): string | undefined {
    return onHook(model) ? '--read-only creates no hook to act on' : undefined;
  }

  bindings(fuzzCase: FuzzCase, fresh: number | undefined): Record<string, ParamValue | undefined> {
    return {
      owner: this.owner,
      repo: this.repo,
      hook_id: fresh ?? this.sharedHook,
      delivery_id: this.sharedDelivery,
      cursor: fuzzCase.cursor ? this.sharedDelivery : undefined,
    };
  }

  /** A hook's config.url is the run's own: a new one for a create, the hook's own for an update. */
  bindBody(model: OperationModel, request: RequestData, fresh: number | undefined): void {
    const body = request.body;
    if (!isPlainObject(body)) return;
    const hookId = fresh ?? this.sharedHook;
    const ownUrl = hookId !== undefined ? this.ownHooks.get(Number(request.path.hook_id ?? hookId)) : undefined;
    if (model.operationId === 'createWebhook') {
      if (body.config === undefined) body.config = { url: this.markerUrl() };
      else if (isPlainObject(body.config)) body.config.url = this.markerUrl();
    } else if (model.operationId === 'updateWebhook' && isPlainObject(body.config) && ownUrl) {
      body.config.url = ownUrl;
    } else if (model.operationId === 'updateWebhookConfig' && 'url' in body && ownUrl) {
      body.url = ownUrl;
    }
  }

  /** Whether the replay binds part of this request afresh: a config.url of the run's own. */
  bindsBody(operationId: string): boolean {
    return ['createWebhook', 'updateWebhook', 'updateWebhookConfig'].includes(operationId);
  }

  markerUrl(): string {
    const url = new URL(this.settings.hookUrl);
    url.searchParams.set('contracts-fuzz', `${this.executor.options.marker}-${++this.hookCount}`);
    return url.toString();
  }

  creates(fuzzCase: FuzzCase): boolean {
    return (
      fuzzCase.operationId === 'createWebhook' ||
      (fuzzCase.hook === 'fresh' && fuzzCase.request.path.hook_id === undefined)
    );
  }

  async forCase(target: ApiTarget, fuzzCase: FuzzCase, tally: Tally): Promise<CaseFixture | null | undefined> {
    if (fuzzCase.hook !== 'fresh' || fuzzCase.request.path.hook_id !== undefined) return undefined;
    return (await this.createHook(target, undefined, tally)) ?? null;
  }

  async release(target: ApiTarget, fresh: CaseFixture, tally: Tally): Promise<void> {
    await this.deleteHook(target, fresh.id, tally);
  }

  /** A hook made without its id: credited to ensure_resource_availability with this answer (never a pass here). */
  judgeValid(operation: string, status: number, json: unknown): [CheckName, Finding[]][] {
    if (operation !== 'createWebhook') return [];
    const { findings } = createdHookId(status, json);
    return findings.length > 0 ? [['ensure_resource_availability', findings]] : [];
  }

  /** Sends an operation with the run's repository: for fixtures, cleanup and sequences. */
  call(target: ApiTarget, operationId: string, request: Partial<RequestData>, cleanup = false, tally?: Tally) {
    const path = { owner: this.owner, repo: this.repo, ...request.path };
    return this.executor.call(target, operationId, { ...request, path }, cleanup, tally);
  }

  /** A hook of the run's own, and the create that made it (the first step of a reproduction that acts on it). */
  async createHook(
    target: ApiTarget,
    body: Record<string, unknown> = { name: 'web', events: ['push'] },
    tally?: Tally,
  ): Promise<CaseFixture | undefined> {
    const url = this.markerUrl();
    const config = { ...(isPlainObject(body.config) ? body.config : {}), url };
    const sent = await this.call(target, 'createWebhook', { body: { ...body, config } }, false, tally);
    const { id, findings } = createdHookId(sent.exchange.status, sent.json);
    const { executor } = this;
    if (findings.length > 0) {
      // The run's own hook made without its id is this answer's one finding; what needed the hook is not exercised.
      executor.options.results.record(target.api, 'createWebhook', 'ensure_resource_availability', findings);
      const facts = { phase: 'examples', note: 'a hook of the run' } as const;
      if (!executor.book.knows(findings[0]!, sent, facts))
        executor.book.keep(executor.book.failureOf(target, facts, sent, findings[0]!));
      this.lastCreate = 'answered 201 without the id of the hook it made';
    } else if (id === undefined) this.lastCreate = `answered ${sent.exchange.status}`;
    if (id === undefined) return undefined;
    this.ownHooks.set(id, url);
    return { id, step: trailStep(sent) };
  }

  /** The shared hook and one delivery of it (a ping), for the operations that act on them. */
  async prepare(target: ApiTarget): Promise<string | undefined> {
    const shared = await this.createHook(target);
    this.sharedHook = shared?.id;
    this.setupTrail = shared ? [shared.step] : [];
    if (this.sharedHook === undefined)
      return `createWebhook ${this.lastCreate} for ${this.owner}/${this.repo}${this.lastCreate.startsWith('answered 201') ? ' (its finding is above)' : ': does the repository exist, and may the token write hooks?'}`;
    const path = { hook_id: this.sharedHook };
    const ping = await this.call(target, 'pingWebhook', { path });
    let list: Sent | undefined;
    for (let attempt = 0; attempt < 50 && this.sharedDelivery === undefined; attempt++) {
      list = await this.call(target, 'listWebhookDeliveries', { path });
      const first = Array.isArray(list.json) ? (list.json[0] as { id?: unknown } | undefined)?.id : undefined;
      if (typeof first === 'number') this.sharedDelivery = first;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    this.setupTrail.push(trailStep(ping), ...(list ? [trailStep(list)] : []));
    return this.sharedDelivery === undefined
      ? `no delivery appeared on hook ${this.sharedHook} within 5 s of a ping`
      : undefined;
  }

  async afterCase(
    target: ApiTarget,
    model: OperationModel,
    sent: Sent,
    fresh: CaseFixture | undefined,
    kept: RequestData | undefined,
    tally: Tally,
  ): Promise<void> {
    const created = model.operationId === 'createWebhook' && sent.exchange.status === 201;
    const id = created ? (sent.json as { id?: unknown } | undefined)?.id : undefined;
    if (typeof id === 'number') {
      const config = (kept?.body as { config?: { url?: unknown } } | undefined)?.config;
      this.ownHooks.set(id, typeof config?.url === 'string' ? config.url : '');
      if (!kept) await this.deleteHook(target, id, tally);
    }
    if (fresh !== undefined) {
      if (model.operationId === 'deleteWebhook' && sent.exchange.status === 204) this.ownHooks.delete(fresh.id);
      else await this.deleteHook(target, fresh.id, tally);
    }
  }

  async deleteHook(target: ApiTarget, id: number, tally?: Tally): Promise<void> {
    const sent = await this.call(target, 'deleteWebhook', { path: { hook_id: id } }, true, tally);
    if (sent.exchange.status === 204 || sent.exchange.status === 404) this.ownHooks.delete(id);
  }

  /** Deletes every hook the run created, and any carrying its marker (a create whose answer was lost). */
  async cleanup(target: ApiTarget, stoppedOnError: boolean): Promise<number> {
    if (this.settings.readOnly) return 0;
    const count = this.ownHooks.size;
    if (stoppedOnError && count > 0) this.executor.options.log(`deleting the ${count} webhooks this run created`);
    let deleted = 0;
    for (const id of [...this.ownHooks.keys()]) {
      await this.deleteHook(target, id);
      deleted++;
    }
    for (let page = 1; page <= 50; page++) {
      const list = await this.call(target, 'listWebhooks', { query: { per_page: 100, page } }, true);
      if (list.exchange.status !== 200 || !Array.isArray(list.json) || list.json.length === 0) break;
      for (const hook of list.json as { id?: unknown; config?: { url?: unknown } }[]) {
        if (
          typeof hook.id === 'number' &&
          typeof hook.config?.url === 'string' &&
          hook.config.url.includes(`contracts-fuzz=${this.executor.options.marker}-`)
        ) {
          await this.deleteHook(target, hook.id);
          deleted++;
        }
      }
      if (list.json.length < 100) break;
    }
    return deleted;
  }

  /** use_after_free and ensure_resource_availability, and the deliveries: judged by the sequences (stateful.ts). */
  planSequenceChecks(
    results: ResultCollector,
    target: ApiTarget,
    operationId: string,
    phases: readonly Phase[],
    readOnly: boolean,
  ): void {
    const checks = [
      ...(['getWebhook', 'updateWebhook', 'deleteWebhook', 'pingWebhook', 'testPushWebhook'].includes(operationId)
        ? ['use_after_free']
        : []),
      ...(operationId === 'createWebhook' ? ['ensure_resource_availability'] : []),
    ];
    const deliveries = this.settings.deliveries;
    const receiverOff =
      deliveries === undefined ? 'no receiver was started' : 'off' in deliveries ? deliveries.off : undefined;
    // The deliveries a sequence triggers (ping, test, redelivery), checked by the receiver as they arrive.
    const delivered = ['pingWebhook', 'testPushWebhook', 'redeliverWebhookDelivery'].includes(operationId)
      ? deliveryChecks
      : [];
    for (const check of [...checks, ...delivered]) {
      results.plan([{ api: target.api, operation: operationId, check: check as CheckName }]);
      const reason = readOnly
        ? '--read-only sends only GET requests'
        : !phases.includes('stateful')
          ? '--phases has no stateful phase'
          : delivered.includes(check as CheckName)
            ? receiverOff
            : undefined;
      if (reason) results.markSkipped(target.api, operationId, check as CheckName, reason);
    }
  }

  /** The hooks' sequences (stateful.ts), on the shared hook's repository; none without it. */
  async sequences(
    target: ApiTarget,
    options: { seed: number; numRuns: number; maxShrinkRequests: number },
  ): Promise<void> {
    if (this.sharedHook === undefined) return;
    const { deliveries, deliveryWaitMs } = this.settings;
    await runStateful(this.executor, this, target, {
      ...options,
      ...(deliveries && !('off' in deliveries) ? { deliveries } : {}),
      ...(deliveryWaitMs !== undefined ? { deliveryWaitMs } : {}),
    });
  }
}

/**
 * ensure_resource_availability at the create itself: a 201 names the hook it made. Its `id` is what every link from
 * the create reads (`$response.body#/id`) and what every later call on the hook needs: without it the hook can be
 * neither read, changed nor deleted.
 */
export function createdHookId(status: number, body: unknown): { id?: number; findings: Finding[] } {
  if (status !== 201) return { findings: [] };
  const id = isPlainObject(body) ? body.id : undefined;
  if (typeof id === 'number' && Number.isSafeInteger(id)) return { id, findings: [] };
  return {
    findings: [
      {
        check: 'ensure_resource_availability',
        severity: 'error',
        operation: 'createWebhook',
        message: `createWebhook answered 201 without the integer id of the hook it made (${id === undefined ? 'no id' : `id ${JSON.stringify(id)?.slice(0, 40)}`}): the hook cannot be read, changed or deleted, and the spec's links from the create read $response.body#/id`,
        instancePath: '/id',
        expected: 'an integer',
        actual: id ?? null,
      },
    ],
  };
}
