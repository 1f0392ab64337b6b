// The mock engine and the core it runs on bundle for a browser (contracts-kit/msw's browser entry): esbuild with
// platform=browser resolves no Node module anywhere on their import graph. A Node module there fails a user's
// bundler ("Could not resolve node:fs") before a single test runs.
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';

/** The engine's parts a browser needs: a document made a spec, compiled, answered, checked. */
const engineGraph = [
  "export { specFromDocument } from './src/core/document-spec.js';",
  "export { compileContract } from './src/core/compile-contract.js';",
  "export { answerRequest } from './src/mock/engine/answer-request.js';",
  "export { answerStateful } from './src/mock/engine/stateful-answer.js';",
  "export { statefulEngine } from './src/mock/engine/stateful-engine.js';",
  "export { basePaths } from './src/mock/engine/route.js';",
  "export { checkExchange } from './src/core/check-exchange.js';",
].join('\n');

describe('the mock engine in a browser bundle', () => {
  it('imports no Node module', async () => {
    const result = await build({
      stdin: { contents: engineGraph, resolveDir: root, sourcefile: 'engine-graph.ts', loader: 'ts' },
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    }).catch((error: { errors?: { text: string; location?: { file: string } | null }[] }) => ({
      failed: (error.errors ?? []).map((entry) => `${entry.location?.file ?? '?'}: ${entry.text}`),
    }));
    expect('failed' in result ? result.failed : []).toEqual([]);
    const inputs = 'metafile' in result ? Object.keys(result.metafile.inputs) : [];
    expect(inputs.filter((input) => input.startsWith('node:'))).toEqual([]);
    expect(inputs).toContain(path.join('src', 'core', 'compile-contract.ts'));
  }, 60_000);
});
