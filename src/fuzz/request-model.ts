// The request model moved to the core (src/core/request-model.ts), where request conformance uses it too; the
// fuzzer's imports keep working through this re-export.
export * from '../core/request-model.js';
