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
      documentForTools(spec.sourceDocument) as never,
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
