import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, readSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ContractsError } from '../../src/core/errors.js';
import { Redactor } from '../../src/reports/redact.js';
import { checkReportTargets } from '../../src/reports/report-path.js';
import { writeReports } from '../../src/reports/write-reports.js';
import type { CheckRun } from '../../src/reports/check-run.js';

const run: CheckRun = {
  mode: 'mock',
  targets: {},
  results: [],
  summary: { passed: 0, failed: 0, skipped: 0 },
  notRun: [],
  durationMs: 1,
};

let dir: string;
let n = 0;
const fresh = async () => {
  const sub = path.join(dir, `case-${++n}`);
  await mkdir(sub);
  return sub;
};
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-reports-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const write = (file: string) => writeReports(run, [{ kind: 'json', file }], new Redactor());
const isReport = (text: string) => (JSON.parse(text) as { summary?: unknown }).summary !== undefined;

describe('writeReports', () => {
  it('does not follow a symlink planted at a temporary name, and leaves no temporary file behind', async () => {
    const sub = await fresh();
    const victim = path.join(sub, 'victim.txt');
    await writeFile(victim, 'precious');
    const report = path.join(sub, 'report.json');
    // The names a predictable scheme would use (pid-based), all pointing at the victim.
    for (const name of [`${report}.${process.pid}.tmp`, `${report}.tmp`]) await symlink(victim, name);
    await write(report);
    expect(await readFile(victim, 'utf8')).toBe('precious');
    expect((await lstat(report)).isFile()).toBe(true);
    expect(isReport(await readFile(report, 'utf8'))).toBe(true);
    expect((await readdir(sub)).sort()).toEqual(
      ['report.json', `report.json.${process.pid}.tmp`, 'report.json.tmp', 'victim.txt'].sort(),
    );
  });

  it('writes through a report path that is a symlink, keeping the link', async () => {
    const sub = await fresh();
    const real = path.join(sub, 'elsewhere', 'real.json');
    await mkdir(path.dirname(real));
    await writeFile(real, 'old');
    const link = path.join(sub, 'report.json');
    await symlink(real, link);
    await write(link);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(real);
    expect(isReport(await readFile(real, 'utf8'))).toBe(true);
  });

  it('writes through a dangling symlink, creating the file it points at', async () => {
    const sub = await fresh();
    const real = path.join(sub, 'not-yet.json');
    const link = path.join(sub, 'report.json');
    await symlink('not-yet.json', link);
    await write(link);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(isReport(await readFile(real, 'utf8'))).toBe(true);
  });

  it('keeps the permissions of a report it replaces', async () => {
    const sub = await fresh();
    const report = path.join(sub, 'report.json');
    await writeFile(report, 'old', { mode: 0o600 });
    await write(report);
    expect((await stat(report)).mode & 0o777).toBe(0o600);
    expect(isReport(await readFile(report, 'utf8'))).toBe(true);
  });

  it('writes into a FIFO in place instead of replacing it with a file', async () => {
    const sub = await fresh();
    const fifo = path.join(sub, 'pipe');
    execFileSync('mkfifo', [fifo]);
    // A non-blocking reader: the writer's open does not wait, and a test without the fix cannot hang on it.
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      await write(fifo);
      expect((await lstat(fifo)).isFIFO()).toBe(true);
      const buffer = Buffer.alloc(1 << 16);
      const length = readSync(reader, buffer, 0, buffer.length, null);
      expect(isReport(buffer.subarray(0, length).toString('utf8'))).toBe(true);
    } finally {
      closeSync(reader);
    }
  });

  it('writes a report to /dev/stdout through the stdout stream, escaping control characters like any console line', async () => {
    const hostile: CheckRun = {
      ...run,
      error: new ContractsError('TARGET_UNREACHABLE', 'from the target: \u009b31m\u001b]0;x\u0007'),
    };
    const chunks: string[] = [];
    const spy = vi
      .spyOn(process.stdout, 'write')
      .mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
        chunks.push(String(chunk));
        const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
        callback?.();
        return true;
      });
    try {
      await writeReports(hostile, [{ kind: 'json', file: '/dev/stdout' }], new Redactor());
    } finally {
      spy.mockRestore();
    }
    const written = chunks.join('');
    expect(written).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect((JSON.parse(written) as { error: { message: string } }).error.message).toBe(
      'from the target: \u009b31m\u001b]0;x\u0007',
    );
  });

  it('names the file in the way when a parent of the report path is a file', async () => {
    const sub = await fresh();
    await writeFile(path.join(sub, 'reports'), 'a file');
    const error = await write(path.join(sub, 'reports', 'deeper', 'r.json')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractsError);
    expect((error as ContractsError).message).toMatch(
      /cannot write the json report to .*r\.json: .*reports is a file, not a folder$/,
    );
    expect((error as ContractsError).message).not.toMatch(/EEXIST|ENOTDIR/);
  });
});

