// msw 3 calls Promise.withResolvers (Node 22); contracts-kit/msw gives Node 20 the method (src/msw/node-20.ts).
// Tests that import msw before contracts-kit/msw get it here first, from the same module.
import '../../src/msw/node-20.js';
