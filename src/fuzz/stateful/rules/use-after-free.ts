// use_after_free: after a delete answered 2xx, reading the same resource answers 404 Not Found or 410 Gone
// (RFC 9110 §9.3.5 DELETE removes the association; §15.5.5 404, §15.5.11 410).
import { described, lifecycleFinding, type LifecycleRule } from '../lifecycle-rule.js';

export const useAfterFree: LifecycleRule = {
  name: 'use_after_free',
  statement: 'After a delete answered 2xx, a read of the same resource answers 404 or 410.',
  plan: ({ resource, unaddressable }) =>
    resource.delete.map((operationId) => ({
      operationId,
      ...(resource.read.length === 0
        ? {
            missing: `no operation reads a ${resource.name} by its id: add a GET on ${resource.itemPath ?? 'its item path'}`,
          }
        : unaddressable
          ? { missing: unaddressable }
          : {}),
    })),
};

export function judgeUseAfterFree(
  remove: string,
  read: string,
  path: Readonly<Record<string, unknown>>,
  idParameter: string | undefined,
  status: number,
  goneDocumented = true,
) {
  if (status === 404 || status === 410) return [];
  // A read that documents no 404, 410 or 4XX has no documented way to say "gone" (OpenAPI 3.1 §4.8.16): any 4xx it
  // answers is a refusal the spec allows, and only a 2xx (or 5xx) shows the resource outlived its delete.
  if (!goneDocumented && status >= 400 && status < 500) return [];
  return [
    lifecycleFinding(
      'use_after_free',
      remove,
      `${remove} on ${described(path, idParameter)} answered 2xx, then ${read} on it answered ${status}, expected 404 or 410`,
      { expected: [404, 410], actual: status },
    ),
  ];
}
