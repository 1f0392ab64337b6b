// Finds every example in an OpenAPI 3.1 document with the schema it must satisfy: `example`/`examples` of media
// types, parameters and headers (https://spec.openapis.org/oas/v3.1.0#example-object) and `examples` of schemas.
import { resolvePointer } from './load-spec.js';
import { rootSchemaSites, subschemaSites } from './schema-sites.js';
import type { JsonPath } from './source-locator.js';

export interface ExampleSite {
  /** Where the example is written (for messages). */
  examplePath: JsonPath;
  /** The schema the example must satisfy. */
  schemaPath: JsonPath;
  value: unknown;
  /** A readable name: `examples.nameOnly`, `example`, `examples[0]`. */
  label: string;
}

export function exampleSites(document: unknown): ExampleSite[] {
  const sites: ExampleSite[] = [];
  const walk = (node: unknown, path: (string | number)[]): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, [...path, index]));
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const object = node as Record<string, unknown>;
    if (
      'schema' in object &&
      (path[path.length - 2] === 'content' ||
        'in' in object ||
        path[path.length - 2] === 'headers' ||
        path[path.length - 2] === 'parameters')
    ) {
      sites.push(...mediaExamples(document, object, path));
    }
    for (const [key, child] of Object.entries(object)) {
      if (key === 'schema' || key === 'example' || key === 'examples' || key.startsWith('x-')) continue;
      if (path.length === 2 && path[0] === 'components' && (path[1] === 'schemas' || path[1] === 'examples')) continue;
      walk(child, [...path, key]);
    }
  };
  walk(document, []);
  for (const root of rootSchemaSites(document)) {
    for (const site of subschemaSites(root)) {
      if (typeof site.schema === 'boolean') continue;
      const values = site.schema.examples;
      if (Array.isArray(values)) {
        values.forEach((value, index) =>
          sites.push({
            examplePath: [...site.path, 'examples', index],
            schemaPath: site.path,
            value,
            label: `examples[${index}]`,
          }),
        );
      }
      if ('example' in site.schema)
        sites.push({
          examplePath: [...site.path, 'example'],
          schemaPath: site.path,
          value: site.schema.example,
          label: 'example',
        });
    }
  }
  return sites;
}

function mediaExamples(document: unknown, object: Record<string, unknown>, path: JsonPath): ExampleSite[] {
  const schemaPath = [...path, 'schema'];
  const sites: ExampleSite[] = [];
  if ('example' in object)
    sites.push({ examplePath: [...path, 'example'], schemaPath, value: object.example, label: 'example' });
  const examples = object.examples;
  if (examples !== null && typeof examples === 'object' && !Array.isArray(examples)) {
    for (const [name, raw] of Object.entries(examples as Record<string, unknown>)) {
      const example = resolveExample(document, raw);
      if (example && 'value' in example) {
        const examplePath = isRef(raw) ? [...path, 'examples', name] : [...path, 'examples', name, 'value'];
        sites.push({ examplePath, schemaPath, value: example.value, label: `examples.${name}` });
      }
    }
  }
  return sites;
}

function resolveExample(document: unknown, raw: unknown): Record<string, unknown> | undefined {
  let value = raw;
  for (let hops = 0; isRef(value) && hops < 10; hops++) value = resolvePointer(document, value.$ref);
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function isRef(value: unknown): value is { $ref: string } {
  return value !== null && typeof value === 'object' && typeof (value as { $ref?: unknown }).$ref === 'string';
}
