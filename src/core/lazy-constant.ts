// A value that never changes but costs something to make (a file of this package read and parsed): made on first
// use, not at import, and the same value after. Not a cache of anything a caller can change: what `make` reads
// must be fixed for the life of the process (the package's own files).

/** `make()`, called once, on the first call of the function returned. */
export function lazyConstant<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}
