// Live ids for the single-operation phases (examples, boundaries, random): before an operation's phases, the
// instance its path names is made (the resource model's create, parents first, as the walk makes them), and its cases
// carry that instance's ids instead of made-up ones. A service that answers 404 for a made-up parent before it reads
// the body (`POST /shelves/{shelfId}/books`) hid every bug behind a valid id from those phases; now they reach it.
// Only operations that neither delete nor act on what they name are bound (an action may consume it: a cancelled
// order): the phases' many cases must leave the instance usable, and a DELETE keeps its made-up ids. A case that varies
// a path parameter itself (its example, its edge values) keeps its value. A bound case's trail is the instance's
// creates, so its reproduction makes the instance first. Only instances the run made are used, and they are deleted
// after the phases.
import type { ModelOperation, ResourceModel } from '../../core/resource-model/types.js';
import type { ApiTarget, Executor } from '../executor.js';
import type { FuzzCase } from '../fuzz-case.js';
import { baseRequest } from '../generate-cases.js';
import type { ParamValue } from '../request-model.js';
import { type Instance, ResourceWalk, modelOf } from './walk.js';

export interface LiveOptions {
  seed: number;
  marker: string;
  /** Whether the run may call an operation (the operation filters and --shard leave the others alone). */
  allowed: (operationId: string) => boolean;
}

/** What one operation's cases are bound to: the ids by path parameter, and the steps that made them. */
interface LiveIds {
  path: Record<string, ParamValue>;
  trail: Instance['trail'];
  /** The smallest valid request's path values: a case with another value varies that parameter itself. */
  base: Record<string, ParamValue>;
}

/** The phases the live ids are for: the ones that send valid requests one operation at a time. */
const boundPhases = new Set<FuzzCase['phase']>(['examples', 'boundaries', 'random']);

export class LiveInstances {
  private readonly walk: ResourceWalk;
  private readonly operations: Map<string, ModelOperation>;
  private readonly ids = new Map<string, LiveIds>();

  constructor(
    private readonly target: ApiTarget,
    private readonly document: unknown,
    private readonly model: ResourceModel,
    executor: Executor,
    private readonly options: LiveOptions,
  ) {
    this.operations = new Map(model.operations.map((operation) => [operation.operationId, operation]));
    this.walk = new ResourceWalk(executor, target, document, model, {
      seed: options.seed,
      maxRequests: Number.POSITIVE_INFINITY,
      maxPages: 1,
      marker: options.marker,
      readOnly: false,
    });
  }

  /** Makes the instance an operation's cases bind to (once per resource), before its phases. */
  async prepare(operationId: string): Promise<void> {
    const operation = this.operations.get(operationId);
    const model = this.target.models.get(operationId);
    if (operation === undefined || model === undefined || !nonDestructive(operation)) return;
    const resource = this.model.resources.find((candidate) => candidate.name === operation.resource);
    if (resource === undefined) return;
    // A create names its parent, never its own id (a PUT-create on a live id would be a replace).
    const creates = operation.roles.includes('create');
    const needed = creates ? resource.parent?.resource : resource.name;
    if (needed === undefined) return;
    const neededResource = this.model.resources.find((candidate) => candidate.name === needed);
    if (neededResource === undefined || !neededResource.create.every(this.options.allowed)) return;
    const instance = await this.walk.liveInstance(needed);
    if (typeof instance === 'string' || instance.deleted) return;
    const path: Record<string, ParamValue> = {};
    const own = creates ? resource.id?.parameter : undefined;
    for (const param of model.params) {
      if (param.in !== 'path' || param.name === own) continue;
      const value =
        instance.path[param.name] ?? (creates && param.name === resource.parent?.parameter ? instance.id : undefined);
      if (value !== undefined) path[param.name] = value;
    }
    if (Object.keys(path).length === 0) return;
    const base = baseRequest({ api: this.target.api, document: this.document, model }).path;
    this.ids.set(operationId, { path, trail: [...instance.trail], base });
  }

  /** The case with the operation's live ids in its path, where it does not vary them itself; else the case. */
  bind(fuzzCase: FuzzCase): FuzzCase {
    const live = this.ids.get(fuzzCase.operationId);
    if (live === undefined || !boundPhases.has(fuzzCase.phase) || fuzzCase.trail !== undefined) return fuzzCase;
    const path = { ...fuzzCase.request.path };
    let changed = false;
    for (const [name, value] of Object.entries(live.path)) {
      // Random cases draw every value: the path's ids are theirs to take. The fixed lists vary one thing at a time.
      if (fuzzCase.phase !== 'random' && path[name] !== live.base[name]) continue;
      path[name] = value;
      changed = true;
    }
    if (!changed) return fuzzCase;
    return { ...fuzzCase, request: { ...fuzzCase.request, path }, trail: live.trail };
  }

  /** Deletes the instances made for the phases, children first. */
  release(): Promise<void> {
    return this.walk.releaseAll();
  }
}

/** Neither a delete nor an action: the phases' cases leave what it names in place. */
function nonDestructive(operation: ModelOperation): boolean {
  return (
    operation.method.toUpperCase() !== 'DELETE' &&
    !operation.roles.includes('delete') &&
    !operation.roles.includes('action')
  );
}

/**
 * Live instances for a target, or undefined where there must be none: --read-only (nothing is created), a
 * stateless embedded mock (it keeps nothing a create makes), or a spec whose model has nothing to create.
 */
export function liveInstancesFor(
  executor: Executor,
  target: ApiTarget,
  document: unknown,
  options: LiveOptions & { readOnly: boolean; stateful: boolean },
): LiveInstances | undefined {
  if (options.readOnly || !options.stateful) return undefined;
  const model = modelOf(target);
  if (!model.resources.some((resource) => resource.create.length > 0)) return undefined;
  return new LiveInstances(target, document, model, executor, options);
}
