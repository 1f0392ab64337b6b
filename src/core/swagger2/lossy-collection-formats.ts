// Swagger 2.0 `collectionFormat`s that OpenAPI 3 cannot say (https://spec.openapis.org/oas/v3.0.3#style-values):
// `tsv` anywhere, `ssv` and `pipes` outside the query (`spaceDelimited`/`pipeDelimited` are query styles only). The
// converter refuses them without saying where; this finds the first, so the message names its line. A parameter
// read another way than the server means would make every finding about it false.
import { isLiteral } from '../literal-values.js';
import type { JsonPath } from '../source-locator.js';

export interface LossyFormat {
  path: JsonPath;
  format: string;
}

export function firstLossyCollectionFormat(document: unknown): LossyFormat | undefined {
  let found: LossyFormat | undefined;
  const walk = (value: unknown, at: (string | number)[]): void => {
    if (found !== undefined || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, [...at, index]));
      return;
    }
    const node = value as Record<string, unknown>;
    const format = node.collectionFormat;
    if (format === 'tsv' || ((format === 'ssv' || format === 'pipes') && node.in !== 'query')) {
      found = { path: [...at, 'collectionFormat'], format };
      return;
    }
    for (const [key, child] of Object.entries(node)) if (!isLiteral(key, child, at)) walk(child, [...at, key]);
  };
  walk(document, []);
  return found;
}

export function lossyMessage({ format }: LossyFormat): string {
  return format === 'tsv'
    ? 'collectionFormat: tsv cannot be read: OpenAPI 3 has no style for tab-separated values'
    : `collectionFormat: ${format} cannot be read outside the query: OpenAPI 3 has that style for query parameters only`;
}
