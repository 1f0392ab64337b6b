// Where `npm run bench` writes its figures: a plain run must leave the git tree clean, so the committed
// bench/results.json changes only when asked (`--write`).
import path from 'node:path';

export function resultsPath(argv: readonly string[], root: string): string {
  const outIndex = argv.indexOf('--out');
  if (outIndex > 0) return path.resolve(argv[outIndex + 1] ?? '');
  return path.join(root, argv.includes('--write') ? 'bench/results.json' : 'reports/bench-results.json');
}
