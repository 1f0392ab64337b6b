// The reference pages of docs/ are what the code's own tables make: a command, option, diff rule or config key added
// without `npm run docs:reference` fails here, as a stale generated type fails `contracts generate --check`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { referenceCommands, referencePages } from '../../scripts/docs-reference.js';
import { root } from '../helpers/paths.js';

it('each reference page is what scripts/docs-reference.ts writes from the tables (npm run docs:reference)', async () => {
  const pages = await referencePages();
  expect(Object.keys(pages).sort()).toEqual([
    'docs/reference/checks.md',
    'docs/reference/commands.md',
    'docs/reference/config.md',
    'docs/reference/diff-rules.md',
  ]);
  for (const [file, text] of Object.entries(pages))
    expect(readFileSync(path.join(root, file), 'utf8'), `${file} is stale: run npm run docs:reference`).toBe(text);
});

it('lists every command, every option of each, every check, every diff rule and every config key', async () => {
  const pages = await referencePages();
  const { diffRules } = await import('../../src/core/diff/diff-rules.js');
  for (const command of await referenceCommands()) {
    expect(pages['docs/reference/commands.md']).toContain(`## \`contracts ${command.name}\``);
    for (const option of command.options) expect(pages['docs/reference/commands.md']).toContain(`--${option.name}`);
  }
  const { checkNames } = await import('../../src/core/finding.js');
  for (const name of checkNames) expect(pages['docs/reference/checks.md']).toContain(`| \`${name}\` |`);
  for (const rule of diffRules) expect(pages['docs/reference/diff-rules.md']).toContain(`| \`${rule.id}\` |`);
  const schema = JSON.parse(readFileSync(path.join(root, 'schemas/contracts-config.schema.json'), 'utf8'));
  const keys = new Set<string>();
  const collect = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    const { properties } = node as { properties?: Record<string, unknown> };
    if (properties && !Array.isArray(node)) for (const key of Object.keys(properties)) keys.add(key);
    for (const value of Object.values(node)) collect(value);
  };
  collect(schema);
  expect(keys.size).toBeGreaterThan(20);
  for (const key of keys)
    expect(pages['docs/reference/config.md'], key).toMatch(new RegExp(`\`(?:[^\`]*\\.)?${key.replace('$', '\\$')}\``));
});
