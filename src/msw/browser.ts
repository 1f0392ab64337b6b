// contracts-kit/msw in a browser (package.json's "browser" condition): handlers(document, options) for msw's
// setupWorker. No file system here, so the spec is the parsed document (`import spec from './openapi.json'`); this
// entry's imports reach no Node module (tests/msw/browser.test.ts bundles it for platform=browser). re2js, which the
// core loads with require in Node (pattern-engine.ts), is imported here and handed in.
import { RE2JS } from 're2js';
import { ContractsError } from '../core/errors.js';
import { provideRe2js } from '../core/pattern-engine.js';
import { createHandlers, type ContractsHandlers } from './create-handlers.js';
import { documentMock, type HandlersOptions } from './mock-of.js';

export type { ContractsHandlers } from './create-handlers.js';
export type { HandlersOptions } from './mock-of.js';

/** As handlers.ts's, for a document object. */
export function handlers(spec: object, options: HandlersOptions = {}): ContractsHandlers {
  if (typeof spec === 'string')
    throw new ContractsError(
      'USAGE',
      'contracts-kit/msw: in a browser, give handlers() the parsed spec document (import spec from "./openapi.json"), not a path',
    );
  provideRe2js(RE2JS);
  return createHandlers(Promise.resolve(documentMock(spec, options)));
}
