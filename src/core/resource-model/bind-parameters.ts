// Where each parameter's value can come from. Bound: every path parameter, and every required query or header
// parameter whose name looks like an id (`petId`, `pet_id`, `id`). In order:
// 1. the spec's links to the operation that give the parameter (OpenAPI 3.1 section 4.8.20, Link Object); when one
//    does, nothing is inferred for it;
// 2. for a parameter above the operation's own item (`userId` in `/users/{userId}/posts/{postId}`): the value the
//    resource's create was sent with, so a nested resource is read under the parent it was made in;
// 3. the resource whose item path ends at the parameter (by path shape; else, for a parameter whose prefix is no
//    item path, the resource named like it: `petId` → Pet): its creates' answers (the id field in the body, a
//    documented `Location` header, or a PUT-create's own path), then its lists' first item.
import type { LinkEdge } from '../link-graph.js';
import type { DraftResource } from './discover-resources.js';
import { idPrefix, looksLikeId, normalized, singular } from './naming.js';
import type { OperationFacts } from './operation-facts.js';
import { maxModelledSegments, segmentsOf, shapeOf, templateOf, type Segment } from './path-shape.js';
import { escapePointer, listItems, propertiesOf } from './schema-shape.js';
import type { Binding, BindingSource, ModelOperation } from './types.js';

interface Context {
  document: unknown;
  facts: readonly OperationFacts[];
  operations: readonly ModelOperation[];
  drafts: readonly DraftResource[];
  edges: readonly LinkEdge[];
}

/** Fills every operation's bindings; maps are built once, so the whole model costs linear time. */
export function bindAll(context: Context): void {
  const byItemShape = new Map<string, DraftResource>();
  for (const draft of context.drafts) if (draft.kind === 'item' && draft.item) byItemShape.set(draft.item.shape, draft);
  const linksTo = new Map<string, LinkEdge[]>();
  for (const edge of context.edges) {
    const list = linksTo.get(edge.to);
    if (list) list.push(edge);
    else linksTo.set(edge.to, [edge]);
  }
  const byName = new Map<string, DraftResource>();
  for (const draft of context.drafts) {
    for (const word of [draft.resource.name, draft.resource.schema, draft.word])
      if (word !== undefined && !byName.has(normalized(word))) byName.set(normalized(word), draft);
  }
  const ownerOf = new Map<string, DraftResource>();
  for (const draft of context.drafts)
    for (const operation of draft.roles.keys()) ownerOf.set(operation.spec.operationId, draft);
  const factsById = new Map(context.facts.map((facts) => [facts.spec.operationId, facts]));
  const memo = new Map<string, BindingSource[]>();
  const resourceSources = (draft: DraftResource, field: string | undefined): BindingSource[] => {
    const key = `${draft.order} ${draft.kind} ${field ?? ''}`;
    let found = memo.get(key);
    if (!found) memo.set(key, (found = sourcesOf(context, draft, field, factsById)));
    return found;
  };
  for (const [index, operation] of context.operations.entries()) {
    const facts = context.facts[index]!;
    operation.bindings = bindable(facts).map((parameter) => {
      const links = linkSources(linksTo.get(operation.operationId) ?? [], parameter.name);
      if (links.length > 0) return { parameter: parameter.name, in: parameter.in, sources: links };
      const found = infer(
        parameter,
        facts,
        ownerOf.get(operation.operationId),
        byItemShape,
        byName,
        resourceSources,
        factsById,
      );
      return { parameter: parameter.name, in: parameter.in, ...found };
    });
  }
}

function bindable(facts: OperationFacts): { name: string; in: Binding['in'] }[] {
  return facts.parameters
    .filter(
      (parameter) =>
        parameter.in === 'path' || (parameter.in !== 'cookie' && parameter.required && looksLikeId(parameter.name)),
    )
    .map((parameter) => ({ name: parameter.name, in: parameter.in as Binding['in'] }));
}

function linkSources(edges: readonly LinkEdge[], parameter: string): BindingSource[] {
  const sources: BindingSource[] = [];
  for (const edge of edges) {
    for (const { name, source } of edge.parameters) {
      if (name !== parameter) continue;
      const expression =
        source.from === 'response.body' ? `$response.body${source.pointer}` : `$request.path.${source.name}`;
      sources.push({ kind: 'link', operationId: edge.from, status: edge.status, link: edge.name, expression });
    }
  }
  return sources;
}

