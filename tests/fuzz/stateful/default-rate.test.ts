// The --rate a run gets when it names none, by target.
import { describe, expect, it } from 'vitest';
import { runRate } from '../../../src/fuzz/default-rate.js';

describe('the default --rate', () => {
  it.each([
    ['http://127.0.0.1:4010', { rate: 0, line: 'rate: unlimited (a loopback target; --rate n caps it)' }],
    ['http://127.8.9.10', { rate: 0, line: 'rate: unlimited (a loopback target; --rate n caps it)' }],
    ['http://[::1]:80/api', { rate: 0, line: 'rate: unlimited (a loopback target; --rate n caps it)' }],
    ['http://localhost:3000', { rate: 0, line: 'rate: unlimited (a loopback target; --rate n caps it)' }],
    [
      'https://api.example.com',
      { rate: 100, line: 'rate: at most 100 requests/s (the default off loopback; --rate n changes it)' },
    ],
    [
      'http://10.0.0.1',
      { rate: 100, line: 'rate: at most 100 requests/s (the default off loopback; --rate n changes it)' },
    ],
  ])('against %s is %j', (url, want) => {
    expect(runRate(undefined, url)).toEqual(want);
  });

  it('is what --rate says when given, loopback or not', () => {
    expect(runRate(7, 'http://127.0.0.1')).toEqual({ rate: 7, line: 'rate: at most 7 requests/s (--rate)' });
    expect(runRate(0, 'https://api.example.com')).toEqual({ rate: 0, line: 'rate: unlimited (--rate 0)' });
  });
});
