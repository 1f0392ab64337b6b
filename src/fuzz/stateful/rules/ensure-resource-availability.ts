// ensure_resource_availability: a resource whose create answered 2xx can be read by the id the answer gives
// (OpenAPI 3.1 §4.8.16 Links / the model's bindings; RFC 9110 §15.3.2: 201 Created names the resource it made).
import { described, is2xx, lifecycleFinding, type LifecycleRule } from '../lifecycle-rule.js';

export const ensureResourceAvailability: LifecycleRule = {
  name: 'ensure_resource_availability',
  statement:
    'A resource whose create answered 2xx is read with 2xx by the id its answer gives (or the path it was PUT to).',
  plan: ({ resource, unaddressable }) =>
    resource.create.map((operationId) => ({
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

export function judgeAvailability(
  create: string,
  read: string,
  path: Readonly<Record<string, unknown>>,
  idParameter: string | undefined,
  status: number,
) {
  if (is2xx(status)) return [];
  return [
    lifecycleFinding(
      'ensure_resource_availability',
      create,
      `${create} answered 2xx, and ${read} on ${described(path, idParameter)} it made answered ${status}, expected 2xx`,
      { expected: '2xx', actual: status },
    ),
  ];
}