describe('checkReportTargets', () => {
  it.each<[string, { given: (sub: string) => Promise<string>; want: RegExp | undefined }]>([
    ['a new file', { given: async (sub) => path.join(sub, 'new', 'r.json'), want: undefined }],
    [
      'an existing report',
      {
        given: async (sub) => {
          await writeFile(path.join(sub, 'r.json'), '{}');
          return path.join(sub, 'r.json');
        },
        want: undefined,
      },
    ],
    ['/dev/null', { given: async () => '/dev/null', want: undefined }],
    [
      'the spec itself',
      {
        given: async (sub) => path.join(sub, 'spec.yaml'),
        want: /would overwrite the test spec: write the report elsewhere$/,
      },
    ],
    [
      'the spec by another way',
      { given: async (sub) => path.join(sub, 'new', '..', 'spec.yaml'), want: /would overwrite the test spec/ },
    ],
    [
      'a symlink to the spec',
      {
        given: async (sub) => {
          await symlink(path.join(sub, 'spec.yaml'), path.join(sub, 'link.json'));
          return path.join(sub, 'link.json');
        },
        want: /would overwrite the test spec/,
      },
    ],
    [
      'the spec through a symlinked folder',
      {
        given: async (sub) => {
          await symlink(sub, path.join(sub, 'alias'));
          return path.join(sub, 'alias', 'spec.yaml');
        },
        want: /would overwrite the test spec/,
      },
    ],
    ['a directory', { given: async (sub) => sub, want: /is a directory: name a file$/ }],
    [
      'a path under a file',
      { given: async (sub) => path.join(sub, 'spec.yaml', 'r.json'), want: /spec\.yaml is a file, not a folder$/ },
    ],
  ])('for %s', async (_name, { given, want }) => {
    const sub = await fresh();
    await writeFile(path.join(sub, 'spec.yaml'), 'openapi: 3.1.0');
    const file = await given(sub);
    const result = await checkReportTargets(
      [{ kind: 'json', file }],
      [{ file: path.join(sub, 'spec.yaml'), what: 'the test spec' }],
    ).catch((e: unknown) => e);
    if (want === undefined) expect(result).toBeUndefined();
    else {
      expect(result).toBeInstanceOf(ContractsError);
      expect((result as ContractsError).message).toMatch(want);
    }
  });

  it('refuses two reports to the same file', async () => {
    const sub = await fresh();
    const file = path.join(sub, 'r.xml');
    const error = await checkReportTargets(
      [
        { kind: 'json', file },
        { kind: 'junit', file },
      ],
      [],
    ).catch((e: unknown) => e);
    expect((error as ContractsError).message).toMatch(
      /--report junit:.*r\.xml is the same file as --report json:.*r\.xml/,
    );
  });
});

describe('the title of the HTML and JUnit reports', () => {
  it.each([
    ['a check run', run, 'contracts check'],
    ['a fuzz run', { ...run, command: 'fuzz' as const }, 'contracts fuzz'],
    ['a proxy run', { ...run, mode: 'proxy' as const }, 'contracts proxy'],
    ['a receive session', { ...run, mode: 'receive' as const }, 'contracts receive'],
  ])('names the command of %s', async (_name, given, title) => {
    const sub = await fresh();
    const html = path.join(sub, 'r.html');
    const junit = path.join(sub, 'r.xml');
    await writeReports(
      given,
      [
        { kind: 'html', file: html },
        { kind: 'junit', file: junit },
      ],
      new Redactor(),
    );
    expect(await readFile(html, 'utf8')).toContain(`<h1>${title}</h1>`);
    expect(await readFile(junit, 'utf8')).toContain(`<testsuites name="${title}" `);
  });
});
