// The kinds of operation filters of contracts fuzz and how the command line's and the config's combine: data only,
// so the CLI's option table can name them without loading the filter itself (operation-filter.ts).
export const filterKinds = ['operation-id', 'path', 'method', 'tag'] as const;
export type FilterKind = (typeof filterKinds)[number];

/** Values of one kind, and where they came from (`--exclude-path`, or the config's key), for messages. */
export interface FilterValues {
  values: string[];
  from: string;
}

export interface OperationFilters {
  include: Partial<Record<FilterKind, FilterValues>>;
  exclude: Partial<Record<FilterKind, FilterValues>>;
}

/** Suggests a close name (` Did you mean "x"?`) or ''; the CLI passes its own. */
export type Suggest = (input: string, candidates: readonly string[]) => string;

/** The CLI's and the config's filters of one API: a kind the command line gives replaces the config's values. */
export function mergeFilters(
  config: OperationFilters | undefined,
  cli: OperationFilters | undefined,
): OperationFilters | undefined {
  if (!config) return cli;
  if (!cli) return config;
  return { include: { ...config.include, ...cli.include }, exclude: { ...config.exclude, ...cli.exclude } };
}

/** Whether any filter is given. */
export function hasFilters(filters: OperationFilters | undefined): boolean {
  return filters !== undefined && (Object.keys(filters.include).length > 0 || Object.keys(filters.exclude).length > 0);
}
