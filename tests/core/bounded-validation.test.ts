// Checking a hostile body costs time linear in its size, and what it reports is bounded (issue 11, item 7).
import { beforeAll, describe, expect, it } from 'vitest';
import { cannotCheck, checkExchange, maxFindings, omittedCount } from '../../src/core/check-exchange.js';
import { compileContract, type Contract } from '../../src/core/compile-contract.js';
import type { Exchange } from '../../src/core/exchange.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { fixture, specFile } from '../helpers/paths.js';

const contracts: Record<string, Contract> = {};
beforeAll(async () => {
  contracts.hooks = compileContract(await loadSpec(specFile('repository-webhooks')), { strict: true });
  contracts.session = compileContract(await loadSpec(specFile('client-session')), { strict: true });
  contracts.alternatives = compileContract(await loadSpec(fixture('specs', 'alternatives.yaml')));
});

const response = (path: string, body: string): Exchange => ({
  method: 'GET',
  path,
  status: 200,
  headers: { 'content-type': 'application/json' },
  body,
});
const hooksList = (items: number) => response('/repos/o/r/hooks', `[${Array(items).fill('1').join(',')}]`);

/** Milliseconds per item of checking `runs` times a list of `items` wrong items: the fastest of three tries. */
function costPerItem(contract: Contract, items: number, runs: number): number {
  const given = { ...hooksList(0), body: 'x', json: Array(items).fill(1) };
  let best = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 3; attempt++) {
    const started = performance.now();
    for (let run = 0; run < runs; run++) checkExchange(contract, given);
    best = Math.min(best, performance.now() - started);
  }
  return best / (items * runs);
}

describe('checking a body of many wrong items', () => {
  it('costs the same per error for 9,600 errors as for 480, all listed (linear; merging by copying costs 5-12x as much)', () => {
    // Below the listing limit, so only the way errors are merged decides; same total work on both sides.
    costPerItem(contracts.hooks!, 480, 20); // warm up the validators
    const ratio = costPerItem(contracts.hooks!, 9_600, 10) / costPerItem(contracts.hooks!, 480, 200);
    expect(ratio).toBeLessThan(3);
  });

  it('checks 200,000 wrong items within 20 s, where merging errors by copying took minutes', () => {
    const started = performance.now();
    const result = checkExchange(contracts.hooks!, hooksList(200_000));
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(result.findings.length).toBeLessThanOrEqual(maxFindings);
  });

  it('reports at most 100 findings, says listing stopped, and counts the rest, in a small result', () => {
    const result = checkExchange(contracts.hooks!, hooksList(200_000));
    expect(result.findings).toHaveLength(maxFindings);
    expect(result.findings[0]!.message).toMatch(/too many schema errors to list: listing stopped after 10000/);
    expect(result.findings[1]).toMatchObject({ instancePath: '/0', message: '/0 must be object, not 1' });
    expect(omittedCount(result)).toBeGreaterThan(9_000);
    expect(JSON.stringify(result).length).toBeLessThan(50_000);
  });

  it('counts exactly what it left out when every error was listed', () => {
    const result = checkExchange(contracts.hooks!, hooksList(500));
    expect(result.findings).toHaveLength(maxFindings);
    expect(result.omitted).toEqual({ response_schema_conformance: 400 });
  });

  it('keeps the first finding of every check that found something, however many another check found', () => {
    // 500 wrong line items (response_schema_conformance) and no paymentMethod anywhere (payment_method_placement).
    const body = JSON.stringify({ order: { lineItems: Array(500).fill(1) } });
    const result = checkExchange(contracts.session!, response('/client-session', body));
    expect(result.findings).toHaveLength(maxFindings);
    expect(result.findings.at(-1)).toMatchObject({ check: 'payment_method_placement' });
    expect(result.omitted).toEqual({ response_schema_conformance: 401 });
  });
});

describe('checking with --strict a body with a million unknown fields', () => {
  it('lists the first of them and does not call the body nested too deeply', () => {
    const fields = Array.from({ length: 1_000_000 }, (_, index) => `"k${index}":1`).join(',');
    const body = `{"id":1,"name":"web","active":true,"events":["push"],"config":{"url":"https://x"},${fields}}`;
    const result = checkExchange(contracts.hooks!, response('/repos/o/r/hooks/1', body), { strict: true });
    const messages = result.findings.map((finding) => finding.message);
    expect(messages.join('\n')).not.toMatch(/nested too deeply/);
    expect(messages).toContain('body has a field the spec does not list: "k0" (--strict)');
    expect(result.findings.length).toBeLessThanOrEqual(maxFindings);
  });
});

describe('when listing stops inside an alternative', () => {
  it('passes a body that one alternative accepts, however many errors the other one made', () => {
    const result = checkExchange(contracts.alternatives!, response('/list', `[${Array(30_000).fill('7').join(',')}]`));
    expect(result.findings).toEqual([]);
  });

  it('fails a body that neither alternative accepts, listing the first errors', () => {
    const result = checkExchange(
      contracts.alternatives!,
      response('/list', `[${Array(30_000).fill('"x"').join(',')}]`),
    );
    expect(result.findings[0]!.message).toMatch(/too many schema errors to list/);
    expect(result.findings.length).toBeGreaterThan(1);
    expect(result.findings.every((finding) => finding.check === 'response_schema_conformance')).toBe(true);
  });
});

describe('errors under a key the body chose', () => {
  it('repeat at most 200 characters of it, so the findings stay small however long the key', () => {
    const key = 'k'.repeat(100_000);
    const result = checkExchange(
      contracts.alternatives!,
      response('/map', JSON.stringify({ [key]: Array(500).fill('x') })),
    );
    expect(result.findings).toHaveLength(maxFindings);
    expect(result.findings[0]!.instancePath).toMatch(/^\/k{199}… \(100003 characters\)$/);
    expect(JSON.stringify(result).length).toBeLessThan(100_000);
  });
});

describe('a check that throws', () => {
  it.each([
    ['a stack overflow', new RangeError('Maximum call stack size exceeded'), 'the body is nested too deeply'],
    [
      'an array too long',
      new RangeError('Invalid array length'),
      'the body is too large to check (Invalid array length)',
    ],
    [
      'a string too long',
      new RangeError('Invalid string length'),
      'the body is too large to check (Invalid string length)',
    ],
    ['any other error', new TypeError('x is not a function'), 'x is not a function'],
  ])('is labelled by its real cause: %s', (_name, error, want) => {
    expect(cannotCheck(error)).toBe(want);
  });
});
