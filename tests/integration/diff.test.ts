import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffRules } from '../../src/core/diff/diff-rules.js';
import { runCli } from '../helpers/run-cli.js';
import { specFile } from '../helpers/paths.js';

const clientSession = readFileSync(specFile('client-session'), 'utf8');
const withEnumValue = clientSession.replace('YER, ZAR, ZMW, ZWL', 'YER, ZAR, ZMW, ZWL, ZWG');
const withRequiredHeader = clientSession.replace(
  '        - $ref: "#/components/parameters/ClientToken"\n',
  '        - $ref: "#/components/parameters/ClientToken"\n        - { name: X-Request-Id, in: header, required: true, schema: { type: string } }\n',
);

let dir: string;
const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
};
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], {
    cwd: dir,
    stdio: 'pipe',
  });

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'contracts-diff-'));
  write('base.yaml', clientSession);
  write('enum.yaml', withEnumValue);
  write('header.yaml', withRequiredHeader);
  git('init', '-q', '-b', 'main');
  write('repo/specs/api.yaml', clientSession);
  git('add', 'repo/specs/api.yaml');
  git('commit', '-q', '-m', 'base');
  write('repo/specs/api.yaml', withRequiredHeader);
  write('repo/specs/new.yaml', clientSession);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('contracts diff (real process)', () => {
  it.each(['client-session', 'repository-webhooks'])(
    'finds nothing between specs/%s.yaml and itself, and exits 0',
    async (name) => {
      const result = await runCli(['diff', `specs/${name}.yaml`, `specs/${name}.yaml`]);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('0 changes');
      expect(result.code).toBe(0);
    },
  );

  it('exits 1 on a breaking change, naming file:line in HEAD, rule and operation', async () => {
    const result = await runCli(['diff', 'base.yaml', 'header.yaml'], { cwd: dir });
    expect(result.stdout.trim()).toBe(
      'header.yaml:35:11 error request-required-parameter-added required header parameter x-request-id added [GET /client-session]',
    );
    expect(result.code).toBe(1);
  });

  it('exits 0 on a warning, and 1 with --fail-on warning', async () => {
    expect((await runCli(['diff', 'base.yaml', 'enum.yaml'], { cwd: dir })).code).toBe(0);
    const strict = await runCli(['diff', '--fail-on', 'warning', 'base.yaml', 'enum.yaml'], { cwd: dir });
    expect(strict.stdout).toMatch(
      /^enum\.yaml:\d+:\d+ warning response-enum-value-added response body \/currencyCode: may now be "ZWG"/,
    );
    expect(strict.code).toBe(1);
  });

  it('changes a rule level with --level, and turns a rule off', async () => {
    const raised = await runCli(['diff', '--level', 'response-enum-value-added=error', 'base.yaml', 'enum.yaml'], {
      cwd: dir,
    });
    expect(raised.stdout).toContain(' error response-enum-value-added ');
    expect(raised.code).toBe(1);
    const off = await runCli(['diff', '--level', 'request-required-parameter-added=off', 'base.yaml', 'header.yaml'], {
      cwd: dir,
    });
    expect([off.stdout, off.code]).toEqual(['', 0]);
  });

  it('accepts a change listed in the ignore file with its reason, and reports it as ignored', async () => {
    const ignore = write(
      'accepted.yaml',
      '- rule: request-required-parameter-added\n  location: GET /client-session\n  reason: every client sends X-Request-Id since 2.3\n',
    );
    const result = await runCli(['diff', '--format', 'json', '--ignore-file', ignore, 'base.yaml', 'header.yaml'], {
      cwd: dir,
    });
    const report = JSON.parse(result.stdout) as { changes: unknown[]; ignored: { reason: string }[] };
    expect(report.changes).toEqual([]);
    expect(report.ignored.map((i) => i.reason)).toEqual(['every client sends X-Request-Id since 2.3']);
    expect(result.code).toBe(0);
  });

  it('reads .contracts-diff-ignore.yaml from the working directory by default', async () => {
    write(
      '.contracts-diff-ignore.yaml',
      '- rule: request-required-parameter-added\n  location: header.yaml\n  reason: accepted\n',
    );
    try {
      expect((await runCli(['diff', 'base.yaml', 'header.yaml'], { cwd: dir })).code).toBe(0);
    } finally {
      rmSync(path.join(dir, '.contracts-diff-ignore.yaml'));
    }
  });

  it('compares each spec with its version at a git ref, most severe first; a spec new since then is all new operations', async () => {
    const result = await runCli(['diff', '--base', 'main', 'repo/specs/new.yaml', 'repo/specs/api.yaml'], { cwd: dir });
    expect(result.stdout.trim().split('\n')).toEqual([
      'repo/specs/api.yaml:35:11 error request-required-parameter-added required header parameter x-request-id added [GET /client-session]',
      'repo/specs/new.yaml:27:5 info operation-added GET /client-session added',
    ]);
    expect(result.code).toBe(1);
  });

  it('finds no change in the shipped specs against HEAD of this checkout when they are committed', async () => {
    const dirty = execFileSync('git', ['status', '--porcelain', 'specs'], { encoding: 'utf8' });
    const result = await runCli(['diff', '--base', 'HEAD']);
    if (dirty === '') expect([result.stdout, result.code]).toEqual(['', 0]);
    else expect(result.code).not.toBe(2);
  });

  it.each([
    [
      'a ref that does not exist',
      ['diff', '--base', 'no-such-branch', 'repo/specs/api.yaml'],
      /^contracts diff: --base no-such-branch: no such commit, branch or tag/,
    ],
    [
      'a ref that looks like an option',
      ['diff', '--base=--output=x', 'repo/specs/api.yaml'],
      /^contracts diff: --base takes a git ref, not "--output=x"/,
    ],
    ['one file only', ['diff', 'base.yaml'], /^contracts diff: give two spec files \(BASE HEAD\), or --base REF/],
    ['a missing file', ['diff', 'base.yaml', 'nope.yaml'], /^contracts diff: spec not found: nope\.yaml/],
    [
      'an unknown rule in --level',
      ['diff', '--level', 'no-such-rule=off', 'base.yaml', 'base.yaml'],
      /unknown rule "no-such-rule"/,
    ],
    [
      'a bad level',
      ['diff', '--level', 'path-removed=fatal', 'base.yaml', 'base.yaml'],
      /takes one of error, warning, info, off, not "fatal"/,
    ],
    [
      'a bad --format',
      ['diff', '--format', 'xml', 'base.yaml', 'base.yaml'],
      /--format must be one of text, json, markdown, junit, github/,
    ],
  ])('exits 2 with one clear line for %s', async (_name, args, message) => {
    const result = await runCli(args, { cwd: dir });
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.code).toBe(2);
  });

  it.each([
    ['missing', 'nope.yaml', /spec not found: nope\.yaml$/],
    ['not YAML', 'tests/fixtures/specs/not-yaml.yaml', /not-yaml\.yaml:4:1: not valid YAML or JSON: /],
    [
      'with a broken $ref',
      'tests/fixtures/specs/broken-ref.yaml',
      /broken-ref\.yaml:32:17: \$ref "#\/components\/schemas\/Itme" does not resolve/,
    ],
    [
      'Swagger 1.2',
      'tests/fixtures/specs/swagger-12.yaml',
      /swagger-12\.yaml:2:1: only Swagger 2\.0 and OpenAPI 3\.0, 3\.1 and 3\.2 are supported, found swagger: 1\.2/,
    ],
  ])('exits 2 with one clear line for a spec %s, as BASE or as HEAD', async (_kind, file, message) => {
    for (const args of [
      ['diff', file, 'specs/client-session.yaml'],
      ['diff', 'specs/client-session.yaml', file],
    ]) {
      const result = await runCli(args);
      expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^contracts diff: /)]);
      expect(result.stderr.trim()).toMatch(message);
      expect(result.code).toBe(2);
    }
  });

  it('exits 2 when an ignore entry gives no reason', async () => {
    const ignore = write('no-reason.yaml', '- rule: request-required-parameter-added\n');
    const result = await runCli(['diff', '--ignore-file', ignore, 'base.yaml', 'header.yaml'], { cwd: dir });
    expect(result.stderr).toMatch(/no-reason\.yaml: entry 1: every ignored change needs a reason/);
    expect(result.code).toBe(2);
  });

  it('lists every rule of the table with its level in --help (a long description wrapped under its column)', async () => {
    const result = await runCli(['diff', '--help']);
    for (const rule of diffRules)
      expect(result.stdout).toMatch(
        new RegExp(
          `^  ${rule.id} +${rule.level} +${rule.description.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+')}$`,
          'm',
        ),
      );
    for (const option of ['--base', '--format', '--fail-on', '--level', '--ignore-file'])
      expect(result.stdout).toContain(option);
    expect(result.code).toBe(0);
  });

  it('appears in the main help', async () => {
    expect((await runCli(['--help'])).stdout).toMatch(/^ {2}diff +Classify spec changes/m);
  });
});

