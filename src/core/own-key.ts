// Tables indexed by names a spec, a target or a capture chose (properties, paths, status codes, media types,
// component, scheme, parameter and header names). On a plain object, `table[name]` reads an inherited member for
// `constructor`, `toString` or `isPrototypeOf`, and `table[name] = value` sets the prototype for `__proto__`: a spec
// naming a property so ended lint, validate and fuzz in "internal error". These read and write own keys only.

/** The value `table` holds under its own key `key`, or undefined (never an inherited member). */
export function ownValue<T>(table: Readonly<Record<string, T>> | null | undefined, key: string): T | undefined {
  return table !== null && typeof table === 'object' && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Sets `table[key]` as an own, enumerable property, `__proto__` included. */
export function setOwn<T>(table: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(table, key, { value, enumerable: true, writable: true, configurable: true });
}
