// listed_after_create: a resource the run created appears in its collection's list, the pages followed as the
// spec declares them (RFC 8288 Link rel="next", a cursor parameter, page numbers or offsets), up to a bound.
import { described, lifecycleFinding, type LifecycleRule } from '../lifecycle-rule.js';

export const listedAfterCreate: LifecycleRule = {
  name: 'listed_after_create',
  statement:
    "A created resource appears in its collection's list, every page followed as the spec declares (Link rel=next, a cursor, page numbers, offsets), up to a bound.",
  plan: ({ resource, operations, unaddressable }) => {
    const list = resource.list.find((operationId) => operations.get(operationId)?.itemsPointer !== undefined);
    return resource.create.map((operationId) => ({
      operationId,
      ...(resource.list.length === 0
        ? {
            missing: `no operation lists ${resource.name} items: add a GET on ${resource.collectionPath ?? 'its collection'}`,
          }
        : list === undefined
          ? { missing: `the list's answer shows no array of ${resource.name} items: describe its schema` }
          : resource.id?.field === undefined
            ? {
                missing: `no field of a ${resource.name} carries its id ${resource.id?.parameter ?? ''}: name it id, or add an OpenAPI link from the create`,
              }
            : unaddressable
              ? { missing: unaddressable }
              : {}),
    }));
  },
};

/** What walking a list's pages showed: the ids of each page's items, and whether it reached the last page. */
export interface PageWalk {
  list: string;
  pages: unknown[][];
  /** The last page was reached (no next page declared or given); false when the page bound stopped the walk. */
  complete: boolean;
}

export function judgeListed(
  create: string,
  walk: PageWalk,
  path: Readonly<Record<string, unknown>>,
  idParameter: string | undefined,
  id: unknown,
) {
  if (!walk.complete || walk.pages.some((page) => page.includes(id))) return [];
  return [
    lifecycleFinding(
      'listed_after_create',
      create,
      `${create} made ${described(path, idParameter)}, but ${walk.list} does not list it in any of its ${walk.pages.length} page${walk.pages.length === 1 ? '' : 's'}`,
      { expected: id, actual: walk.pages.flat().slice(0, 20) },
    ),
  ];
}
