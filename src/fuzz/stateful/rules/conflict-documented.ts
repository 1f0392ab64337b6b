// conflict_documented: where an operation documents 409 Conflict, 410 Gone or 412 Precondition Failed (RFC 9110
// §15.5.10, §15.5.11, §15.5.13), repeating its state change on the same resource is refused: an action done twice,
// a delete done twice (any refusal passes, 404 too), a write with an If-Match no representation has (§13.1.1).
// Answered 2xx, the documented conflict never happens.
import { described, is2xx, lifecycleFinding, type LifecycleRule } from '../lifecycle-rule.js';

export const conflictDocumented: LifecycleRule = {
  name: 'conflict_documented',
  statement:
    'An action documenting 409/410 answers no 2xx when repeated on the same resource; a delete documenting 409/410 none when repeated; a write documenting 412 none with a stale If-Match.',
  plan: ({ resource, operations, unaddressable }) =>
    [...resource.actions, ...resource.delete, ...resource.update, ...resource.replace]
      .filter((operationId, index, all) => all.indexOf(operationId) === index)
      .filter((operationId) => {
        const operation = operations.get(operationId);
        return repeatOf(operationId, resource.actions, operation?.conflicts ?? [], operation?.method) !== undefined;
      })
      .map((operationId) => ({ operationId, ...(unaddressable ? { missing: unaddressable } : {}) })),
};

/** How the walk repeats an operation's state change: 'again' (the same request), 'stale' (If-Match), or not at all. */
export function repeatOf(
  operationId: string,
  actions: readonly string[],
  conflicts: readonly string[],
  method?: string,
): 'again' | 'stale' | undefined {
  if (conflicts.includes('412')) return 'stale';
  if (!conflicts.includes('409') && !conflicts.includes('410')) return undefined;
  if (actions.includes(operationId) || method === 'DELETE' || method === 'delete') return 'again';
  return undefined;
}

export function judgeConflict(
  operation: string,
  conflicts: readonly string[],
  how: 'again' | 'stale',
  path: Readonly<Record<string, unknown>>,
  idParameter: string | undefined,
  status: number,
) {
  if (!is2xx(status)) return [];
  const what = how === 'again' ? 'repeated on' : 'sent with an If-Match no version has, on';
  return [
    lifecycleFinding(
      'conflict_documented',
      operation,
      `${operation} ${what} ${described(path, idParameter)} answered ${status}; the spec documents ${conflicts.join(', ')} for it`,
      { expected: conflicts, actual: status },
    ),
  ];
}
