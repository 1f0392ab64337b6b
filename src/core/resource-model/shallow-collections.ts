// Shallow nesting: a collection under a parent item whose items live at a top-level item path of their own
// (`POST /shelves/{shelfId}/books` creates what `GET /books/{bookId}` reads; Rails' "shallow" routes, and many
// public APIs: GitHub's `/repos/{owner}/{repo}/issues` ↔ none, but Stripe's, Jira's and others'). Discovery by path
// shape finds two resources there: a collection-only "book" and an item "book" with no collection. They are one
// resource when the collection's word is the item path's word and, where both answers name a component schema, it is
// the same one (two words that happen to match but answer different schemas stay apart). The collection's parent
// (the item path its parameter ends) becomes the joined resource's parent, so a walk creates the shelf first.
import type { DraftResource } from './discover-resources.js';
import { shapeOf } from './path-shape.js';
import { schemaName } from './schema-shape.js';

export function joinShallowCollections(document: unknown, drafts: Map<string, DraftResource>): void {
  const lonelyItems = [...drafts.values()].filter((draft) => draft.kind === 'item' && draft.collection === undefined);
  if (lonelyItems.length === 0) return;
  for (const [shape, collection] of [...drafts]) {
    if (collection.kind !== 'collection' || !collection.collection) continue;
    const segments = collection.collection.segments;
    const parentParameter = segments.at(-2)?.parameter;
    if (parentParameter === undefined) continue;
    const item = lonelyItems.find(
      (draft) =>
        draft.collection === undefined &&
        draft.word === collection.word &&
        sameSchema(answerSchema(document, draft, 'item'), answerSchema(document, collection, 'collection')),
    );
    if (!item) continue;
    item.collection = collection.collection;
    for (const [operation, roles] of collection.roles) item.roles.set(operation, roles);
    item.resource.collectionPath = collection.collection.template;
    const parentShape = shapeOf(segments.slice(0, -1));
    if (drafts.get(parentShape)?.kind === 'item') {
      item.parentShape = parentShape;
      item.parentParameter = parentParameter;
    }
    drafts.delete(shape);
  }
}

/** The component schema a 2xx JSON answer of the draft's reads (an item) or creates (a collection) names. */
function answerSchema(document: unknown, draft: DraftResource, side: 'item' | 'collection'): string | undefined {
  for (const [operation, roles] of draft.roles) {
    if (!roles.includes(side === 'item' ? 'read' : 'create') || operation.answer === undefined) continue;
    const name = schemaName(document, operation.answer.schema);
    if (name !== undefined) return name;
  }
  return undefined;
}

function sameSchema(a: string | undefined, b: string | undefined): boolean {
  return a === undefined || b === undefined || a === b;
}
