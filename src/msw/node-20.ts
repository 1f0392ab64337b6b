// msw 3 declares Node >= 22.12 (its engines) and its interceptors call Promise.withResolvers (ES2024, Node 22);
// contracts-kit supports Node >= 20.19. Importing contracts-kit/msw gives Node 20 the method, only where it is
// missing, so a user's test on Node 20 runs as on 22 (without it: "fetch failed: Promise.withResolvers is not a
// function" on the first request). On Node 22 and in browsers this does nothing.
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
