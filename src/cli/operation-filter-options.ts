// `contracts fuzz --include-*/--exclude-*`: the options, and the filters of each API they make with the config's
// `fuzz:` keys (the rule itself is src/fuzz/operation-filter.ts's).
import type { ApiEntry } from '../config/project.js';
import {
  filterKinds,
  mergeFilters,
  type FilterKind,
  type OperationFilters,
  type Suggest,
} from '../fuzz/filter-kinds.js';
import type { OptionSpec, ParsedOptions } from './command.js';
import { didYouMean } from './did-you-mean.js';
import { texts } from './options/typed-option.js';

const what: Record<FilterKind, [string, string]> = {
  'operation-id': ['id', 'operationId'],
  path: ['template', 'path template as the spec writes it (/pets/{id})'],
  method: ['method', 'HTTP method (any case)'],
  tag: ['tag', 'tag'],
};

export const operationFilterOptions: OptionSpec[] = (['include', 'exclude'] as const).flatMap((direction) =>
  filterKinds.map(
    (kind): OptionSpec => ({
      name: `${direction}-${kind}`,
      type: 'string',
      valueName: what[kind][0],
      multiple: true,
      description:
        direction === 'include'
          ? `Fuzz only operations with this ${what[kind][1]}; given several times, any one of them, and every --include-* kind must match`
          : `Never fuzz operations with this ${what[kind][1]}; excludes win over includes`,
      conflicts: ['replay'],
    }),
  ),
);

/** The config's `fuzz:` keys of an API as filters, each value named by where it is written. */
function configFilters({ name: api, fuzz: keys }: ApiEntry): OperationFilters | undefined {
  if (!keys) return undefined;
  const filters: OperationFilters = { include: {}, exclude: {} };
  for (const direction of ['include', 'exclude'] as const)
    for (const kind of filterKinds) {
      const values = keys[`${direction}-${kind}`];
      if (values && values.length > 0)
        filters[direction][kind] = { values: [...values], from: `the config's apis[${api}].fuzz.${direction}-${kind}` };
    }
  return filters;
}

/** Each API's filters: the command line's, with the config's for every key the command line does not give. */
export function operationFilters(
  options: ParsedOptions,
  selected: readonly ApiEntry[],
): Partial<Record<string, OperationFilters>> {
  const cli: OperationFilters = { include: {}, exclude: {} };
  for (const direction of ['include', 'exclude'] as const)
    for (const kind of filterKinds) {
      const values = texts(options[`${direction}-${kind}`]);
      if (values.length > 0) cli[direction][kind] = { values, from: `--${direction}-${kind}` };
    }
  return Object.fromEntries(selected.map((entry) => [entry.name, mergeFilters(configFilters(entry), cli)]));
}

export const suggestName: Suggest = (input, candidates) => didYouMean(input, candidates);
