// The values the walk sends, drawn from the schemas with the run's seed (the same seed, the same requests): bodies
// for creates and writes, the id a PUT-create names, a page size small enough to make pages. The validators judge
// each request before it is sent (executor.ts): a value the spec refuses is never sent as a valid request.
import fc from 'fast-check';
import { followSchema, propertiesOf } from '../../core/resource-model/schema-shape.js';
import { isPlainObject } from '../fuzz-case.js';
import type { ParamValue } from '../request-model.js';
import { schemaArbitrary } from '../schema-arbitrary.js';

/** Bodies tried per write: the first the target takes with 2xx is the one judged. */
export const bodiesPerWrite = 3;

/** `count` values of a schema, from `seed`; objects with at least one field first (a write that sets something). */
export function drawnBodies(document: unknown, schema: unknown, seed: number, count = bodiesPerWrite): unknown[] {
  const drawn = fc.sample(schemaArbitrary(document, schema), { seed, numRuns: count * 4 });
  const setting = drawn.filter((value) => isPlainObject(value) && Object.keys(value).length > 0);
  return [...setting, ...drawn.filter((value) => !setting.includes(value))].slice(0, count);
}

/** The id a PUT-create puts its resource at: unique to the run (its marker) where the schema lets it be. */
export function freshId(document: unknown, schema: unknown, marker: string, index: number, seed: number): ParamValue {
  const { schema: resolved } = followSchema(document, schema);
  const free =
    resolved === undefined ||
    ((resolved.type === undefined || resolved.type === 'string') &&
      resolved.pattern === undefined &&
      resolved.format === undefined &&
      resolved.enum === undefined &&
      (typeof resolved.maxLength !== 'number' || resolved.maxLength >= 24));
  if (free) return `contracts-${marker}-${index}`;
  const [value] = fc.sample(schemaArbitrary(document, schema, { nonEmpty: true }), { seed: seed + index, numRuns: 1 });
  return typeof value === 'number' || typeof value === 'string' ? value : `contracts-${marker}-${index}`;
}

/** The smallest page size a size parameter allows (at least 1): small pages make the walk page. */
export function smallPageSize(document: unknown, schema: unknown): number {
  const { schema: resolved } = followSchema(document, schema);
  const minimum = typeof resolved?.minimum === 'number' ? Math.ceil(resolved.minimum) : 1;
  return Math.max(1, minimum, typeof resolved?.exclusiveMinimum === 'number' ? resolved.exclusiveMinimum + 1 : 1);
}

/** One more than the smallest page size, where the size parameter allows it; else undefined (no second walk). */
export function nextPageSize(document: unknown, schema: unknown): number | undefined {
  const { schema: resolved } = followSchema(document, schema);
  const next = smallPageSize(document, schema) + 1;
  if (typeof resolved?.maximum === 'number' && next > resolved.maximum) return undefined;
  if (typeof resolved?.exclusiveMaximum === 'number' && next >= resolved.exclusiveMaximum) return undefined;
  if (typeof resolved?.multipleOf === 'number' && next % resolved.multipleOf !== 0) return undefined;
  return next;
}

/** The largest page size a size parameter allows (its maximum), or undefined for the server's default. */
export function largePageSize(document: unknown, schema: unknown): number | undefined {
  const { schema: resolved } = followSchema(document, schema);
  return typeof resolved?.maximum === 'number' && resolved.maximum >= 1 ? Math.floor(resolved.maximum) : undefined;
}

/** The fields of a resource's schema never judged by read_after_write: readOnly and writeOnly ones. */
export function exceptedFields(document: unknown, schemaName: string | undefined): Set<string> {
  const excepted = new Set<string>();
  if (schemaName === undefined) return excepted;
  const ref = `#/components/schemas/${schemaName.replaceAll('~', '~0').replaceAll('/', '~1')}`;
  for (const [name, property] of propertiesOf(document, { $ref: ref })) {
    const { schema } = followSchema(document, property);
    if (schema?.readOnly === true || schema?.writeOnly === true) excepted.add(name);
  }
  return excepted;
}

/** A seeded order of a list (fast-check's shuffle): the same seed, the same order. */
export function seededOrder<T>(items: readonly T[], seed: number): T[] {
  if (items.length < 2) return [...items];
  const [order] = fc.sample(
    fc.shuffledSubarray([...items.keys()], { minLength: items.length, maxLength: items.length }),
    { seed, numRuns: 1 },
  );
  return order!.map((index) => items[index]!);
}
