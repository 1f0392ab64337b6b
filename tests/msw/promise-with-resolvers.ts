// msw 3 declares Node >= 22.12 (its package.json engines) and its interceptors call Promise.withResolvers (ES2024,
// Node 22); this project runs on Node >= 20.19. The tests give Node 20 the method, as a user on Node 20 would need
// to; on Node 22 this does nothing.
const withResolvers = <T>() => {
  let resolve!: (value: T | PromiseLike<T>) => void;
  let reject!: (reason?: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
};

(Promise as { withResolvers?: unknown }).withResolvers ??= withResolvers;
