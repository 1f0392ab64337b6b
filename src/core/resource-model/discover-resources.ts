// Which resources a spec has, and what each operation does to one, from the shape of its paths:
// - an item path ends in a whole `{parameter}` segment; its collection is the same path without it, when that ends in
//   a literal (`/pets/{petId}` ↔ `/pets`);
// - on an item path: GET reads, PATCH updates, PUT replaces (and creates when it documents 201: RFC 9110 section
//   9.3.4, a PUT that creates answers 201), DELETE deletes, POST creates when it documents 201 (else it acts);
// - on a collection: GET lists, POST creates;
// - a POST-only path under an item path, ending in a literal, is an action on that item (`POST /orders/{id}/cancel`)
//   unless it documents 201 (then it creates);
// - any other path under an item path, ending in a literal, is a singleton that nests under it (`/hooks/{id}/config`),
//   unless it creates (a POST documenting 201) or lists: then it is a collection nested under that item;
// - a literal path with a POST that documents 201, or a GET answering a list, and no item path below it, is a
//   collection-only resource (a POST answering 200 or 202 there is more often a verb: /credentials/revoke);
// - such a collection under a parent item, whose items live at a top-level item path of the same word, is that
//   item's collection (shallow nesting: shallow-collections.ts).
import type { OperationFacts } from './operation-facts.js';
import { maxModelledSegments, segmentsOf, shapeOf, type Segment } from './path-shape.js';
import { singular } from './naming.js';
import { listItems } from './schema-shape.js';
import { joinShallowCollections } from './shallow-collections.js';
import type { Resource, Role } from './types.js';

export interface PathGroup {
  template: string;
  segments: Segment[];
  shape: string;
  operations: OperationFacts[];
}

/** A resource while it is being discovered: its paths, and its operations with their roles. */
export interface DraftResource {
  kind: 'item' | 'singleton' | 'collection';
  order: number;
  item: PathGroup | undefined;
  collection: PathGroup | undefined;
  /** The literal word that names it when no schema does (`posts`, `config`). */
  word: string | undefined;
  /** The item shape of the resource it nests under. */
  parentShape: string | undefined;
  parentParameter: string | undefined;
  roles: Map<OperationFacts, Role[]>;
  resource: Resource;
}

export function groupPaths(facts: readonly OperationFacts[]): Map<string, PathGroup> {
  const groups = new Map<string, PathGroup>();
  for (const operation of facts) {
    const template = operation.spec.pathTemplate;
    let group = groups.get(template);
    if (!group) {
      const segments = segmentsOf(template);
      group = { template, segments, shape: shapeOf(segments), operations: [] };
      groups.set(template, group);
    }
    group.operations.push(operation);
  }
  return groups;
}

