// swagger-parser's structural validation of the document as the user wrote it (against the OpenAPI 3.0 or 3.1
// schema, by its version), located in the source.
import SwaggerParser from '@apidevtools/swagger-parser';
import { documentForTools } from '../core/document-for-tools.js';
import type { LoadedSpec } from '../core/load-spec.js';
import { pointerToPath } from '../core/source-locator.js';
import type { LintProblem } from './lint-problem.js';

interface ValidationDetail {
  instancePath?: string;
  message?: string;
}

export async function swaggerParserProblems(spec: LoadedSpec, file: string): Promise<LintProblem[]> {
  try {
    // swagger-parser dereferences in place, and would follow a `$ref` to a file or URL in literal data: it gets our
    // copy, with external resolution off besides.
    await SwaggerParser.validate(
      caseFolded(documentForTools(spec.sourceDocument)) as never,
      {
        resolve: { external: false, file: false, http: false },
      } as never,
    );
    return [];
  } catch (error) {
    const details = (error as { details?: ValidationDetail[] }).details;
    const entries =
      Array.isArray(details) && details.length > 0
        ? details
        : [{ instancePath: '', message: (error as Error).message }];
    return entries.map((detail) => {
      const path = pointerToPath(detail.instancePath ?? '');
      return {
        file,
        ...spec.locateSource(path),
        severity: 'error' as const,
        rule: 'swagger-parser',
        message: `${detail.instancePath || '(document)'} ${detail.message ?? 'is invalid'}`.replace(/\s+/g, ' '),
        path,
      };
    });
  }
}

/**
 * An http security scheme's `scheme` is an HTTP authentication scheme name, which is case-insensitive (RFC 9110
 * section 11.1; OpenAPI 3.1 section 4.8.27): `Bearer`, as in OAI's own examples, is `bearer`. The OpenAPI 3.0 JSON
 * Schema swagger-parser validates against compares it case-sensitively and reported it as 19 errors. The copy is ours.
 */
function caseFolded(document: Record<string, unknown>): Record<string, unknown> {
  const schemes = (document.components as { securitySchemes?: Record<string, unknown> } | undefined)?.securitySchemes;
  if (schemes === null || typeof schemes !== 'object') return document;
  for (const scheme of Object.values(schemes)) {
    const http = scheme as { type?: unknown; scheme?: unknown } | null;
    if (http?.type === 'http' && typeof http.scheme === 'string') http.scheme = http.scheme.toLowerCase();
  }
  return document;
}
