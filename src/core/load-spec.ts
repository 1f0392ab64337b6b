// Loads an OpenAPI 3.1 document (https://spec.openapis.org/oas/v3.1.0#openapi-document), or a 3.0 one upgraded
// to 3.1 in memory (upgrade-openapi-30.ts), or a Swagger 2.0 one converted to 3.0 first (swagger2/): the core's only
// I/O.
import path from 'node:path';
import { LineCounter, parseDocument, visit, type Document } from 'yaml';
import { checkRefs, finishSpec, refuseUnsupportedVersion } from './document-spec.js';
import { ContractsError } from './errors.js';
import { fastYamlData } from './fast-yaml.js';
import { findDuplicateKey } from './json-duplicate-keys.js';
import { isLiteral } from './literal-values.js';
import { cachedParse, rememberParse } from './parse-cache.js';
import { defaultMaxSpecFileBytes, readBounded } from './read-bounded.js';
import { bundleRefs, fileSystem, type RefPolicy, type RefSource } from './resolve-refs.js';
import { createLocator, resolvePointer, type JsonPath, type Locate } from './source-locator.js';

export { resolvePointer };
import { upgradeOpenApi30, type SourcePath } from './upgrade-openapi-30.js';
import { maxNestingDepth, refuseTooDeep } from './nesting-depth.js';
import { convertSwagger2, isSwagger2 } from './swagger2/convert-swagger2.js';

