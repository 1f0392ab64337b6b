// The one resolver of `$ref`s to other files (https://spec.openapis.org/oas/v3.1.0#reference-object): every command
// loads specs through it, and no other code (Spectral, swagger-parser, openapi-typescript, Prism) is given a path to
// resolve. It bundles what a spec names into one document with local references only, and reads nothing but
// regular files inside the spec's own folder tree (or a root the config names), each bounded in size. It never
// fetches a URL, and a `$ref` inside literal data (example, default, enum, const) is data, not a reference.
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { ContractsError, type SourceLocation } from './errors.js';
import { isLiteral, isNameMap } from './literal-values.js';
import { type BoundedRead, readBounded } from './read-bounded.js';
import { parseReferencedFile } from './parse-referenced-file.js';
import { pointerToPath, resolvePointer, type JsonPath } from './source-locator.js';
import { setOwn } from './own-key.js';
import { uriFragment } from './uri-fragment.js';

export interface RefPolicy {
  /** Folders besides the spec's own whose files a `$ref` may name (real paths are compared). */
  roots: readonly string[];
  maxFileBytes: number;
}

/** Where the files come from: the file system, or a git commit (`diff --base`). */
export interface RefSource {
  /** The canonical path of `file` (symlinks resolved), or undefined when there is no such file. */
  canonical(file: string): Promise<string | undefined>;
  /** The file's text, or why it is not read (over the bound, not a regular file). */
  read(file: string, maxBytes: number): Promise<BoundedRead>;
}

export const fileSystem: RefSource = {
  canonical: (file) => realpath(file).catch(() => undefined),
  read: (file, maxBytes) => readBounded(file, maxBytes, true),
};

// A bundle may not grow past this many nodes: distinct pointers into big files could otherwise multiply it.
const maxBundledNodes = 5_000_000;
const tooMany = `grows past ${maxBundledNodes} nodes: refusing it`;

interface Target {
  file: string;
  pointer: string;
}

/**
 * The document at `rootFile` (already parsed: `root`) with every `$ref` to another file replaced by what it names:
 * the first reference to a target gets its content, later ones (and cycles) a local pointer to that place.
 * `at` locates a path of the root document, for messages: content from another file is reported at its `$ref`.
 */
