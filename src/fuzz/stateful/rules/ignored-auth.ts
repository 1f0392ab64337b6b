// ignored_auth on the walk: every secured operation of a resource (OpenAPI 3.1 §4.8.30 Security Requirement Object:
// every alternative needs a credential) is sent once with no credential, on an instance the run created, before
// the credentialed call that would change it. Answered 2xx, the key is not enforced. The executor judges the
// answer (fuzz-checks.ts ignoredAuth); this file only plans which operations the walk probes.
import type { LifecycleRule } from '../lifecycle-rule.js';

export const ignoredAuthOnInstances: LifecycleRule = {
  name: 'ignored_auth',
  statement:
    'Every secured operation of a resource, sent without any credential on an instance the run created, answers no 2xx.',
  plan: ({ resource, operations, unaddressable }) =>
    [
      resource.create,
      resource.read,
      resource.update,
      resource.replace,
      resource.list,
      resource.actions,
      resource.delete,
    ]
      .flat()
      .filter((operationId, index, all) => all.indexOf(operationId) === index && operations.get(operationId)?.secured)
      .map((operationId) => ({
        operationId,
        ...(unaddressable && !resource.create.includes(operationId) && !resource.list.includes(operationId)
          ? { missing: unaddressable }
          : {}),
      })),
};