export interface OpenApiDocument {
  openapi: string;
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

export interface LoadedSpec {
  /** The path as the user gave it (used in messages). */
  file: string;
  source: string;
  /** Always OpenAPI 3.1: a 3.0 document is upgraded in memory, a 2.0 one converted to 3.0 and upgraded. */
  document: OpenApiDocument;
  /** The `openapi` field as the user wrote it (`3.0.3`, `3.1.0`), or `2.0` for a Swagger 2.0 document. */
  sourceVersion: string;
  /** The document as the user wrote it (the same object as `document` for 3.1), located by `locateSource`. */
  sourceDocument: Record<string, unknown>;
  /** Whether other files were bundled into `sourceDocument` (then it is not the root file's text alone). */
  bundled: boolean;
  locateSource: Locate;
  /** Line and column in the user's file of a path in `document`. */
  locate: Locate;
  /** The path in the user's file of a path in `document` (they differ only under a schema the upgrade wrapped). */
  sourcePath: SourcePath;
}

let defaultPolicy: RefPolicy = { roots: [], maxFileBytes: defaultMaxSpecFileBytes };

/** What every later loadSpec may read by default: the config's `refs` (extra roots, the size bound). */
export function setRefPolicy(policy: Partial<RefPolicy>): void {
  defaultPolicy = { roots: policy.roots ?? [], maxFileBytes: policy.maxFileBytes ?? defaultMaxSpecFileBytes };
}

/**
 * How a spec is read: what its `$ref`s may read (RefPolicy), and `strictYaml`, for a command that judges the spec
 * (lint): its YAML read by yaml alone, every syntax error reported, as the fast path (fast-yaml.ts) would let a few
 * pass that js-yaml reads and yaml refuses.
 */
export type LoadOptions = Partial<RefPolicy> & { strictYaml?: boolean };

/**
 * Reads, parses and sanity-checks a spec. Every failure is a ContractsError with one clear line. Files its `$ref`s
 * name are read by the one resolver (resolve-refs.ts), within `policy`.
 */
export async function loadSpec(file: string, displayFile = file, policy: LoadOptions = {}): Promise<LoadedSpec> {
  const limits = { ...defaultPolicy, ...policy };
  let read: Awaited<ReturnType<typeof readBounded>>;
  try {
    read = await readBounded(file, limits.maxFileBytes, false);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ContractsError('SPEC_NOT_FOUND', `spec not found: ${displayFile}`);
    throw new ContractsError('SPEC_NOT_READABLE', `cannot read spec ${displayFile}: ${code ?? String(error)}`);
  }
  if ('refused' in read) throw new ContractsError('SPEC_NOT_READABLE', `spec ${displayFile} ${read.refused}`);
  return loadSpecText(file, displayFile, read.text, fileSystem, limits);
}

/**
 * A spec whose text is in hand (read already, or shown from git), with the files its `$ref`s name read from
 * `refSource` (the file system, or the same git commit) under the same rules.
 */
export async function loadSpecText(
  file: string,
  displayFile: string,
  source: string,
  refSource: RefSource,
  policy: LoadOptions = {},
): Promise<LoadedSpec> {
  const limits = { ...defaultPolicy, ...policy };
  const parsed = parseSource(displayFile, source, policy.strictYaml === true);
  // Multi-file specs: bundled into one document, each file read from its real path (references are relative to it).
  const record = hasExternalRef(parsed.record)
    ? await bundleRefs(file, parsed.record, parsed.at, limits, refSource)
    : parsed.record;
  // Files a $ref brought in nest too: the bundle is measured again, located in the root file at its $ref.
  if (record !== parsed.record) refuseTooDeep(displayFile, record, parsed.locateInSource);
  const loaded = isSwagger2(record)
    ? await finishSwagger2(displayFile, source, record, parsed.locateInSource)
    : finish(displayFile, source, record, parsed.locateInSource);
  return { ...loaded, bundled: record !== parsed.record };
}

/**
 * A JSON spec (a big generated one above all, like GitHub's 13 MB description) is parsed with JSON.parse, and the
 * YAML model that maps paths to lines is built only when a message needs a line: building it costs some 50 times
 * the parse. Text that is not plain JSON (a syntax error, a duplicate key) goes the YAML way, which says where.
 */
function parseJsonFast(source: string): { locateInSource: Locate; document: unknown } | undefined {
  if (!/^\s*\{/.test(source)) return undefined;
  let document: unknown;
  try {
    document = JSON.parse(source);
  } catch {
    return undefined;
  }
  if (findDuplicateKey(source, document) !== undefined) return undefined;
  return { locateInSource: lazyLocator(source), document };
}

/** Lines of a text already known to parse, from a YAML model built on the first question. */
function lazyLocator(source: string): Locate {
  let locate: Locate | undefined;
  return (p) => {
    if (!locate) {
      const lineCounter = new LineCounter();
      locate = createLocator(parseDocument(source, { lineCounter, prettyErrors: false }), lineCounter);
    }
    return locate(p);
  };
}

/**
 * YAML: the data it parsed to before (parse-cache.ts), else parsed, by the fast path when it vouches for the text
 * and `strict` is off (fast-yaml.ts), else by yaml, and kept for next time (strict reads apart).
 */
function parseYaml(file: string, source: string, strict: boolean): { locateInSource: Locate; document: unknown } {
  const cached = cachedParse(source, strict);
  if (cached !== undefined) return { locateInSource: lazyLocator(source), document: cached };
  const fast = strict ? undefined : fastYamlData(source);
  if (fast !== undefined) {
    // The fast path reads no text with an anchor or an alias.
    rememberParse(source, fast, () => false);
    return { locateInSource: lazyLocator(source), document: fast };
  }
  const lineCounter = new LineCounter();
  const yamlDoc = parseDocument(source, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const firstError = yamlDoc.errors[0];
  if (firstError) {
    const pos = lineCounter.linePos(firstError.pos[0]);
    // yaml's composer recurses: nesting it cannot follow is said as such (nesting-depth.ts bounds what is read).
    const message = /call stack/i.test(firstError.message)
      ? `nesting too deep to parse: no command reads a spec nested deeper than ${maxNestingDepth} levels`
      : `not valid YAML or JSON: ${firstError.message.split('\n')[0]}`;
    throw new ContractsError('SPEC_NOT_YAML', message, {
      file,
      line: pos.line,
      column: pos.col,
    });
  }
  const document = toData(file, yamlDoc, lineCounter);
  rememberParse(source, document, () => source.includes('*') && hasAlias(yamlDoc), strict);
  return { locateInSource: createLocator(yamlDoc, lineCounter), document };
}

function hasAlias(yamlDoc: Document): boolean {
  let found = false;
  visit(yamlDoc, {
    Alias() {
      found = true;
      return visit.BREAK;
    },
  });
  return found;
}

function finish(file: string, source: string, record: Record<string, unknown>, locateInSource: Locate): LoadedSpec {
  return finishSpec(file, source, record, locateInSource, (p: JsonPath) => ({ file, ...locateInSource(p) }));
}

/** A spec from its text alone (e.g. a version from git): a `$ref` to another file cannot be followed. */
export function parseSpec(file: string, source: string): LoadedSpec {
  const parsed = parseSource(file, source, false);
  if (isSwagger2(parsed.record))
    throw new ContractsError('SPEC_NOT_OPENAPI_31', 'a Swagger 2.0 document is read from a file', parsed.at([]));
  return finish(file, source, parsed.record, parsed.locateInSource);
}

function parseSource(file: string, source: string, strictYaml: boolean) {
  const json = parseJsonFast(source);
  const { locateInSource, document } = json ?? parseYaml(file, source, strictYaml);
  const at = (p: JsonPath) => ({ file, ...locateInSource(p) });
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    throw new ContractsError(
      'SPEC_NOT_OPENAPI_31',
      `not an OpenAPI document: ${path.basename(file)} holds no mapping at the top`,
      at([]),
    );
  }
  // Before any recursive walk (hasExternalRef, the bundler, checkRefs, every command's own).
  refuseTooDeep(file, document, locateInSource);
  const record = document as Record<string, unknown>;
  if (isSwagger2(record) && record.openapi === undefined) return { record, locateInSource, at };
  refuseUnsupportedVersion(record, at);
  return { record, locateInSource, at };
}

/**
 * Swagger 2.0: its `$ref`s checked where the user wrote them, then converted to 3.0 (swagger2/) and upgraded to 3.1;
 * a path of the 3.1 document is mapped back through both steps to the 2.0 node it came from.
 */
async function finishSwagger2(
  file: string,
  source: string,
  record: Record<string, unknown>,
  locateInSource: Locate,
): Promise<LoadedSpec> {
  const at = (p: JsonPath) => ({ file, ...locateInSource(p) });
  checkRefs(record, [], (refPath, ref, reason) => {
    throw new ContractsError('SPEC_BROKEN_REF', `$ref "${ref}" ${reason}`, at([...refPath, '$ref']));
  });
  const converted = await convertSwagger2(record, at);
  const upgraded = upgradeOpenApi30(converted.document);
  const sourcePath: SourcePath = (p) => converted.sourcePath(upgraded.sourcePath(p));
  return {
    file,
    source,
    document: upgraded.document as OpenApiDocument,
    sourceVersion: '2.0',
    sourceDocument: record,
    bundled: false,
    locateSource: locateInSource,
    locate: (p) => locateInSource(sourcePath(p)),
    sourcePath,
  };
}

// An alias may be expanded at most this many times: a few aliases nesting each other ("billion laughs")
// would otherwise expand to billions of nodes.
const maxAliasCount = 100;

function toData(file: string, yamlDoc: Document.Parsed, lineCounter: LineCounter): unknown {
  try {
    return yamlDoc.toJS({ maxAliasCount });
  } catch (error) {
    // yaml throws a ReferenceError ("Excessive alias count…") when the limit is passed.
    if (!(error instanceof ReferenceError) || !/alias/i.test(error.message)) throw error;
    let offset = 0;
    visit(yamlDoc, {
      Alias(_key, node) {
        offset = node.range?.[0] ?? 0;
        return visit.BREAK;
      },
    });
    const pos = lineCounter.linePos(offset);
    throw new ContractsError(
      'SPEC_NOT_YAML',
      'YAML aliases (*name) expand too far: refusing the document (an alias bomb?)',
      { file, line: pos.line, column: pos.col },
    );
  }
}

/** Whether any `$ref` outside literal data names another file. */
function hasExternalRef(document: unknown): boolean {
  let found = false;
  const walk = (value: unknown, at: (string | number)[]): void => {
    if (found || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, [...at, index]));
      return;
    }
    const object = value as Record<string, unknown>;
    if (typeof object.$ref === 'string' && !object.$ref.startsWith('#')) found = true;
    for (const [key, child] of Object.entries(object)) if (!isLiteral(key, child, at)) walk(child, [...at, key]);
  };
  walk(document, []);
  return found;
}
