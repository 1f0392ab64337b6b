// The resource model of any spec: its resources (what creates, reads, updates, replaces, deletes, lists and acts on
// each), and for every parameter of every operation where its value can come from. Pure and deterministic: the same
// document gives the same model; time linear in the spec (each operation, path and answer schema read a bounded
// number of times, schemas only at their top level). One model, two uses: the stateful walk of any API (#46) and the
// stateful mock of any spec (#47).
//
// Where it differs from Schemathesis's inference (src/schemathesis/specs/openapi/stateful/: dependencies/ and
// inference.py), and why:
// - Resources come from the shape of the paths (an item path, its collection, what nests under it), not from
//   matching names across the whole spec (`userId` → a `User` anywhere). Two `{id}`s under different collections
//   never meet; names are used only where the paths say nothing (an id in a query parameter, a parameter whose
//   prefix path is no resource). Fewer links on odd specs, and none between unrelated resources.
// - A spec's links win: a parameter some link binds gets no inferred source. Schemathesis adds its inferred links
//   beside the spec's unless they are a subset of one; here the author's word is the only one where they gave it.
// - `Location` is inferred from the spec (a create that documents the header), before anything is sent;
//   Schemathesis learns it from the answers it sees at run time. The printout can then say it before a run.
// - Roles (create, read, update, replace, delete, list, action), pagination and documented conflicts are part of
//   the model: the lifecycle rules and the mock need them; Schemathesis's graph has producers and consumers only.
import type { OpenApiDocument } from '../load-spec.js';
import { linkGraph } from '../link-graph.js';
import { indexOperations } from '../operation-index.js';
import { bindAll } from './bind-parameters.js';
import { discoverResources, groupPaths, type DraftResource } from './discover-resources.js';
import { matchIdField } from './naming.js';
import { operationFacts, type OperationFacts } from './operation-facts.js';
import { paginationOf } from './pagination.js';
import { listItems, propertiesOf, schemaName } from './schema-shape.js';
import type { ModelOperation, PatchFormat, ResourceModel, Role } from './types.js';

export function buildResourceModel(document: OpenApiDocument): ResourceModel {
  const indexed = indexOperations(document);
  const facts = operationFacts(document, indexed);
  const drafts = [...discoverResources(document, groupPaths(facts)).values()].sort((a, b) => a.order - b.order);
  const taken = new Set<string>();
  const owner = new Map<OperationFacts, { draft: DraftResource; roles: Role[] }>();
  for (const draft of drafts) {
    for (const [operation, roles] of draft.roles) owner.set(operation, { draft, roles });
    finishResource(document, draft, taken);
  }
  const items = new Map(drafts.filter((draft) => draft.kind === 'item').map((draft) => [draft.item!.shape, draft]));
  for (const draft of drafts) {
    if (draft.parentShape === undefined || draft.parentParameter === undefined) continue;
    const parent = items.get(draft.parentShape);
    if (parent) draft.resource.parent = { resource: parent.resource.name, parameter: draft.parentParameter };
  }
  const operations: ModelOperation[] = facts.map((operation) => {
    const owned = owner.get(operation);
    const list = owned?.roles.includes('list') === true;
    const word = owned?.draft.collection?.segments.at(-1)?.text;
    return {
      operationId: operation.spec.operationId,
      method: operation.spec.method,
      path: operation.spec.pathTemplate,
      resource: owned?.draft.resource.name,
      roles: owned?.roles ?? [],
      secured: operation.secured,
      conflicts: operation.conflicts,
      gone: operation.gone,
      success: operation.success,
      location: operation.location,
      patchFormats: operation.spec.method === 'patch' ? patchFormats(operation.requestMediaTypes) : [],
      pagination: list ? paginationOf(document, operation) : [],
      itemsPointer: list && operation.answer ? listItems(document, operation.answer.schema, word)?.pointer : undefined,
      bindings: [],
    };
  });
  const { edges, problems } = linkGraph(document, indexed);
  bindAll({ document, facts, operations, drafts, edges });
  return { resources: drafts.map((draft) => draft.resource), operations, problems };
}

/** Names the resource, finds its id field and fills its role lists. */
function finishResource(document: unknown, draft: DraftResource, taken: Set<string>): void {
  const resource = draft.resource;
  const byRole = (role: Role) =>
    [...draft.roles].filter(([, roles]) => roles.includes(role)).map(([operation]) => operation);
  const reads = byRole('read');
  const creates = byRole('create');
  const lists = byRole('list');
  const listed = lists
    .map(
      (operation) =>
        operation.answer && listItems(document, operation.answer.schema, draft.collection?.segments.at(-1)?.text),
    )
    .find((found) => found !== undefined)?.items;
  const itemSchema =
    [...reads, ...creates].map((operation) => operation.answer?.schema).find((schema) => schema !== undefined) ??
    listed;
  resource.schema = itemSchema === undefined ? undefined : schemaName(document, itemSchema);
  resource.name = uniqueName(resource.schema ?? draft.word ?? 'resource', draft, taken);
  for (const role of ['create', 'read', 'update', 'replace', 'delete', 'list'] as const)
    resource[role] = byRole(role).map((operation) => operation.spec.operationId);
  resource.actions = byRole('action').map((operation) => operation.spec.operationId);
  const parameter = draft.kind === 'item' ? draft.item?.segments.at(-1)?.parameter : undefined;
  if (parameter === undefined) return;
  const fields = itemSchema === undefined ? [] : [...propertiesOf(document, itemSchema).keys()];
  const words = [resource.schema, draft.word].filter((word): word is string => word !== undefined);
  const matched = matchIdField(parameter, words, fields);
  resource.id = matched
    ? { parameter, field: matched.field, rule: matched.rule }
    : {
        parameter,
        field: undefined,
        rule:
          itemSchema === undefined
            ? 'no answer of the resource has a JSON schema'
            : `no field of its schema matches ${parameter}`,
      };
}

/** The first resource keeps a name; a later one with the same name takes its path's word, then its path. */
function uniqueName(wanted: string, draft: DraftResource, taken: Set<string>): string {
  const candidates = [wanted, draft.word, `${wanted} (${draft.item?.template ?? draft.collection?.template})`];
  const name =
    candidates.find((candidate) => candidate !== undefined && !taken.has(candidate)) ?? `${wanted} (${draft.order})`;
  taken.add(name);
  return name;
}

/** RFC 7396 merge patch, RFC 6902 JSON Patch, or a JSON object (read as a partial update). */
function patchFormats(mediaTypes: readonly string[]): PatchFormat[] {
  const formats = new Set<PatchFormat>();
  for (const mediaType of mediaTypes) {
    const essence = mediaType.split(';')[0]!.trim().toLowerCase();
    if (essence === 'application/merge-patch+json') formats.add('merge-patch');
    else if (essence === 'application/json-patch+json') formats.add('json-patch');
    else if (essence === 'application/json' || essence.endsWith('+json')) formats.add('json');
    else formats.add('other');
  }
  return [...formats];
}
