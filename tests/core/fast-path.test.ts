// A conforming value costs one first-error validation; the all-errors validator runs only when that one fails.
// The property: for any value, the verdict and the errors listed are those the all-errors validator gives alone
// (random values, examples of the specs, and examples with one node removed, replaced or added).
import fc from 'fast-check';
import type { ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileSpec, type CompiledSpec } from '../../src/core/compile-spec.js';
import { exampleSites } from '../../src/core/example-sites.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { strictDocument } from '../../src/core/strict-schemas.js';
import { specFile } from '../helpers/paths.js';

interface Site {
  name: string;
  compiled: CompiledSpec;
  validate: ValidateFunction;
  /** Values the schema accepts, to mutate: random values alone would almost never conform. */
  examples: unknown[];
}

const sites: Site[] = [];
beforeAll(async () => {
  for (const name of ['client-session', 'repository-webhooks']) {
    const spec = await loadSpec(specFile(name));
    for (const compiled of [compileSpec(spec), compileSpec(spec, strictDocument(spec.document))]) {
      const bySchema = new Map<string, Site>();
      for (const example of exampleSites(spec.document)) {
        const key = JSON.stringify(example.schemaPath);
        let site = bySchema.get(key);
        if (!site)
          bySchema.set(
            key,
            (site = {
              name: `${name} ${key}`,
              compiled,
              validate: compiled.validatorAt(example.schemaPath),
              examples: [],
            }),
          );
        if (compiled.check(site.validate, example.value).valid) site.examples.push(example.value);
      }
      sites.push(...[...bySchema.values()].filter((site) => site.examples.length > 0));
    }
  }
});

/** A copy of `value` with the node at a random path replaced, removed, or (for objects) given an extra key. */
function mutate(value: unknown, choices: number[], replacement: unknown): unknown {
  const [choice = 0, ...rest] = choices;
  if (Array.isArray(value)) {
    if (value.length === 0 || choice % 5 === 0) return choice % 2 ? [...value, replacement] : value.slice(1);
    const index = choice % value.length;
    return value.map((item, i) => (i === index ? mutate(item, rest, replacement) : item));
  }
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 0 || choice % 7 === 0) return { ...value, [`extra${choice}`]: replacement };
    const key = keys[choice % keys.length]!;
    const copy: Record<string, unknown> = { ...value };
    if (choice % 7 === 1) delete copy[key];
    else copy[key] = mutate(copy[key], rest, replacement);
    return copy;
  }
  return rest.length === 0 || choice % 3 === 0 ? replacement : value;
}

describe('schema checking, fast path first', () => {
  it('gives the verdict and the errors of the all-errors validator alone, for mutated examples and random values', () => {
    const values = (site: Site) =>
      fc.oneof(
        fc
          .tuple(fc.constantFrom(...site.examples), fc.array(fc.nat(), { maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }))
          .map(([example, choices, replacement]) => mutate(example, choices, replacement)),
        fc.constantFrom(...site.examples),
        fc.jsonValue({ maxDepth: 3 }),
      );
    let conforming = 0;
    let failing = 0;
    fc.assert(
      fc.property(
        fc.nat().chain((index) => {
          const site = sites[index % sites.length]!;
          return values(site).map((value) => [site, value] as const);
        }),
        ([site, value]) => {
          const validation = site.compiled.check(site.validate, value);
          const allErrors = site.compiled.allErrorsValidator(site.validate);
          const valid = allErrors(value);
          expect(validation.valid).toBe(valid);
          expect(validation.errors.map((error) => [error.instancePath, error.schemaPath, error.keyword])).toEqual(
            (allErrors.errors ?? []).map((error) => [
              error.instancePath,
              error.schemaPath.replace(/^[^#]*#/, ''),
              error.keyword,
            ]),
          );
          if (valid) conforming++;
          else failing++;
        },
      ),
      { numRuns: 3000 },
    );
    // Both verdicts must be exercised, or the comparison proves little.
    expect(sites.length).toBeGreaterThan(5);
    expect(conforming).toBeGreaterThan(300);
    expect(failing).toBeGreaterThan(300);
  });

  it('never runs the all-errors validator for a conforming value', () => {
    let probed = 0;
    for (const site of sites) {
      // The all-errors validator keeps the errors of its last run: a run on a conforming value would clear them.
      const allErrors = site.compiled.allErrorsValidator(site.validate);
      allErrors({ surely: ['not', 'conforming'] });
      const before = allErrors.errors;
      if (!before) continue;
      probed++;
      expect(site.compiled.check(site.validate, site.examples[0]).valid, site.name).toBe(true);
      expect(allErrors.errors, site.name).toBe(before);
    }
    expect(probed).toBeGreaterThan(5);
  });
});
