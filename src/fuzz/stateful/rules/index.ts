// The lifecycle rules of the stateful walk, one entry per rule (each in its own file): what a run plans and says.
import type { LifecycleRule } from '../lifecycle-rule.js';
import { conflictDocumented } from './conflict-documented.js';
import { ensureResourceAvailability } from './ensure-resource-availability.js';
import { ignoredAuthOnInstances } from './ignored-auth.js';
import { listedAfterCreate } from './listed-after-create.js';
import { pagingConsistent } from './paging-consistent.js';
import { readAfterWrite } from './read-after-write.js';
import { useAfterFree } from './use-after-free.js';

export const lifecycleRules: readonly LifecycleRule[] = [
  ensureResourceAvailability,
  readAfterWrite,
  listedAfterCreate,
  pagingConsistent,
  conflictDocumented,
  ignoredAuthOnInstances,
  useAfterFree,
];
