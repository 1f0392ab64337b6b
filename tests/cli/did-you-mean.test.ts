import { describe, expect, it } from 'vitest';
import { closestName, editDistance } from '../../src/cli/did-you-mean.js';

describe('editDistance', () => {
  it.each([
    ['check', 'check', 0],
    ['chek', 'check', 1],
    ['fromat', 'format', 1],
    ['base-ur', 'base-url', 1],
    ['', 'mock', 4],
    ['kitten', 'sitting', 3],
  ])('from %j to %j is %i', (a, b, want) => {
    expect(editDistance(a, b)).toBe(want);
  });
});

describe('closestName', () => {
  const commands = [
    'lint',
    'generate',
    'mock',
    'sandbox',
    'check',
    'validate',
    'receive',
    'proxy',
    'fuzz',
    'diff',
    'init',
  ];
  it.each([
    ['chek', 'check'],
    ['valdiate', 'validate'],
    ['moc', 'mock'],
    ['FUZZ', 'fuzz'],
    ['x', undefined],
    ['deploy', undefined],
    ['a-long-pasted-value-that-is-no-command', undefined],
  ])('finds %j → %j among the commands', (input, want) => {
    expect(closestName(input, commands)).toBe(want);
  });

  it('stays fast on a very long input (only names of a plausible length are compared)', () => {
    const started = performance.now();
    expect(closestName('x'.repeat(1_000_000), commands)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
