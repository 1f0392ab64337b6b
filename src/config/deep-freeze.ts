// Freezes a value and everything it holds, so a Project read once cannot be changed by what it is passed to.

/** `value`, frozen all the way down (objects, arrays, functions' own properties are left as they are). */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  return value;
}
