// Items of a list that were not in an earlier reading of it (by id): what an action produced.
import { idOf, objectsOf } from './ids.js';

export function newItems(before: unknown, after: unknown): Record<string, unknown>[] {
  const known = new Set(objectsOf(before).map((item) => idOf(item)));
  return objectsOf(after).filter((item) => idOf(item) === undefined || !known.has(idOf(item)));
}
