// duplicated-entry-in-enum, in linear time: spectral:oas checks it with ajv's `uniqueItems`, which compares every
// pair of values (deep equality, the values being untyped), so a 100k-value enum kept lint busy for minutes. Same
// name, meaning, place and message; each value's canonical JSON goes into a Map once.
import { createRulesetFunction, type IFunctionResult } from '@stoplight/spectral-core';
import { canonical } from '../../core/diff/schema-branches.js';

/** spectral:oas's `given`: every `enum` array outside a `properties` map. */
export const enumOwners =
  "$..[?(@property !== 'properties' && @ != null && @.enum && @.enum.constructor.name === 'Array')]";

/**
 * The pair ajv's uniqueItems reports (it scans i downwards, then j < i downwards): the last value that repeats an
 * earlier one, with the nearest earlier copy. undefined when every value is unique.
 */
export function duplicatePair(values: readonly unknown[]): { first: number; second: number } | undefined {
  const lastSeen = new Map<string, number>();
  let pair: { first: number; second: number } | undefined;
  values.forEach((value, index) => {
    const key = canonical(value);
    const earlier = lastSeen.get(key);
    if (earlier !== undefined) pair = { first: earlier, second: index };
    lastSeen.set(key, index);
  });
  return pair;
}

export const duplicatedEntryInEnum = createRulesetFunction<unknown, null>(
  { input: null, options: null },
  (values): IFunctionResult[] => {
    if (!Array.isArray(values)) return [];
    const pair = duplicatePair(values);
    if (!pair) return [];
    return [
      {
        message: `"enum" property must not have duplicate items (items ## ${pair.first} and ${pair.second} are identical)`,
      },
    ];
  },
);
