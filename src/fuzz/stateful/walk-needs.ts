// Why the walk cannot create and address an instance of a resource, said in the user's terms with what to change
// (a link to add, a field to name), or undefined when it can. Decided from the model before anything is sent.
import type { Binding, ModelOperation, Resource, ResourceModel } from '../../core/resource-model/types.js';

/** The item operations of a resource, in the order the walk prefers to read an id binding from. */
export function itemOperations(resource: Resource): string[] {
  return [...resource.read, ...resource.update, ...resource.replace, ...resource.actions, ...resource.delete].filter(
    (operationId, index, all) => all.indexOf(operationId) === index,
  );
}

/** The id parameter's binding on the first item operation that binds it from one of the resource's creates. */
export function idBinding(
  resource: Resource,
  operations: ReadonlyMap<string, ModelOperation>,
  create: string,
): Binding | undefined {
  const parameter = resource.id?.parameter;
  if (parameter === undefined) return undefined;
  for (const operationId of itemOperations(resource)) {
    const binding = operations.get(operationId)?.bindings.find((candidate) => candidate.parameter === parameter);
    if (binding?.sources.some((source) => source.operationId === create)) return binding;
  }
  return undefined;
}

export function unaddressable(
  model: ResourceModel,
  resource: Resource,
  operations: ReadonlyMap<string, ModelOperation>,
  seen: ReadonlySet<string> = new Set(),
): string | undefined {
  if (resource.create.length === 0)
    return `no operation creates a ${resource.name} (a POST on its collection or a PUT on its item), and the walk acts only on what it created`;
  if (resource.parent !== undefined && !seen.has(resource.name)) {
    const parent = model.resources.find((candidate) => candidate.name === resource.parent!.resource);
    const why = parent ? unaddressable(model, parent, operations, new Set([...seen, resource.name])) : undefined;
    if (parent === undefined) return `its parent ${resource.parent.resource} is not in the model`;
    if (why !== undefined) return `its parent ${parent.name} cannot be made: ${why}`;
  }
  const items = itemOperations(resource);
  if (items.length === 0 || resource.id === undefined) return undefined;
  if (resource.create.some((create) => idBinding(resource, operations, create) !== undefined)) return undefined;
  const create = resource.create[0]!;
  return `nothing binds ${resource.id.parameter} of ${items[0]} from ${create}'s answer: add an OpenAPI link from ${create} to ${items[0]}, or give the answer an id field or a Location header`;
}
