// Reads a Swagger 2.0 document (https://swagger.io/specification/v2/) as the OpenAPI 3.0 document it describes, with
// swagger2openapi (Mermade's oas-kit: the converter Swagger Editor's successors, Redocly and APIs.guru use), so every
// command works on the one 3.x model. The converter is given a document our loader already read and bundled: every
// `$ref` is local, and it is told to resolve nothing itself (no file, no URL).
import { ContractsError, type SourceLocation } from '../errors.js';
import type { JsonPath } from '../source-locator.js';
import { firstLossyCollectionFormat, lossyMessage } from './lossy-collection-formats.js';
import { requireFormBodies } from './required-form-bodies.js';
import { swagger2SourcePath } from './swagger2-source-path.js';

export interface Converted {
  /** The OpenAPI 3.0 document. */
  document: Record<string, unknown>;
  /** Maps a path of `document` to the path of the construct in the 2.0 document it came from. */
  sourcePath: (path: JsonPath) => JsonPath;
}

export function isSwagger2(record: Record<string, unknown>): boolean {
  return record.swagger === '2.0' || record.swagger === 2;
}

/**
 * Options, chosen so the converter reads nothing and refuses nothing our lint would rather report:
 * - `resolve: false`: external `$ref`s were bundled by our resolver (resolve-refs.ts) within its policy; the
 *   converter's own resolver would fetch URLs and read files.
 * - `patch: true`: mistakes the converter can mend without guessing (a response without `description`, a path
 *   parameter without `required: true`, which 2.0 demands anyway) are mended, so a description teams use is read;
 *   lint still reports them, on the 2.0 file (Spectral's oas2 rules, swagger-parser).
 * - `warnOnly: false`: what cannot be converted faithfully (`collectionFormat: tsv`, a `$ref` to nothing) stops the
 *   load with one line, rather than leaving a parameter read in a way the server does not mean.
 * - `direct: true`: the converted document itself, not the converter's options record.
 * - `anchors: true`: an object a YAML alias shares is copied, not refused.
 */
const options = { resolve: false, patch: true, warnOnly: false, direct: true, anchors: true } as const;

export async function convertSwagger2(
  record: Record<string, unknown>,
  at: (path: JsonPath) => SourceLocation,
): Promise<Converted> {
  const lossy = firstLossyCollectionFormat(record);
  if (lossy !== undefined) throw new ContractsError('SPEC_NOT_OPENAPI_31', lossyMessage(lossy), at(lossy.path));
  let document: Record<string, unknown>;
  try {
    // The converter changes what it is given (it copies objects a YAML alias shares): it gets a copy.
    // `swagger: 2.0` unquoted is the number 2 in YAML; the converter compares strings.
    const copy = { ...structuredClone(record), swagger: '2.0' };
    // Loaded here, for a 2.0 document only: the converter and what it requires (an HTTP/2 client, a second YAML
    // parser) were a seventh of every command's start-up, 3.x specs included.
    const { default: swagger2openapi } = await import('swagger2openapi');
    document = (await swagger2openapi.convertObj(copy as never, { ...options })) as never;
  } catch (error) {
    throw conversionError(error, at);
  }
  requireFormBodies(record, document);
  return { document, sourcePath: swagger2SourcePath(record, document) };
}

/** The converter's message in one line, at the 2.0 node it names when it names one. */
function conversionError(error: unknown, at: (path: JsonPath) => SourceLocation): ContractsError {
  const message = String((error as Error)?.message ?? error)
    .split('\n')[0]!
    .replace(/^\(Patchable\) /, '');
  return new ContractsError(
    'SPEC_NOT_OPENAPI_31',
    `this Swagger 2.0 document cannot be read as OpenAPI 3: ${message}`,
    at(pathNamed(message)),
  );
}

/** `… at #/paths/~1a/get` or `… [name in /paths/…]`: the path a converter message names, else the root. */
function pathNamed(message: string): JsonPath {
  const pointer = /(#?\/[^\s\]]*)/.exec(message)?.[1];
  if (pointer === undefined) return [];
  return pointer
    .replace(/^#/, '')
    .split('/')
    .slice(1)
    .map((step) => step.replace(/~1/g, '/').replace(/~0/g, '~'));
}
