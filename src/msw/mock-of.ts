// A loaded spec and the handlers' options made into what the handlers need: the engine and the base URLs.
import { specFromDocument } from '../core/document-spec.js';
import type { LoadedSpec } from '../core/load-spec.js';
import { baseUrls } from './base-urls.js';
import type { LoadedMock } from './create-handlers.js';
import { makeEngine } from './mock-engine.js';

export interface HandlersOptions {
  /**
   * The URL (or URLs) whose requests the handlers answer, with any path under it: `http://api.test`,
   * `https://example.com/v1`, or in a browser `/api` (the page's origin). Default: the spec's `servers`.
   */
  baseUrl?: string | readonly string[];
}

export function mockOf(spec: LoadedSpec, options: HandlersOptions): LoadedMock {
  return { engine: makeEngine(spec), bases: baseUrls(options.baseUrl, spec.document) };
}

/** The mock of a document already parsed (a browser's: `import spec from './openapi.json'`). */
export function documentMock(document: object, options: HandlersOptions): LoadedMock {
  return mockOf(specFromDocument('the spec document given to handlers()', document), options);
}
