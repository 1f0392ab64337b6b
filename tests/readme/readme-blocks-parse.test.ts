// How README.md's blocks are read into commands: what runs, what it must exit with, what is a server.
import { describe, expect, it } from 'vitest';
import { parseDirectives, parseReadme, splitComment } from './readme-blocks.js';

const fence = '```';

describe('reading README blocks', () => {
  it.each([
    ['npx contracts lint   # both specs', 'npx contracts lint', 'both specs'],
    [`curl -d '{"a":"#x"}' u # 201`, `curl -d '{"a":"#x"}' u`, '201'],
    ['echo a#b', 'echo a#b', ''],
    ['echo "# not a comment"', 'echo "# not a comment"', ''],
  ])('splits %s at its trailing comment', (line, code, comment) => {
    expect(splitComment(line)).toEqual({ code, comment });
  });

  it('reads each command with its expected exit, joining continuation lines and dropping comment lines', () => {
    const [block] = parseReadme(
      [
        '## Section',
        '',
        `${fence}sh`,
        '# a comment line',
        'npx contracts check   # … exits 0',
        'npx contracts diff a \\',
        '  b   # exits 1',
        `${fence}`,
      ].join('\n'),
    );
    expect(block!.section).toBe('Section');
    expect(block!.commands.map((c) => [c.bare, c.expectedExit, c.server])).toEqual([
      ['npx contracts check', 0, false],
      ['npx contracts diff a b', 1, false],
    ]);
  });

  it.each([
    ['npx contracts mock --api client-session', true],
    ['npm run sandbox', true],
    ['WEBHOOK_SECRET=x npx contracts receive --port 4030', true],
    ['npx contracts proxy --api client-session --target http://127.0.0.1:4020', true],
    ['node server.js &   # in another terminal', true],
    ['npx contracts check', false],
    ['a && b', false],
  ])('takes %s for a server: %s', (line, server) => {
    const [block] = parseReadme([`${fence}sh`, line, fence].join('\n'));
    expect(block!.commands[0]!.server).toBe(server);
  });

  it('applies the directives written right before a block, and a bare status comment on a curl line', () => {
    const [block] = parseReadme(
      [
        '<!-- readme-test: expect-exit 1; skip-command npm ci (installed) -->',
        '',
        `${fence}bash`,
        'npm ci',
        'npx contracts lint bad.yaml',
        "curl -si http://127.0.0.1:4010/x -H 'a: b'   # 404",
        fence,
      ].join('\n'),
    );
    expect(block!.commands.map((c) => [c.bare, c.skipped, c.expectedExit, c.expectedStatus])).toEqual([
      ['npm ci', 'installed', 1, undefined],
      ['npx contracts lint bad.yaml', undefined, 1, undefined],
      ["curl -si http://127.0.0.1:4010/x -H 'a: b'", undefined, 1, 404],
    ]);
  });

  it('reads a console block: $ lines are commands, the lines under each its expected output', () => {
    const [block] = parseReadme(
      [
        `${fence}console`,
        '$ npx contracts lint x.yaml',
        'x.yaml:1:1 error rule message',
        '',
        '$ echo hi',
        'hi',
        fence,
      ].join('\n'),
    );
    expect(block!.commands.map((c) => [c.bare, c.output])).toEqual([
      ['npx contracts lint x.yaml', ['x.yaml:1:1 error rule message']],
      ['echo hi', ['hi']],
    ]);
  });

  it('refuses a directive it does not know, naming the line, rather than ignoring it', () => {
    expect(() => parseDirectives('<!-- readme-test: skip-everything -->', 12)).toThrow(
      /README\.md:12: .*skip-everything/,
    );
    expect(() => parseDirectives('<!-- readme-test: skip -->', 3)).toThrow(/README\.md:3/);
    expect(parseDirectives('<!-- an ordinary comment -->', 1)).toEqual([]);
  });
});