export function discoverResources(document: unknown, groups: Map<string, PathGroup>): Map<string, DraftResource> {
  const byShape = new Map<string, PathGroup>();
  for (const group of groups.values())
    if (group.segments.length <= maxModelledSegments && !byShape.has(group.shape)) byShape.set(group.shape, group);
  const drafts = new Map<string, DraftResource>();
  let order = 0;
  for (const group of byShape.values()) {
    order++;
    const last = group.segments.at(-1);
    if (last?.parameter === undefined) continue;
    const parentSegments = group.segments.slice(0, -1);
    const above = parentSegments.at(-1);
    const collection = above && above.parameter === undefined ? byShape.get(shapeOf(parentSegments)) : undefined;
    const draft = newDraft('item', order, group, collection, literalWord(group.segments));
    for (const operation of group.operations) draft.roles.set(operation, itemRoles(operation));
    for (const operation of collection?.operations ?? []) draft.roles.set(operation, collectionRoles(operation));
    drafts.set(group.shape, draft);
  }
  order = 0;
  for (const group of byShape.values()) {
    order++;
    if (group.segments.at(-1)?.parameter !== undefined || drafts.has(`${group.shape}/{}`)) continue;
    const parentSegments = group.segments.slice(0, -1);
    const owner = parentSegments.at(-1)?.parameter !== undefined ? drafts.get(shapeOf(parentSegments)) : undefined;
    const methods = new Set(group.operations.map((operation) => operation.spec.method));
    const creates = group.operations.some(
      (operation) => operation.spec.method === 'post' && operation.success.includes('201'),
    );
    const word = group.segments.at(-1)?.text;
    const lists = group.operations.some(
      (operation) => operation.spec.method === 'get' && listsItems(document, operation, word),
    );
    if (owner && methods.size === 1 && methods.has('post') && !creates) {
      for (const operation of group.operations) owner.roles.set(operation, ['action']);
      continue;
    }
    const underItem = parentSegments.at(-1)?.parameter !== undefined;
    if (underItem && !creates && !lists) {
      const draft = newDraft('singleton', order, group, undefined, group.segments.at(-1)?.text);
      if (owner) {
        draft.parentShape = shapeOf(parentSegments);
        draft.parentParameter = parentSegments.at(-1)?.parameter;
      }
      for (const operation of group.operations) draft.roles.set(operation, itemRoles(operation));
      drafts.set(group.shape, draft);
      continue;
    }
    if (creates || lists) {
      const draft = newDraft('collection', order, undefined, group, singular(word ?? ''));
      if (underItem && owner) {
        draft.parentShape = shapeOf(parentSegments);
        draft.parentParameter = parentSegments.at(-1)?.parameter;
      }
      for (const operation of group.operations) draft.roles.set(operation, collectionRoles(operation));
      drafts.set(group.shape, draft);
    }
  }
  joinShallowCollections(document, drafts);
  for (const draft of drafts.values())
    if (draft.kind === 'item' && draft.parentShape === undefined) findParent(draft, drafts);
  return drafts;
}

function newDraft(
  kind: DraftResource['kind'],
  order: number,
  item: PathGroup | undefined,
  collection: PathGroup | undefined,
  word: string | undefined,
): DraftResource {
  return {
    kind,
    order,
    item,
    collection,
    word,
    parentShape: undefined,
    parentParameter: undefined,
    roles: new Map(),
    resource: {
      name: '',
      schema: undefined,
      collectionPath: collection?.template,
      itemPath: item?.template,
      id: undefined,
      parent: undefined,
      create: [],
      read: [],
      update: [],
      replace: [],
      delete: [],
      list: [],
      actions: [],
    },
  };
}

/** The nearest parameter above the collection: the resource whose item path ends there is the parent. */
function findParent(draft: DraftResource, drafts: Map<string, DraftResource>): void {
  const segments = draft.item!.segments.slice(0, -1);
  for (let index = segments.length - 1; index >= 0; index--) {
    const parameter = segments[index]!.parameter;
    if (parameter === undefined) continue;
    const shape = shapeOf(segments.slice(0, index + 1));
    if (drafts.get(shape)?.kind === 'item') {
      draft.parentShape = shape;
      draft.parentParameter = parameter;
    }
    return;
  }
}

function itemRoles(operation: OperationFacts): Role[] {
  const created = operation.success.includes('201');
  switch (operation.spec.method) {
    case 'get':
      return ['read'];
    case 'patch':
      return ['update'];
    case 'put':
      return created ? ['create', 'replace'] : ['replace'];
    case 'delete':
      return ['delete'];
    case 'post':
      return created ? ['create'] : ['action'];
    default:
      return [];
  }
}

function collectionRoles(operation: OperationFacts): Role[] {
  if (operation.spec.method === 'get') return ['list'];
  if (operation.spec.method === 'post') return ['create'];
  return [];
}

/** The last literal segment of a path (`/repos/{owner}/{repo}` → `repos`). */
function literalWord(segments: readonly Segment[]): string | undefined {
  for (let index = segments.length - 1; index >= 0; index--)
    if (segments[index]!.parameter === undefined) return singular(segments[index]!.text);
  return undefined;
}

/** A GET whose 2xx JSON answer is an array, or holds one under a usual name (items, data, results…). */
function listsItems(document: unknown, operation: OperationFacts, word: string | undefined): boolean {
  return operation.answer !== undefined && listItems(document, operation.answer.schema, word, true) !== undefined;
}
