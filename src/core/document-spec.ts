// A parsed OpenAPI document made a LoadedSpec: the checks every spec passes whatever its source (OpenAPI 3.1
// section 4.1: the `openapi` field names the version; section 4.8.23: a Reference Object's `$ref` resolves), a 3.0
// document upgraded in memory. No file system here: load-spec.ts reads and parses text and calls this, and an
// already-parsed document (a browser's, contracts-kit/msw) comes here directly.
import { ContractsError, type SourceLocation } from './errors.js';
import { isLiteral } from './literal-values.js';
import type { LoadedSpec, OpenApiDocument } from './load-spec.js';
import { refuseTooDeep } from './nesting-depth.js';
import { resolvePointer, type JsonPath, type Locate } from './source-locator.js';
import { isOpenApi32 } from './oas32/openapi-32.js';
import { isOpenApi30, upgradeOpenApi30 } from './upgrade-openapi-30.js';

type At = (path: JsonPath) => SourceLocation | undefined;

/**
 * A `swagger` other than 2.0, or an `openapi` other than 3.0.x, 3.1.x or 3.2.x, refused in one line (3.2 is read as
 * written: its Schema Objects are 3.1's, and oas32/ says what else it adds). Swagger 2.0 is read
 * from a file (load-spec.ts converts it before it comes here); as a document object it is refused too.
 */
export function refuseUnsupportedVersion(record: Record<string, unknown>, at: At): void {
  if (typeof record.swagger === 'string' || typeof record.swagger === 'number') {
    throw new ContractsError(
      'SPEC_NOT_OPENAPI_31',
      record.swagger === '2.0' || record.swagger === 2
        ? 'a Swagger 2.0 document is read from a file: give its path'
        : `only Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2 are supported, found swagger: ${String(record.swagger)}`,
      at(['swagger']),
    );
  }
  const version = record.openapi;
  if (typeof version !== 'string' || !(/^3\.1\.\d+$/.test(version) || isOpenApi30(version) || isOpenApi32(version))) {
    const found = version === undefined ? 'no openapi field' : `openapi: ${String(version)}`;
    throw new ContractsError(
      'SPEC_NOT_OPENAPI_31',
      `only OpenAPI 3.0, 3.1 and 3.2 are supported, found ${found}`,
      at(['openapi']),
    );
  }
}

/** The spec of a record that passed refuseUnsupportedVersion: its `$ref`s checked, a 3.0 document upgraded. */
export function finishSpec(
  file: string,
  source: string,
  record: Record<string, unknown>,
  locateInSource: Locate,
  at: At,
): LoadedSpec {
  const version = record.openapi as string;
  checkRefs(record, [], (refPath, ref, reason) => {
    throw new ContractsError('SPEC_BROKEN_REF', `$ref "${ref}" ${reason}`, at([...refPath, '$ref']));
  });
  const upgraded = isOpenApi30(version)
    ? upgradeOpenApi30(record)
    : { document: record, sourcePath: (p: JsonPath) => p };
  return {
    file,
    source,
    document: upgraded.document as OpenApiDocument,
    sourceVersion: version,
    sourceDocument: record,
    bundled: false,
    locateSource: locateInSource,
    locate: (p) => locateInSource(upgraded.sourcePath(p)),
    sourcePath: upgraded.sourcePath,
  };
}

/** A document the caller parsed has no lines to point at. */
const noLines: Locate = () => ({ line: 0, column: 0 });

/**
 * The spec of a document already parsed (an object, not text), named `name` in messages. It is copied through JSON
 * (what a spec file can hold; the caller's object is never shared or changed), after the nesting bound, which
 * JSON.stringify would otherwise meet as a stack overflow.
 */
export function specFromDocument(name: string, document: unknown): LoadedSpec {
  if (document === null || typeof document !== 'object' || Array.isArray(document))
    throw new ContractsError('SPEC_NOT_OPENAPI_31', `not an OpenAPI document: ${name} is not an object`);
  refuseTooDeep(name, document, noLines);
  const source = JSON.stringify(document);
  const record = JSON.parse(source) as Record<string, unknown>;
  const at = () => undefined;
  refuseUnsupportedVersion(record, at);
  return finishSpec(name, source, record, noLines, at);
}

export function checkRefs(
  root: Record<string, unknown>,
  here: JsonPath,
  fail: (path: JsonPath, ref: string, reason: string) => never,
): void {
  const walk = (value: unknown, at: (string | number)[]): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, [...at, index]));
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const object = value as Record<string, unknown>;
    const ref = object.$ref;
    if (typeof ref === 'string') {
      if (!ref.startsWith('#')) fail(at, ref, 'points outside this file: bundle the spec into one file');
      if (resolvePointer(root, ref) === undefined) fail(at, ref, 'does not resolve: nothing at that pointer');
    }
    for (const [key, child] of Object.entries(object)) if (!isLiteral(key, child, at)) walk(child, [...at, key]);
  };
  walk(root, [...here]);
}
