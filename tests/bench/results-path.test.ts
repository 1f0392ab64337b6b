// npm run bench leaves the git tree clean unless asked to update the committed figures.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resultsPath } from '../../bench/results-path.js';
import { root } from '../helpers/paths.js';

describe('resultsPath', () => {
  it.each([
    { argv: ['node', 'run.ts'], expected: path.join(root, 'reports/bench-results.json') },
    { argv: ['node', 'run.ts', '--quick'], expected: path.join(root, 'reports/bench-results.json') },
    { argv: ['node', 'run.ts', '--write'], expected: path.join(root, 'bench/results.json') },
    { argv: ['node', 'run.ts', '--out', '/tmp/x.json', '--write'], expected: '/tmp/x.json' },
  ])('writes $argv to $expected', ({ argv, expected }) => {
    expect(resultsPath(argv, root)).toBe(expected);
  });

  it('writes a plain run where git ignores it', () => {
    const file = path.relative(root, resultsPath(['node', 'run.ts'], root));
    expect(execFileSync('git', ['check-ignore', file], { cwd: root, encoding: 'utf8' }).trim()).toBe(file);
  });
});
