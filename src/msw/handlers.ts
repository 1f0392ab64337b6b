// contracts-kit/msw in Node: handlers(spec, options) for msw's setupServer, answered by our mock engine. `spec` is a
// path to the spec file (read as every command reads one, load-spec.ts) or the parsed document. The browser has its
// own entry (browser.ts, package.json's "browser" condition), which takes a document only.
import './node-20.js';
import { loadSpec } from '../core/load-spec.js';
import { createHandlers, type ContractsHandlers } from './create-handlers.js';
import { documentMock, mockOf, type HandlersOptions } from './mock-of.js';

export type { ContractsHandlers } from './create-handlers.js';
export type { HandlersOptions } from './mock-of.js';

/**
 * msw request handlers that answer every request under the base URLs (`options.baseUrl`, else the spec's servers)
 * as the spec documents: a documented answer, or the documented 4xx for a request the spec refuses. A document is
 * checked here (a bad one throws, one line); a file is read in the background, and a failure fails each request
 * the handlers would have answered, with the same line.
 */
export function handlers(spec: string | object, options: HandlersOptions = {}): ContractsHandlers {
  if (typeof spec === 'string') return createHandlers(loadSpec(spec).then((loaded) => mockOf(loaded, options)));
  return createHandlers(Promise.resolve(documentMock(spec, options)));
}