describe('contracts diff formats (real process)', () => {
  it('writes GitHub workflow commands, one per change, with file, line, column and rule', async () => {
    const result = await runCli(['diff', '--format', 'github', 'base.yaml', 'header.yaml'], { cwd: dir });
    expect(result.stdout.trim()).toBe(
      '::error file=header.yaml,line=35,col=11,title=request-required-parameter-added::required header parameter x-request-id added (GET /client-session)',
    );
  });

  it('writes a markdown report with a table of changes', async () => {
    const result = await runCli(['diff', '--format', 'markdown', 'base.yaml', 'enum.yaml'], { cwd: dir });
    expect(result.stdout).toContain('### API changes: base.yaml → enum.yaml');
    expect(result.stdout).toContain('| Level | Rule | Change | Where |');
    expect(result.stdout).toMatch(
      /^\| 🟠 warning \| `response-enum-value-added` \| response body \/currencyCode: may now be "ZWG" \| GET \/client-session → 200 \(application\/json\)<br>`enum\.yaml:\d+` \|$/m,
    );
  });

  it('writes JUnit XML with a failing testcase for each change at or above --fail-on', async () => {
    const result = await runCli(['diff', '--format', 'junit', 'base.yaml', 'header.yaml'], { cwd: dir });
    expect(result.stdout).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="contracts diff" tests="2" failures="1" errors="0">/,
    );
    expect(result.stdout).toContain('<testcase classname="contracts.diff.request-required-parameter-added"');
    expect(result.stdout).toContain('<failure message="required header parameter x-request-id added" type="error">');
  });
});
