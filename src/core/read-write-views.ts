// What `required` means for a property marked readOnly or writeOnly, per direction, as two views of one document.
//
// OpenAPI 3.0.3 §4.7.24.1 (Schema Object fixed fields, https://spec.openapis.org/oas/v3.0.3#fixed-fields-19): "If the
// property is marked as readOnly being true and is in the required list, the required will take effect on the
// response only"; for writeOnly, "on the request only". OpenAPI 3.1.1 §4.8.24.3.2 ("Validating readOnly and
// writeOnly", https://spec.openapis.org/oas/v3.1.1#validating-readonly-and-writeonly) makes them annotations whose
// validation "MAY be done by checking the annotation, the read or write direction": it no longer prescribes the 3.0
// relaxation, nor forbids it. We take it in both versions, so a request without a required readOnly `id` (or a
// response without a required writeOnly `password`) is never called wrong: only 3.0 ever required that reading, and
// in 3.1 the direction is the tool's to weigh.
//
// The views are decided once per loaded spec: a document with no marked property that some `required` names has no
// views, and everything compiles from the spec itself, as before. Otherwise the request view is the document with
// readOnly names left out of `required` lists, the response view with writeOnly ones left out. Only those lists
// change (and the objects above them are copied, the rest shared): every schema path stays where the user wrote it.
import type { LoadedSpec } from './load-spec.js';
import { setOwn } from './own-key.js';
import { carriesMark, markedNames, type DirectionMark } from './read-write-marks.js';
import { rootSchemaSites, subschemaSites, type SchemaSite } from './schema-sites.js';
import type { JsonPath } from './source-locator.js';

export interface DirectionViews {
  /** The spec as a request is judged: readOnly properties are not required. */
  request: LoadedSpec;
  /** The spec as a response is judged: writeOnly properties are not required. */
  response: LoadedSpec;
}

/** One change to a copy of the document: a value set at a path, or the key at the path removed. */
interface Edit {
  path: JsonPath;
  value?: unknown;
  remove?: true;
}

const known = new WeakMap<LoadedSpec, { views: DirectionViews | undefined; generation?: LoadedSpec }>();

/** The spec's two views, or undefined when no marked property is required anywhere (then the spec serves both). */
export function directionViews(spec: LoadedSpec): DirectionViews | undefined {
  let entry = known.get(spec);
  if (!entry) known.set(spec, (entry = { views: buildViews(spec) }));
  return entry.views;
}

/** The spec requests are judged against. */
export function requestSpec(spec: LoadedSpec): LoadedSpec {
  return directionViews(spec)?.request ?? spec;
}

/** The spec responses are judged against. */
export function responseSpec(spec: LoadedSpec): LoadedSpec {
  return directionViews(spec)?.response ?? spec;
}

/**
 * The spec requests are generated from: the request view without its readOnly properties at all. OpenAPI 3.0.3
 * §4.7.24.1 says they SHOULD NOT be sent in a request; in 3.1, JSON Schema 2020-12 Validation §9.4 says "attempts by
 * an application to modify the value of this property are expected to be ignored or rejected by that owning
 * authority". Either answer conforms, so no case may hinge on one: a positive carrying one may be refused, and a
 * negative whose fault lies in one may be ignored. Generation only: a request that carries one is still judged by the
 * request view, where it is declared.
 */
export function generationSpec(spec: LoadedSpec): LoadedSpec {
  const request = requestSpec(spec);
  if (!mayMark(spec)) return request;
  const entry = known.get(spec)!;
  if (!entry.generation) {
    const edits = siteEdits(spec.document, ['readOnly'], true).get('readOnly')!;
    entry.generation = edits.length === 0 ? request : { ...spec, document: edited(spec.document, edits) };
  }
  return entry.generation;
}

/**
 * Whether the document may mark a property at all: the word is in its text (or the text spells keys with `\u`
 * escapes, or other files were bundled in). A spec without it, most of them, costs one scan of its text.
 */
export function mayMark(spec: LoadedSpec): boolean {
  return spec.bundled || /readOnly|writeOnly|\\u/.test(spec.source);
}

