import { describe, expect, it } from 'vitest';
import { applyPolicy, parseIgnoreEntries } from '../../src/core/diff/diff-policy.js';
import { diffSpecs } from '../../src/core/diff/diff-specs.js';
import { renderDiff, summaryLine, type DiffReport } from '../../src/diff/diff-reports.js';
import { githubCommand } from '../../src/lint/github-annotations.js';
import { load, object, request, response } from './spec-pairs.js';

// A property name is whatever the spec author typed: it must not break out of a workflow command or a table row.
const hostile = 'x\n::error file=evil.yaml,line=1::pwned|<img src=x>%0A';
const base = load('base.json', response(object({ [hostile]: { type: 'string' } }, { required: [hostile] })));
const head = load('head.json', response(object({})));
const changes = diffSpecs(base, head);
const report = (over: Partial<DiffReport> = {}): DiffReport => ({
  changes,
  ignored: [],
  title: 'base → head',
  failOn: 'error',
  ...over,
});

describe('diff reports', () => {
  it('keeps a hostile field name inside one GitHub workflow command', () => {
    const out = renderDiff(report(), 'github');
    expect(out.split('\n')).toHaveLength(1);
    expect(out).toMatch(
      /^::error file=base\.json,line=\d+,col=\d+,title=response-property-removed::response body \/x%0A::error file=evil\.yaml,line=1::pwned\|<img src=x>%250A: was required and is removed/,
    );
  });

  it('escapes workflow command properties, so a file name cannot add properties', () => {
    expect(githubCommand('warning', { file: 'a,line=9:b.yaml', line: 3, title: 't' }, '100% done\r\n')).toBe(
      '::warning file=a%2Cline=9%3Ab.yaml,line=3,title=t::100%25 done%0D%0A',
    );
  });

  it('keeps a hostile field name inside one markdown table row, as text', () => {
    const rows = renderDiff(report(), 'markdown')
      .split('\n')
      .filter((line) => line.startsWith('| 🔴'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('pwned\\|&lt;img src=x&gt;');
  });

  it('lists every operation a change touches on its own line of the markdown cell', () => {
    const shared = { ...changes[0]!, operations: ['GET /a', 'GET /b'] };
    expect(renderDiff(report({ changes: [shared] }), 'markdown')).toContain('| GET /a<br>GET /b<br>`base.json:');
  });

  it('names the first operations of a change that reaches many, and how many more; JSON lists them all', () => {
    const operations = Array.from({ length: 1204 }, (_, index) => `GET /r${index}`);
    const shared = { ...changes[0]!, operations };
    const text = renderDiff(report({ changes: [shared] }), 'text');
    expect(text).toContain('[GET /r0; GET /r1; GET /r2; GET /r3; GET /r4; and 1,199 more operations (--format json');
    expect(text).not.toContain('GET /r5;');
    expect(renderDiff(report({ changes: [shared] }), 'github')).toContain('GET /r4; and 1,199 more operations');
    expect(renderDiff(report({ changes: [shared] }), 'markdown')).toContain('GET /r4<br>and 1,199 more operations');
    expect(JSON.parse(renderDiff(report({ changes: [shared] }), 'json')).changes[0].operations).toHaveLength(1204);
    const six = { ...changes[0]!, operations: operations.slice(0, 6) };
    expect(renderDiff(report({ changes: [six] }), 'text')).toContain('GET /r5]');
  });

  it('says there is no change in markdown when there is none', () => {
    expect(renderDiff(report({ changes: [] }), 'markdown')).toContain('No changes to the API contract.');
  });

  it('escapes XML in JUnit', () => {
    expect(renderDiff(report(), 'junit')).toContain('&lt;img src=x&gt;');
  });

  it('counts levels and ignored changes in the summary line', () => {
    const ignores = parseIgnoreEntries('i.yaml', [
      { rule: 'response-property-removed', reason: 'agreed with clients' },
    ]);
    const result = applyPolicy(changes, { levels: new Map(), ignores });
    expect(summaryLine({ ...result, title: '', failOn: 'error' })).toBe(
      '0 changes: 0 breaking (error), 0 warnings, 0 info, 1 ignored',
    );
  });

  it('matches ignore entries by file, file:line or operation, and nothing else', () => {
    const pair = diffSpecs(
      load('b.json', request(object({ a: { type: 'string' } }))),
      load('h.json', request(object({ a: { type: 'string' } }, { required: ['a'] }))),
    );
    const [change] = pair;
    const entry = (location: string) => parseIgnoreEntries('i.yaml', [{ rule: change!.rule, location, reason: 'r' }]);
    for (const location of ['h.json', `h.json:${change!.line}`, 'POST /items'])
      expect(applyPolicy(pair, { levels: new Map(), ignores: entry(location) }).changes).toEqual([]);
    for (const location of ['b.json', 'h.json:1', 'GET /items'])
      expect(applyPolicy(pair, { levels: new Map(), ignores: entry(location) }).changes).toHaveLength(1);
  });
});
