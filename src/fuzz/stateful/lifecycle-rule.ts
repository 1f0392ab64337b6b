// A lifecycle rule of the stateful walk, as data: its check name, the operations of a resource it is judged on, and,
// per operation, the precondition the spec leaves unmet (with what the user can do about it). Each rule's judge is
// a pure function in its own file (rules/), on the requests and answers the walk made; the walk (walk.ts) calls it.
import type { CheckName, Finding } from '../../core/finding.js';
import type { ModelOperation, Resource } from '../../core/resource-model/types.js';

export type LifecycleCheck = Extract<
  CheckName,
  | 'ensure_resource_availability'
  | 'use_after_free'
  | 'read_after_write'
  | 'listed_after_create'
  | 'paging_consistent'
  | 'conflict_documented'
  | 'ignored_auth'
>;

/** An operation a rule is judged on, and why it cannot be (undefined: nothing missing in the spec). */
export interface PlannedRule {
  operationId: string;
  missing?: string;
}

/** What a rule plans from: one resource, and the model's operations by operationId. */
export interface RulePlanContext {
  resource: Resource;
  operations: ReadonlyMap<string, ModelOperation>;
  /** Why an instance of the resource cannot be created and addressed, if so (walk-needs.ts). */
  unaddressable: string | undefined;
}

export interface LifecycleRule {
  name: LifecycleCheck;
  /** The rule in one sentence, with the section of the spec it rests on (printed by the docs). */
  statement: string;
  plan(context: RulePlanContext): PlannedRule[];
}

export function lifecycleFinding(
  check: LifecycleCheck,
  operation: string,
  message: string,
  extra: Partial<Finding> = {},
): Finding {
  return { check, severity: 'error', operation, instancePath: '', message, ...extra };
}

/** The instance a finding is about, as its path values print: `customer_id "cus_1"`. */
export function described(path: Readonly<Record<string, unknown>>, parameter: string | undefined): string {
  const value = parameter === undefined ? undefined : path[parameter];
  return parameter === undefined || value === undefined ? 'the instance' : `${parameter} ${JSON.stringify(value)}`;
}

export const is2xx = (status: number): boolean => status >= 200 && status < 300;
