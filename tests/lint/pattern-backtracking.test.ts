// contracts-pattern-backtracking: a pattern the linear-time engine cannot run is named where it is written
// (issue 26, item 4).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintSpec } from '../../src/lint/lint-spec.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-lint-patterns-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A spec that lints clean but for its patterns. */
function spec(query: string, properties: Record<string, unknown>, patternProperties: Record<string, unknown>): string {
  return JSON.stringify(
    {
      openapi: '3.1.0',
      info: { title: 'Patterns', version: '1', description: 'Patterns.' },
      servers: [{ url: 'http://127.0.0.1:4999' }],
      tags: [{ name: 'names', description: 'Names.' }],
      paths: {
        '/names': {
          get: {
            operationId: 'getName',
            summary: 'Get a name',
            description: 'Returns a name.',
            tags: ['names'],
            parameters: [{ name: 'q', in: 'query', description: 'Query.', schema: { type: 'string', pattern: query } }],
            responses: {
              '200': {
                description: 'The name.',
                content: {
                  'application/json': { schema: { type: 'object', properties, patternProperties } },
                },
              },
            },
          },
        },
      },
    },
    null,
    2,
  );
}

const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;

describe('contracts-pattern-backtracking', () => {
  it('warns at each pattern RE2 cannot run, saying what it lacks, and not about one it runs', async () => {
    const text = spec(
      '^(?!admin)[a-z]+$',
      { name: { type: 'string', pattern: '^(a+)+$' }, pair: { type: 'string', pattern: '^(\\w)\\1$' } },
      { '^x-(?<=x-)y$': { type: 'string' } },
    );
    const file = path.join(dir, 'patterns.json');
    await writeFile(file, text);
    const problems = (await lintSpec(file)).filter((problem) => problem.rule === 'contracts-pattern-backtracking');
    expect(problems.map(({ severity, line, message }) => ({ severity, line, message }))).toEqual([
      {
        severity: 'warning',
        line: lineOf(text, '"^(?!admin)'),
        message:
          'pattern "^(?!admin)[a-z]+$" uses a lookahead, which the linear-time engine (RE2) lacks: it is matched by ' +
          'backtracking, where a crafted value can take seconds or more',
      },
      {
        severity: 'warning',
        line: lineOf(text, '"^(\\\\w)'),
        message: expect.stringMatching(/^pattern "\^\(\\\\w\)\\\\1\$" uses a backreference, which/),
      },
      {
        severity: 'warning',
        line: lineOf(text, '"^x-(?<='),
        message: expect.stringMatching(/^pattern "\^x-\(\?<=x-\)y\$" uses a lookbehind, which/),
      },
    ]);
  });

  it('finds nothing in a spec whose patterns all run in linear time', async () => {
    const text = spec('^[a-z0-9-]+$', { name: { type: 'string', pattern: '^(a+)+$' } }, { '^x-': { type: 'string' } });
    const file = path.join(dir, 'linear.json');
    await writeFile(file, text);
    // Its response has no example on purpose: contracts-response-example's own test covers that warning.
    expect((await lintSpec(file)).filter((problem) => problem.rule !== 'contracts-response-example')).toEqual([]);
  });
});
