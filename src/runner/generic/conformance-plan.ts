// The order in which the generic conformance pass sends an API's operations, read from its resource model
// (src/core/resource-model/): every create first, a parent's before what nests under it, so that the reads, updates
// and actions after them find an id this run made; then the lists, reads, updates, replaces and actions; the deletes
// last, what nests first. Plain data, decided before anything is sent: the same spec gives the same steps, and the
// lifecycle rules of the stateful walk (src/fuzz/stateful/) can be judged over these steps later.
import type { ModelOperation, ResourceModel } from '../../core/resource-model/types.js';

/** What a step does to its resource, in the order the stages run. */
export const stages = ['create', 'list', 'read', 'change', 'other', 'delete'] as const;
export type Stage = (typeof stages)[number];

export interface ConformanceStep {
  operationId: string;
  stage: Stage;
  /** The model's entry for the operation: its resource, roles and the bindings of its parameters. */
  operation: ModelOperation;
}

/** Every operation of the model once, in the order to send them. */
export function conformancePlan(model: ResourceModel): ConformanceStep[] {
  const depth = resourceDepths(model);
  const steps = model.operations.map((operation, index) => ({
    step: { operationId: operation.operationId, stage: stageOf(operation), operation },
    index,
    depth: operation.resource === undefined ? 0 : (depth.get(operation.resource) ?? 0),
  }));
  steps.sort((a, b) => {
    const byStage = stages.indexOf(a.step.stage) - stages.indexOf(b.step.stage);
    if (byStage !== 0) return byStage;
    // Parents are made before their children and deleted after them.
    if (a.step.stage === 'create' && a.depth !== b.depth) return a.depth - b.depth;
    if (a.step.stage === 'delete' && a.depth !== b.depth) return b.depth - a.depth;
    return a.index - b.index;
  });
  return steps.map(({ step }) => step);
}

/** A create that also replaces (`PUT /items/{id}`) is a create: nothing exists before it. */
export function stageOf(operation: ModelOperation): Stage {
  const { roles } = operation;
  if (roles.includes('create')) return 'create';
  if (roles.includes('delete')) return 'delete';
  if (roles.includes('list')) return 'list';
  if (roles.includes('read')) return 'read';
  if (roles.includes('update') || roles.includes('replace') || roles.includes('action')) return 'change';
  return 'other';
}

/** How many parents above each resource (0: top level); a cycle of parents stops at the number of resources. */
function resourceDepths(model: ResourceModel): Map<string, number> {
  const parents = new Map(model.resources.map((resource) => [resource.name, resource.parent?.resource]));
  const depths = new Map<string, number>();
  for (const resource of model.resources) {
    let depth = 0;
    for (let parent = parents.get(resource.name); parent !== undefined && depth < parents.size; depth++)
      parent = parents.get(parent);
    depths.set(resource.name, depth);
  }
  return depths;
}
