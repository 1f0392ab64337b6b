// Multi-file specs: external `$ref`s (`./schemas/pet.yaml#/Pet`) are bundled into one document with
// swagger-parser's bundle() (https://apitools.dev/swagger-parser/docs/swagger-parser.html#bundleapi-options), so
// the rest of the toolkit sees one document with local references only. Content that came from another file sits
// where its `$ref` was: messages about it point at that `$ref` in the root file.
import { access } from 'node:fs/promises';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { ContractsError, type SourceLocation } from './errors.js';
import type { JsonPath } from './source-locator.js';

// As in load-spec.ts: an alias may be expanded at most this many times (an alias bomb in a referenced file).
const maxAliasCount = 100;

const boundedYaml = {
  order: 200,
  canParse: ['.yaml', '.yml'],
  parse(file: { url: string; data: Buffer | string }) {
    const doc = parseDocument(file.data.toString(), { uniqueKeys: true, prettyErrors: false });
    if (doc.errors[0]) throw new Error(`not valid YAML: ${doc.errors[0].message.split('\n')[0]}`);
    return doc.toJS({ maxAliasCount });
  },
};

/** Paths of every `$ref` that points into another file (literal data, like examples, is not looked into). */
export function externalRefs(
  document: unknown,
  isLiteral: (key: string, child: unknown, at: JsonPath) => boolean,
): { path: JsonPath; ref: string }[] {
  const found: { path: JsonPath; ref: string }[] = [];
  const walk = (value: unknown, at: (string | number)[]): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, [...at, index]));
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const object = value as Record<string, unknown>;
    if (typeof object.$ref === 'string' && !object.$ref.startsWith('#')) found.push({ path: at, ref: object.$ref });
    for (const [key, child] of Object.entries(object)) if (!isLiteral(key, child, at)) walk(child, [...at, key]);
  };
  walk(document, []);
  return found;
}

/**
 * The document at `file` with its external references bundled in. Only local files are read: a reference to a
 * URL is refused (a spec must not make the toolkit fetch from the network).
 */
export async function bundleExternalRefs(
  file: string,
  refs: { path: JsonPath; ref: string }[],
  at: (path: JsonPath) => SourceLocation,
): Promise<Record<string, unknown>> {
  for (const { path: refPath, ref } of refs) {
    const fail = (reason: string) =>
      new ContractsError('SPEC_BROKEN_REF', `$ref "${ref}" ${reason}`, at([...refPath, '$ref']));
    if (/^[a-z][a-z0-9+.-]*:/i.test(ref) && !/^file:/i.test(ref))
      throw fail('points to a URL: only files next to the spec are bundled, download it first');
    const target = path.resolve(path.dirname(file), decodeURIComponent(ref.split('#')[0]!));
    await access(target).catch(() => {
      throw fail('does not resolve: no such file next to the spec');
    });
  }
  try {
    // Loaded here, not at the top: a one-file spec (most) never needs swagger-parser and its dependencies.
    const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
    return (await SwaggerParser.bundle(path.resolve(file), {
      resolve: { external: true, http: false },
      parse: { yaml: boundedYaml },
    } as never)) as unknown as Record<string, unknown>;
  } catch (error) {
    const first = refs[0]!;
    const reason = ((error as Error).message || String(error)).split('\n')[0];
    throw new ContractsError(
      'SPEC_BROKEN_REF',
      `external $ref could not be bundled: ${reason}`,
      at([...first.path, '$ref']),
    );
  }
}
