// Which operations a fuzz run sends requests to: --include-*/--exclude-* (and the config's `fuzz:` keys of an API)
// by operationId, path template, method and tag (OpenAPI 3.1 §4.8.10: an Operation Object's operationId and tags;
// §4.8.8: the Paths Object's templates). The rule, stated once: an operation is fuzzed when it matches every kind of
// include given (values of one kind OR together, kinds AND together) and no exclude of any kind (excludes win).
// Matching is exact: the operationId as the run names it, the path template as the spec writes it, the method in
// any case, a tag as written. A value that matches no operation is a usage error: a filter that does nothing is a typo.
import { ContractsError } from '../core/errors.js';
import { deref } from '../core/request-model.js';
import type { OperationModel } from './request-model.js';
import { filterKinds, type FilterKind, type OperationFilters, type Suggest } from './filter-kinds.js';

/** One API's operations, with the document their tags are read from. */
export interface FilteredApi {
  api: string;
  document: unknown;
  models: readonly OperationModel[];
  filters: OperationFilters | undefined;
}

/** The tags of an operation: its Operation Object's `tags`, strings only. */
function tagsOf(document: unknown, model: OperationModel): string[] {
  let node: unknown = document;
  for (const step of model.spec.path) {
    node = deref(document, node);
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[String(step)] : undefined;
  }
  const tags = (deref(document, node) as { tags?: unknown } | undefined)?.tags;
  return Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === 'string') : [];
}

/** What each kind of filter compares for an operation. */
function facets(document: unknown, model: OperationModel): Record<FilterKind, string[]> {
  return {
    'operation-id': [model.operationId],
    path: [model.pathTemplate],
    method: [model.method.toUpperCase()],
    tag: tagsOf(document, model),
  };
}

function matches(kind: FilterKind, value: string, facet: Record<FilterKind, string[]>): boolean {
  return facet[kind].includes(kind === 'method' ? value.toUpperCase() : value);
}

/**
 * The operations (`api/operationId`) the filters keep, for every API; throws USAGE when a value matches no operation
 * of the APIs it applies to, or when the filters leave nothing to fuzz.
 */
export function filterOperations(apis: readonly FilteredApi[], suggest: Suggest = () => ''): Set<string> {
  const kept = new Set<string>();
  // value → whether it matched, by `from` and kind (a CLI value applies to every API: it must match in one of them).
  const matched = new Map<string, { from: string; kind: FilterKind; value: string; hit: boolean; names: string[] }>();
  for (const { api, document, models, filters } of apis) {
    for (const model of models) {
      const facet = facets(document, model);
      let included = true;
      for (const [direction, set] of [
        ['include', filters?.include],
        ['exclude', filters?.exclude],
      ] as const) {
        for (const kind of filterKinds) {
          const given = set?.[kind];
          if (!given) continue;
          let any = false;
          for (const value of given.values) {
            const key = `${given.from}\u0000${value}`;
            const entry = matched.get(key) ?? { from: given.from, kind, value, hit: false, names: [] };
            matched.set(key, entry);
            entry.names.push(...facet[kind]);
            if (matches(kind, value, facet)) {
              entry.hit = true;
              any = true;
            }
          }
          if (direction === 'include' ? !any : any) included = false;
        }
      }
      if (included) kept.add(`${api}/${model.operationId}`);
    }
  }
  const unmatched = [...matched.values()].find((entry) => !entry.hit);
  if (unmatched) {
    const hint = suggest(unmatched.value, [...new Set(unmatched.names)]);
    const of = apis.map((entry) => entry.api).join(', ');
    throw new ContractsError(
      'USAGE',
      `${unmatched.from} ${JSON.stringify(unmatched.value)} matches no operation of ${of}${hint ? `:${hint}` : ''}`,
    );
  }
  if (kept.size === 0 && apis.some((entry) => entry.filters))
    throw new ContractsError('USAGE', 'the --include-*/--exclude-* filters leave no operation to fuzz');
  return kept;
}