function infer(
  parameter: { name: string; in: Binding['in'] },
  facts: OperationFacts,
  own: DraftResource | undefined,
  byItemShape: Map<string, DraftResource>,
  byName: Map<string, DraftResource>,
  resourceSources: (draft: DraftResource, field: string | undefined) => BindingSource[],
  factsById: Map<string, OperationFacts>,
): { sources: BindingSource[]; unbound?: string } {
  const segments = segmentsOf(facts.spec.pathTemplate);
  if (segments.length > maxModelledSegments)
    return { sources: [], unbound: `its path has more than ${maxModelledSegments} segments: not modelled` };
  const index = parameter.in === 'path' ? segments.findIndex((segment) => segment.parameter === parameter.name) : -1;
  const prefix = index < 0 ? undefined : segments.slice(0, index + 1);
  const byShape = prefix ? byItemShape.get(shapeOf(prefix)) : undefined;
  const draft = byShape ?? namedResource(parameter.name, byName);
  if (draft && byShape && facts.spec.pathTemplate === draft.item?.template && index === segments.length - 1)
    if (draft.resource.create.includes(facts.spec.operationId))
      return {
        sources: [],
        unbound: `this operation creates the ${draft.resource.name} its path names: the client chooses the value`,
      };
  const sources = prefix && own && own !== draft ? sentToCreate(own, facts, prefix, factsById) : [];
  if (draft) sources.push(...resourceSources(draft, draft.resource.id?.field));
  if (sources.length > 0) return { sources };
  if (draft) return { sources, unbound: whyNot(draft, draft.resource.id?.field) };
  return {
    sources,
    unbound:
      prefix !== undefined
        ? `no resource has the item path ${templateOf(prefix)} and none is named like ${parameter.name}: give it a value (an example, a default or a variable)`
        : `no resource is named like ${parameter.name}: give it a value (an example, a default or a variable)`,
  };
}

/**
 * A parameter above the operation's own item (`userId`, `owner`): the value its resource's create was sent with,
 * so what is read is what was made, under the parent it was made in.
 */
function sentToCreate(
  own: DraftResource,
  facts: OperationFacts,
  prefix: readonly Segment[],
  factsById: Map<string, OperationFacts>,
): BindingSource[] {
  const sources: BindingSource[] = [];
  const index = prefix.length - 1;
  // At or below its own id in its own item path: not a parent's. (A shallow item path, `/books/{bookId}` for
  // `/shelves/{shelfId}/books`, is shorter than the collection: its parents are all above the item.)
  const ownPrefix = own.item?.segments.slice(0, -1);
  const underOwnItem =
    ownPrefix !== undefined &&
    shapeOf(segmentsOf(facts.spec.pathTemplate).slice(0, ownPrefix.length)) === shapeOf(ownPrefix);
  if (own.item && underOwnItem && index >= own.item.segments.length - 1) return sources;
  for (const createId of own.resource.create) {
    const create = factsById.get(createId);
    if (!create || createId === facts.spec.operationId) continue;
    const segments = segmentsOf(create.spec.pathTemplate);
    const name = segments[index]?.parameter;
    if (name !== undefined && shapeOf(segments.slice(0, index + 1)) === shapeOf(prefix))
      sources.push({ kind: 'request-path', operationId: createId, expression: `$request.path.${name}` });
  }
  return sources;
}

function namedResource(name: string, byName: Map<string, DraftResource>): DraftResource | undefined {
  const prefix = idPrefix(name);
  if (prefix === undefined) return undefined;
  return byName.get(normalized(prefix)) ?? byName.get(normalized(singular(prefix)));
}

function whyNot(draft: DraftResource, field: string | undefined): string {
  const { resource } = draft;
  if (resource.create.length === 0 && resource.list.length === 0)
    return `no operation creates or lists a ${resource.name}: give it a value (an example, a default or a variable), or add a link`;
  if (field === undefined)
    return `the ${resource.name}'s id field is not known (${resource.id?.rule ?? 'it has no item path'}), and no create documents a Location header: add a link`;
  return `no create or list of the ${resource.name} answers its ${field} field: add a link`;
}

function sourcesOf(
  context: Context,
  draft: DraftResource,
  field: string | undefined,
  factsById: Map<string, OperationFacts>,
): BindingSource[] {
  const sources: BindingSource[] = [];
  const pointer = field === undefined ? undefined : `/${escapePointer(field)}`;
  for (const operationId of draft.resource.create) {
    const create = factsById.get(operationId)!;
    if (draft.item && create.spec.pathTemplate === draft.item.template) {
      const own = draft.item.segments.at(-1)!.parameter!;
      sources.push({ kind: 'request-path', operationId, expression: `$request.path.${own}` });
      continue;
    }
    if (pointer && create.answer && propertiesOf(context.document, create.answer.schema).has(field!))
      sources.push({
        kind: 'response-body',
        operationId,
        status: create.answer.status,
        expression: `$response.body#${pointer}`,
      });
    if (draft.item)
      for (const status of create.location)
        sources.push({
          kind: 'location',
          operationId,
          status,
          expression: '$response.header.Location',
          template: draft.item.template,
        });
  }
  if (pointer === undefined) return sources;
  for (const operationId of draft.resource.list) {
    const list = factsById.get(operationId)!;
    if (!list.answer) continue;
    const items = listItems(context.document, list.answer.schema, draft.collection?.segments.at(-1)?.text);
    if (items && propertiesOf(context.document, items.items).has(field!))
      sources.push({
        kind: 'list-item',
        operationId,
        status: list.answer.status,
        expression: `$response.body#${items.pointer}/0${pointer}`,
      });
  }
  return sources;
}
