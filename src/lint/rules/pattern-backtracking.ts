// contracts-pattern-backtracking: a `pattern` (or patternProperties key) that the linear-time engine cannot run,
// because it uses syntax RE2 lacks (lookaround, backreferences), is matched by backtracking
// (src/core/pattern-engine.ts): a crafted value can then block validation for seconds or more. Said where it is written.
import type { IFunctionResult } from '@stoplight/spectral-core';
import type { CompiledSpec } from '../../core/compile-spec.js';
import { compilePattern } from '../../core/pattern-engine.js';
import { rootSchemaSites, subschemaSites } from '../../core/schema-sites.js';
import type { JsonPath } from '../../core/source-locator.js';

export function patternBacktrackingResults(compiled: CompiledSpec): IFunctionResult[] {
  const results: IFunctionResult[] = [];
  for (const root of rootSchemaSites(compiled.spec.document)) {
    for (const site of subschemaSites(root)) {
      if (typeof site.schema === 'boolean') continue;
      const { pattern, patternProperties } = site.schema;
      if (typeof pattern === 'string') results.push(...judge(pattern, [...site.path, 'pattern']));
      if (patternProperties !== null && typeof patternProperties === 'object' && !Array.isArray(patternProperties)) {
        for (const key of Object.keys(patternProperties))
          results.push(...judge(key, [...site.path, 'patternProperties', key]));
      }
    }
  }
  return results;
}

function judge(pattern: string, path: JsonPath): IFunctionResult[] {
  let engine: ReturnType<typeof compilePattern>;
  try {
    engine = compilePattern(pattern);
  } catch {
    return []; // not a valid ECMA-262 pattern: contracts-schema-valid says so
  }
  if (engine.engine !== 'backtracking') return [];
  return [
    {
      message:
        `pattern ${JSON.stringify(pattern)} uses ${engine.reason}, which the linear-time engine (RE2) lacks: it is ` +
        'matched by backtracking, where a crafted value can take seconds or more',
      path: [...path],
    },
  ];
}
