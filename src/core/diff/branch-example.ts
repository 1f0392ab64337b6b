// A small instance of one branch of a normalized schema: the evidence a composition verdict shows ("e.g. {…}").
// It is only a candidate; the caller keeps it only when the real validators agree that it tells the versions apart.
import type { Branch, Norm } from './schema-branches.js';
import { setOwn } from '../own-key.js';

const formatExamples: Record<string, string> = {
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '00:00:00Z',
  email: 'someone@example.com',
  uri: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
};

export function exampleOfBranch(branch: Branch, depth = 0): unknown {
  if (depth > 16) return undefined;
  if (branch.enum) return branch.enum[0];
  switch (branch.types?.[0] ?? 'object') {
    case 'null':
      return null;
    case 'boolean':
      return false;
    case 'integer':
    case 'number':
      return number(branch);
    case 'string':
      return string(branch);
    case 'array': {
      const count = branch.counts.minItems ?? 0;
      if (count === 0) return [];
      const item = exampleOf(branch.items, depth + 1);
      return item === undefined ? undefined : Array.from({ length: count }, () => item);
    }
    default: {
      const object: Record<string, unknown> = {};
      for (const name of branch.required) {
        const value = exampleOf(branch.properties.get(name) ?? branch.additionalProperties, depth + 1);
        if (value === undefined) return undefined;
        setOwn(object, name, value);
      }
      return object;
    }
  }
}

function exampleOf(norm: Norm | undefined, depth: number): unknown {
  if (!norm) return {};
  for (const branch of norm.branches) {
    const value = exampleOfBranch(branch, depth);
    if (value !== undefined) return value;
  }
  return undefined;
}

function number(branch: Branch): number | undefined {
  const step = branch.types?.[0] === 'integer' ? 1 : 0.5;
  let value = 0;
  if (
    branch.minimum &&
    (value < branch.minimum.value || (branch.minimum.exclusive && value === branch.minimum.value))
  ) {
    value = branch.minimum.value + (branch.minimum.exclusive ? step : 0);
  }
  if (
    branch.maximum &&
    (value > branch.maximum.value || (branch.maximum.exclusive && value === branch.maximum.value))
  ) {
    value = branch.maximum.value - (branch.maximum.exclusive ? step : 0);
  }
  return value;
}

function string(branch: Branch): string | undefined {
  if (branch.patterns.length > 0 || branch.formats.length > 1) return undefined;
  const format = branch.formats[0];
  if (format !== undefined) return formatExamples[format];
  return 'x'.repeat(branch.counts.minLength ?? 0);
}
