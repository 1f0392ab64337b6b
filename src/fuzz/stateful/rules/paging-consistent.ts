// paging_consistent: walking a list's pages as the spec declares them neither repeats an item nor skips one the run
// created between two pages that list its neighbours (RFC 8288 Link rel="next": the next page of the same list).
import { lifecycleFinding, type LifecycleRule } from '../lifecycle-rule.js';

export const pagingConsistent: LifecycleRule = {
  name: 'paging_consistent',
  statement:
    'Following the pages of a list as the spec declares neither repeats an item on two pages nor loses one the first page shows when read alone.',
  plan: ({ resource, operations, unaddressable }) =>
    resource.list.map((operationId) => {
      const operation = operations.get(operationId);
      return {
        operationId,
        ...(operation === undefined || operation.pagination.length === 0
          ? { missing: `${operationId} declares no pagination (no Link header, cursor, page or offset parameter)` }
          : resource.create.length === 0
            ? { missing: `no operation creates a ${resource.name}, so the run has nothing of its own to page through` }
            : resource.id?.field === undefined
              ? { missing: `no field of a ${resource.name} carries its id: name it id` }
              : unaddressable
                ? { missing: unaddressable }
                : {}),
      };
    }),
};

/**
 * Repeats across pages; and skips: every item the run created, which a complete walk must hold (a created item a
 * complete walk lost is listed_after_create's, unless the walk saw fewer items than the run created).
 */
export function judgePaging(list: string, pages: readonly unknown[][], created: readonly unknown[], complete: boolean) {
  const seen = new Map<string, number>();
  const findings = [];
  for (const [index, page] of pages.entries()) {
    for (const id of page) {
      const key = JSON.stringify(id);
      const first = seen.get(key);
      if (first !== undefined && first !== index) {
        findings.push(
          lifecycleFinding(
            'paging_consistent',
            list,
            `${list} lists ${key} on page ${first + 1} and again on page ${index + 1}`,
            { expected: 'each item on one page', actual: id },
          ),
        );
      }
      if (first === undefined) seen.set(key, index);
    }
  }
  const all = pages.flat();
  const missing = complete ? created.filter((id) => !all.includes(id)) : [];
  if (missing.length > 0 && pages.length > 1)
    findings.push(
      lifecycleFinding(
        'paging_consistent',
        list,
        `${list} skips ${missing.map((id) => JSON.stringify(id)).join(', ')} (made by the run) across its ${pages.length} pages`,
        { expected: missing, actual: all.slice(0, 20) },
      ),
    );
  return findings;
}
