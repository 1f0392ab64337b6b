// contracts-format-unknown: a `format` ajv has no check for. OpenAPI lets a spec name any format (`phone-number`,
// `snowflake`: https://spec.openapis.org/oas/v3.1.0#data-types), so it is an annotation: values are not checked
// against it, and examples under it are still validated against the rest of their schema. One warning per format,
// at its first use, so a misspelt one (`date_time`) is still seen.
import type { IFunctionResult } from '@stoplight/spectral-core';
import type { CompiledSpec } from '../../core/compile-spec.js';
import { rootSchemaSites, subschemaSites } from '../../core/schema-sites.js';

export function formatUnknownResults(compiled: CompiledSpec): IFunctionResult[] {
  if (compiled.unknownFormats.size === 0) return [];
  const reported = new Set<string>();
  const results: IFunctionResult[] = [];
  for (const root of rootSchemaSites(compiled.spec.document)) {
    for (const site of subschemaSites(root)) {
      if (typeof site.schema === 'boolean') continue;
      const format = site.schema.format;
      if (typeof format !== 'string' || !compiled.unknownFormats.has(format) || reported.has(format)) continue;
      reported.add(format);
      results.push({
        message: `format "${format}" has no check here: it is an annotation, values are not checked against it (misspelt? known ones include date-time, email, uri, uuid, int64)`,
        path: [...site.path, 'format'],
      });
    }
  }
  return results;
}
