// What the stateful sandbox holds before its first request: the spec's own examples of each top-level resource
// (its representation schema's `examples`/`example` and its read answer's media examples, those the answer's schema
// accepts and that carry the id field), then `--data FILE` (JSON or YAML): `{ "<collection>": [item, …] }`, where a
// collection is a resource's name (`Note`), or a nested one's name and its parents' ids (`Comment/nt_seed0001`).
// An item of the file its spec refuses is a one-line error at start, never served.
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { ContractsError } from '../../core/errors.js';
import { escapeLine } from '../../core/escape-line.js';
import { resolvePointer } from '../../core/load-spec.js';
import { pathToPointer } from '../../core/source-locator.js';
import { examplesOf } from '../../fuzz/schema-arbitrary.js';
import { compiledResponse } from './documented-answer.js';
import type { ResourceFacts, Stateful } from './stateful-engine.js';
import { successStatus } from './statuses.js';

export interface Seed {
  collection: string;
  id: string;
  value: Record<string, unknown>;
}

/** Seed files read at most: what the sandbox holds is bounded anyway (store.ts). */
const maxSeedBytes = 64 * 1024 * 1024;

export function exampleSeeds(stateful: Stateful): Seed[] {
  const seeds: Seed[] = [];
  for (const facts of stateful.resources.values()) {
    const field = facts.resource.id?.field;
    if (facts.resource.parent || facts.scope.length > 0 || field === undefined) continue;
    const media = readMedia(stateful, facts);
    if (!media?.schemaPath) continue;
    const document = stateful.engine.contract.spec.document;
    const schema = resolvePointer(document, '#' + pathToPointer(media.schemaPath));
    const mediaObject = resolvePointer(document, '#' + pathToPointer(media.schemaPath.slice(0, -1))) as
      | { example?: unknown; examples?: Record<string, { value?: unknown }> }
      | undefined;
    const candidates = [
      ...examplesOf(derefOnce(document, schema)),
      ...(mediaObject && Object.hasOwn(mediaObject, 'example') ? [mediaObject.example] : []),
      ...Object.values(mediaObject?.examples ?? {}).map((example) => example?.value),
    ]
      // A wrapped resource (`{ "article": … }`: stateful-engine.ts's enveloped) is stored unwrapped.
      .map((shown) => ({ shown, value: facts.envelope === undefined ? shown : inside(shown, facts.envelope) }))
      .flatMap(({ shown, value }) => (hasId(value, field) ? [{ shown, value }] : []));
    // The validator is compiled only for a resource with a candidate: `media.validate` compiles on first use, and
    // most of a big spec's resources have no example with an id (GitHub: 1 of 457; compiling them all took seconds).
    for (const { shown, value } of candidates) {
      if (!media.validate || !accepts(stateful, media.validate, shown)) continue;
      seeds.push({ collection: facts.resource.name, id: String(value[field]), value });
    }
  }
  return seeds;
}

export async function fileSeeds(stateful: Stateful, file: string): Promise<Seed[]> {
  let parsed: unknown;
  try {
    const text = await readFile(file, 'utf8');
    if (text.length > maxSeedBytes) throw new ContractsError('INPUT_NOT_READABLE', `${file} is over 64 MB`);
    parsed = parse(text, { maxAliasCount: 100 });
  } catch (error) {
    if (error instanceof ContractsError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new ContractsError(
      'INPUT_NOT_READABLE',
      code === 'ENOENT'
        ? `data file not found: ${file}`
        : `cannot read data file ${file}: ${escapeLine(code ?? (error as Error).message)}`,
    );
  }
  const fail = (why: string) => new ContractsError('INPUT_NOT_READABLE', `${file}: ${escapeLine(why)}`);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw fail('must hold an object: { "<collection>": [item, …] }');
  const names = [...stateful.resources.keys()];
  const seeds: Seed[] = [];
  for (const [collection, items] of Object.entries(parsed as Record<string, unknown>)) {
    const name = names.find((candidate) => collection === candidate || collection.startsWith(`${candidate}/`));
    const facts = name === undefined ? undefined : stateful.resources.get(name);
    if (!facts) throw fail(`no resource named ${JSON.stringify(collection)}: the spec has ${names.join(', ')}`);
    if (collection.split('/').length !== facts.scope.length + 1)
      throw fail(
        `${collection}: ${name} is kept per ${facts.scope.join(', ') || 'nothing'}: name it ${[name, ...facts.scope.map((s) => `<${s}>`)].join('/')}`,
      );
    if (!Array.isArray(items)) throw fail(`${collection} must be a list of items`);
    const media = readMedia(stateful, facts);
    const field = facts.resource.id?.field;
    for (const [index, value] of items.entries()) {
      const where = `${collection} item #${index + 1}`;
      const id = field === undefined ? undefined : (value as Record<string, unknown> | null)?.[field];
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw fail(`${where} is not an object`);
      if (typeof id !== 'string' && typeof id !== 'number') throw fail(`${where} has no id field ${field ?? ''}`);
      if (media?.validate && !accepts(stateful, media.validate, value))
        throw fail(`${where} does not match the ${name} the spec answers with`);
      seeds.push({ collection, id: String(id), value: value as Record<string, unknown> });
    }
  }
  return seeds;
}

export function plant(stateful: Stateful, seeds: readonly Seed[]): void {
  stateful.store.clear();
  stateful.drawn.clear();
  for (const seed of seeds) stateful.store.put(seed.collection, seed.id, structuredClone(seed.value));
}

function inside(value: unknown, envelope: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)[envelope]
    : undefined;
}

function hasId(value: unknown, field: string): value is Record<string, string | number> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const id = (value as Record<string, unknown>)[field];
  return typeof id === 'string' || typeof id === 'number';
}

function readMedia(stateful: Stateful, facts: ResourceFacts) {
  const operationId = facts.resource.read[0];
  const compiled = operationId === undefined ? undefined : stateful.engine.contract.byOperationId.get(operationId);
  const status = compiled && successStatus(compiled.spec);
  const response = compiled && status !== undefined ? compiledResponse(compiled, status) : undefined;
  return response?.mediaTypes.find((candidate) => candidate.json && candidate.schemaPath);
}

function accepts(stateful: Stateful, validate: Parameters<Stateful['engine']['contract']['check']>[0], value: unknown) {
  const result = stateful.engine.contract.check(validate, value);
  return result.errors.length === 0 && result.stoppedAfter === undefined;
}

function derefOnce(document: unknown, schema: unknown): unknown {
  const ref = (schema as { $ref?: unknown } | null)?.$ref;
  return typeof ref === 'string' ? resolvePointer(document, ref) : schema;
}