export async function bundleRefs(
  rootFile: string,
  root: Record<string, unknown>,
  at: (path: JsonPath) => SourceLocation,
  policy: RefPolicy,
  source: RefSource = fileSystem,
): Promise<Record<string, unknown>> {
  const rootReal = (await source.canonical(rootFile)) ?? path.resolve(rootFile);
  const allowed = [
    path.dirname(rootReal),
    ...(await Promise.all(policy.roots.map(async (r) => (await source.canonical(r)) ?? r))),
  ];
  const files = new Map<string, unknown>([[rootReal, root]]);
  const placed = new Map<string, JsonPath>();
  const mappings: { owner: Record<string, unknown>; from: string }[] = [];
  let nodes = 0;
  // Where in the root document the reference being followed sits: every message about it points there.
  let blame: JsonPath = [];

  const fail = (ref: string, reason: string): never => {
    throw new ContractsError('SPEC_BROKEN_REF', `$ref "${shown(ref)}" ${reason}`, at([...blame, '$ref']));
  };

  const tooBig = (): never => {
    throw new ContractsError('SPEC_BROKEN_REF', `bundling the files this spec references ${tooMany}`, at(blame));
  };

  const targetOf = (ref: string, from: string): Promise<Target> => refTarget(ref, from, allowed, source, fail);

  const load = async (ref: string, file: string): Promise<unknown> => {
    if (files.has(file)) return files.get(file);
    const read = await source
      .read(file, policy.maxFileBytes)
      .catch((error: NodeJS.ErrnoException) =>
        fail(ref, `names a file that cannot be read (${error.code ?? 'error'})`),
      );
    if ('refused' in read) return fail(ref, `names a file that ${read.refused}`);
    const parsed = parseReferencedFile(read.text);
    if ('error' in parsed) return fail(ref, `names a file that is not valid YAML or JSON: ${parsed.error}`);
    // A spec's files are mappings. Anything else (a .env file reads as one long string) is no part of a spec, and
    // is said by where it is named, never by what it holds: its text must not reach a message.
    if (!isMapping(parsed.document))
      return fail(ref, 'names a file that is not a YAML or JSON mapping: no part of a spec');
    files.set(file, parsed.document);
    return parsed.document;
  };

  const walk = async (value: unknown, out: JsonPath, from: string): Promise<unknown> => {
    if (++nodes > maxBundledNodes) tooBig();
    if (Array.isArray(value)) {
      const items: unknown[] = [];
      for (const [index, item] of value.entries()) items.push(await walk(item, [...out, index], from));
      return items;
    }
    if (value === null || typeof value !== 'object') return value;
    const object = value as Record<string, unknown>;
    if (typeof object.$ref === 'string') return follow(object, out, from);
    const copy: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(object)) {
      const literal = isLiteral(key, child, out);
      setOwn(copy, key, literal ? await literalValue(key, child, from) : await walk(child, [...out, key], from));
      if (key === 'mapping' && out[out.length - 1] === 'discriminator') mappings.push({ owner: copy, from });
    }
    return copy;
  };

  // An `example` kept in a file of its own (`example: { $ref: examples.yml#/list }`, as DigitalOcean writes) is that
  // file's data, as Redocly, Spectral and swagger-parser read it (an Example Object's `value` is not: Redocly keeps
  // it as written, and so do we). Literal data is otherwise data (OpenAPI 3.1 §4.8.19):
  // a `$ref` that names no readable file is kept as written, and what is brought in is copied, never followed.
  const literalValue = async (key: string, value: unknown, from: string): Promise<unknown> => {
    const content = await exampleInFile(key, value, async (ref) => {
      const target = await targetOf(ref, from);
      return resolvePointer(await load(ref, target.file), target.pointer);
    });
    if (content === value) return value;
    nodes += countNodes(content, maxBundledNodes - nodes);
    return nodes > maxBundledNodes ? tooBig() : content;
  };

  const follow = async (object: Record<string, unknown>, out: JsonPath, from: string): Promise<unknown> => {
    const { $ref: ref, ...siblings } = object as { $ref: string };
    if (from === rootReal) blame = out;
    if (from === rootReal && ref.startsWith('#')) return object;
    const target = await targetOf(ref, from);
    // A `$ref` standing for a map of names (`properties: { $ref: attributes.yml#/… }`, as DigitalOcean writes) has no
    // local pointer tools read as that map: it is inlined at every place, never left as `{ $ref: '#/…' }`.
    const inlineOnly = isNameMap(out);
    const local = (pointer: string) => ({ $ref: `#${pointer}`, ...siblings });
    if (target.file === rootReal && !inlineOnly) return local(target.pointer);
    const key = `${target.file}#${target.pointer}`;
    const there = inlineOnly ? undefined : placed.get(key);
    if (there) return local(uriFragment(there));
    const document = await load(ref, target.file);
    const content = resolvePointer(document, target.pointer);
    const refused = refusedContent(content, out);
    if (refused) return fail(ref, refused);
    if (typeof content === 'string') return content;
    if (!inlineOnly) placed.set(key, out);
    const inlined = await walk(content, out, target.file);
    const keep = Object.keys(siblings).length === 0;
    // With siblings (a description beside the $ref), this place is not the target alone: later refs inline anew.
    if (!keep) placed.delete(key);
    return keep || inlined === null || typeof inlined !== 'object' || Array.isArray(inlined)
      ? inlined
      : { ...(inlined as object), ...siblings };
  };

  const bundled = (await walk(root, [], rootReal)) as Record<string, unknown>;
  // After the walk: a mapping may name a schema that is bundled further down the document.
  const placeOf = ({ file, pointer }: Target) =>
    file === rootReal ? pointerToPath(pointer) : placed.get(`${file}#${pointer}`);
  for (const { owner, from } of mappings)
    owner.mapping = await mapping(owner.mapping, from === rootReal, async (ref) => placeOf(await targetOf(ref, from)));
  return bundled;
}