function buildViews(spec: LoadedSpec): DirectionViews | undefined {
  if (!mayMark(spec)) return undefined;
  const edits = siteEdits(spec.document, ['readOnly', 'writeOnly'], false);
  const readOnly = edits.get('readOnly')!;
  const writeOnly = edits.get('writeOnly')!;
  if (readOnly.length === 0 && writeOnly.length === 0) return undefined;
  const view = (edits: Edit[]): LoadedSpec =>
    edits.length === 0 ? spec : { ...spec, document: edited(spec.document, edits) as LoadedSpec['document'] };
  return { request: view(readOnly), response: view(writeOnly) };
}

/**
 * Per mark, the edits that leave the marked names out of every `required` list (and, with `dropProperties`, out of
 * every `properties` map). A `required` list in an allOf member also drops names its siblings mark: they describe the
 * same object. (A component reached by `$ref` is judged on its own: changing it would change every use of it.) One
 * walk of the document serves every mark asked.
 */
function siteEdits(document: unknown, marks: DirectionMark[], dropProperties: boolean): Map<DirectionMark, Edit[]> {
  const edits = new Map(marks.map((mark) => [mark, [] as Edit[]]));
  const removals = new Map(marks.map((mark) => [mark, [] as Edit[]]));
  for (const root of rootSchemaSites(document)) {
    const sites = subschemaSites(root);
    // Built only for a root with an allOf member to look above (most have none).
    let byPath: Map<string, SchemaSite> | undefined;
    const siteAt = (path: JsonPath) =>
      (byPath ??= new Map(sites.map((site) => [JSON.stringify(site.path), site]))).get(JSON.stringify(path));
    for (const site of sites) {
      if (typeof site.schema === 'boolean') continue;
      const required = site.schema.required;
      const hasProperties = dropProperties && isRecord(site.schema.properties);
      if (!(Array.isArray(required) && required.length > 0) && !hasProperties) continue;
      for (const mark of marks) {
        const names = namesInScope(document, site, siteAt, mark);
        if (names.size === 0) continue;
        if (Array.isArray(required) && required.some((name) => names.has(name as string)))
          edits.get(mark)!.push({
            path: [...site.path, 'required'],
            value: required.filter((name) => !names.has(name as string)),
          });
        if (hasProperties)
          for (const [name, property] of Object.entries(site.schema.properties as Record<string, unknown>))
            if (carriesMark(document, property, mark))
              removals.get(mark)!.push({ path: [...site.path, 'properties', name], remove: true });
      }
    }
  }
  // Last, so no edit below a removed property finds it gone.
  for (const mark of marks) edits.get(mark)!.push(...removals.get(mark)!);
  return edits;
}

/** The names marked in a schema and, when it is an allOf member, in the schemas it is a member of. */
function namesInScope(
  document: unknown,
  site: SchemaSite,
  siteAt: (path: JsonPath) => SchemaSite | undefined,
  mark: DirectionMark,
): Set<string> {
  const names = markedNames(document, site.schema, mark);
  let path = site.path;
  while (path.length >= 2 && path[path.length - 2] === 'allOf') {
    path = path.slice(0, -2);
    const parent = siteAt(path);
    if (!parent) break;
    for (const name of markedNames(document, parent.schema, mark)) names.add(name);
  }
  return names;
}

/** A copy of `document` with the edits made: only the objects on the way to an edit are copied. */
function edited<T extends object>(document: T, edits: Edit[]): T {
  const root = { ...document } as Record<string, unknown>;
  const copies = new Map<string, Record<string, unknown>>([['', root]]);
  for (const edit of edits) {
    let node = root;
    let key = '';
    for (const step of edit.path.slice(0, -1)) {
      key += `/${String(step).replace(/~/g, '~0').replace(/\//g, '~1')}`;
      let copy = copies.get(key);
      if (!copy) {
        const child = node[step as string];
        copy = (Array.isArray(child) ? [...child] : { ...(child as object) }) as Record<string, unknown>;
        setOwn(node, String(step), copy as unknown);
        copies.set(key, copy);
      }
      node = copy;
    }
    const last = String(edit.path[edit.path.length - 1]);
    if (edit.remove) delete node[last];
    else setOwn(node, last, edit.value);
  }
  return root as T;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