// discriminator.mapping values may name schemas by reference (`pet.yaml`, `#/components/schemas/Pet`): those to
// other files become the local pointer of the place their content was bundled to (`placeOf`).
async function mapping(
  value: unknown,
  inRoot: boolean,
  placeOf: (ref: string) => Promise<JsonPath | undefined>,
): Promise<unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [name, ref] of Object.entries(value as Record<string, unknown>)) {
    setOwn(copy, name, ref);
    if (typeof ref !== 'string' || !/[/#]|\.(ya?ml|json)$/i.test(ref) || (inRoot && ref.startsWith('#'))) continue;
    const there = await placeOf(ref);
    if (there) setOwn(copy, name, `#${uriFragment(there)}`);
  }
  return copy;
}

/**
 * The file and pointer a `$ref` names, from the file it is in: a relative path to a regular file inside one of the
 * `allowed` folders (after the source's realpath), never a URL nor an absolute path; `fail` says why not.
 */
async function refTarget(
  ref: string,
  from: string,
  allowed: readonly string[],
  source: RefSource,
  fail: (ref: string, reason: string) => never,
): Promise<Target> {
  const [filePart = '', fragment = ''] = splitRef(ref);
  if (filePart === '') return { file: from, pointer: fragment };
  if (/^[a-z][a-z0-9+.-]*:/i.test(filePart))
    fail(ref, 'points to a URL: only files inside the spec folder are read, download it first');
  let decoded: string;
  try {
    decoded = decodeURIComponent(filePart);
  } catch {
    return fail(ref, 'is not a valid reference (bad percent-encoding)');
  }
  if (path.isAbsolute(decoded) || decoded.includes('\0'))
    fail(ref, 'is an absolute path: only relative references to files inside the spec folder are read');
  const real =
    (await source.canonical(path.resolve(path.dirname(from), decoded))) ??
    fail(ref, 'does not resolve: no such file next to the spec');
  if (!allowed.some((dir) => real === dir || real.startsWith(dir + path.sep)))
    fail(ref, `leads outside the spec folder (${allowed[0]}): only files inside it are read`);
  return { file: real, pointer: fragment };
}

/**
 * Why what a `$ref` at `out` names cannot stand there, if it cannot. What a $ref stands for is an object (a JSON Schema
 * may be true or false): a string or a number from another file could only end up shown in a message, as a pattern or
 * a name, and is refused without being shown. The one exception is prose: a `description` (or `summary`) whose text
 * is kept in a file of its own (DigitalOcean's tags), which no message shows.
 */
function refusedContent(content: unknown, out: JsonPath): string | undefined {
  if (content === undefined) return 'does not resolve: nothing at that pointer in the file it names';
  const prose = typeof content === 'string' && (out.at(-1) === 'description' || out.at(-1) === 'summary');
  if (!isMapping(content) && typeof content !== 'boolean' && !prose)
    return 'names a value that is not an object: a $ref stands for an object of a spec';
  return undefined;
}

/**
 * What an `example` whose whole value is `{ $ref: <file> }` names (`read` reads it), or `value` itself: a reference
 * that cannot be read, or names nothing, is data as written.
 */
async function exampleInFile(key: string, value: unknown, read: (ref: string) => Promise<unknown>): Promise<unknown> {
  if (key !== 'example' || !isMapping(value)) return value;
  const ref = value.$ref;
  if (typeof ref !== 'string' || ref.startsWith('#') || Object.keys(value).length !== 1) return value;
  try {
    return (await read(ref)) ?? value;
  } catch (error) {
    if (error instanceof ContractsError) return value;
    throw error;
  }
}

// The nodes of `value`, counted up to `limit` (past it the count stops: the bundle is refused anyway).
function countNodes(value: unknown, limit: number): number {
  let count = 0;
  const stack = [value];
  while (stack.length > 0 && count <= limit) {
    const node = stack.pop();
    count++;
    if (node !== null && typeof node === 'object') for (const child of Object.values(node)) stack.push(child);
  }
  return count;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function splitRef(ref: string): [string, string] {
  const hash = ref.indexOf('#');
  return hash < 0 ? [ref, ''] : [ref.slice(0, hash), ref.slice(hash + 1)];
}

// A reference is shown as written, but never at length: a hostile one could be megabytes.
function shown(ref: string): string {
  return ref.length > 200 ? `${ref.slice(0, 200)}…` : ref;
}
