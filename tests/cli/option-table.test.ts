// The option table (src/cli/options/): each shared option is defined once with its parser, every value goes through
// it before the command runs (a bad one is one usage line, exit 2), and the command reads a typed value.
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/cli/check-command.js';
import { commandFor, type Command } from '../../src/cli/command.js';
import { diffCommand } from '../../src/cli/diff-command.js';
import { fuzzCommand } from '../../src/cli/fuzz-command.js';
import { lintCommand } from '../../src/cli/lint-command.js';
import { main, optionsWithoutProject } from '../../src/cli/main.js';
import { earlyOptions } from '../../src/cli/options/early-options.js';
import {
  baseUrlOption,
  maxBodyOption,
  portOption,
  reportOption,
  strictOption,
  timeoutOption,
} from '../../src/cli/options/shared-options.js';
import { valueOf, type TypedOption } from '../../src/cli/options/typed-option.js';
import { parseCommandArgs } from '../../src/cli/parse-args.js';
import { proxyCommand } from '../../src/cli/proxy-command.js';
import { receiveCommand } from '../../src/cli/receive-command.js';
import { validateCommand } from '../../src/cli/validate-command.js';
import { seedProject } from '../../src/config/seed-project.js';
import { root } from '../helpers/paths.js';

const parse = (command: Command, args: string[]) => parseCommandArgs(commandFor(command, seedProject), args).options;

describe('a bad value is a usage error before the command runs', () => {
  it.each<[string, Command, string[], string]>([
    [
      'a timeout of 0 in check',
      checkCommand,
      ['--timeout', '0'],
      '--timeout must be a whole number of milliseconds from 1 to 600000, not "0"',
    ],
    [
      'a timeout past ten minutes in check (fuzz already refused it)',
      checkCommand,
      ['--timeout', '600001'],
      '--timeout must be a whole number of milliseconds from 1 to 600000, not "600001"',
    ],
    [
      'a timeout past ten minutes in proxy',
      proxyCommand,
      ['--timeout', '9999999'],
      '--timeout must be a whole number of milliseconds from 1 to 600000, not "9999999"',
    ],
    [
      'a base URL without a host in fuzz (check already refused it)',
      fuzzCommand,
      ['--base-url', 'http:/staging.example.com'],
      '--base-url must be an http(s) URL, such as https://staging.example.com',
    ],
    [
      'a base URL with a password in fuzz',
      fuzzCommand,
      ['--base-url', 'https://me:pw@staging.example.com'],
      '--base-url must not carry a user or password: credentials come only from the environment (the variables the config names)',
    ],
    [
      'a base URL with a query in check',
      checkCommand,
      ['--base-url', 'https://staging.example.com/?a=1'],
      '--base-url must not carry a query or a fragment',
    ],
    [
      'more retries than ten',
      checkCommand,
      ['--retries', '11'],
      '--retries must be a whole number from 0 to 10, not "11"',
    ],
    [
      'a body limit of nothing',
      checkCommand,
      ['--max-body', '0'],
      '--max-body must be a number of megabytes from 0 to 1024, not "0"',
    ],
    [
      'a port past 65535',
      proxyCommand,
      ['--port', '70000'],
      '--port must be a port number from 0 to 65535, not "70000"',
    ],
    [
      'a head timeout that is no number',
      receiveCommand,
      ['--head-timeout', 'soon'],
      '--head-timeout must be a whole number of milliseconds, not "soon"',
    ],
    [
      'an unknown lint format',
      lintCommand,
      ['--format', 'xml'],
      '--format must be one of text, json, github, sarif, not "xml"',
    ],
    [
      'an unknown validate format',
      validateCommand,
      ['--format', 'xml'],
      '--format must be one of text, json, not "xml"',
    ],
    [
      'an unknown diff format',
      diffCommand,
      ['--format', 'xml'],
      '--format must be one of text, json, markdown, junit, github, not "xml"',
    ],
  ])('%s', (_name, command, args, message) => {
    expect(() => parse(command, args)).toThrow(message);
  });

  it('leaves --help alone, whatever else was given', () => {
    expect(parse(checkCommand, ['--help', '--timeout', '0']).help).toBe(true);
  });
});

describe('the command reads a typed value', () => {
  it.each<[string, Command, string[], TypedOption<unknown>, unknown]>([
    ['check: the default timeout', checkCommand, [], timeoutOption, 10_000],
    ['fuzz: the same default timeout', fuzzCommand, [], timeoutOption, 10_000],
    ["proxy: its own default timeout, the same parser's", proxyCommand, [], timeoutOption, 30_000],
    ['check: the body limit in bytes', checkCommand, ['--max-body', '2'], maxBodyOption, 2 * 2 ** 20],
    ['check: no base URL', checkCommand, [], baseUrlOption, undefined],
    ['fuzz: a base URL', fuzzCommand, ['--base-url', 'http://127.0.0.1:9'], baseUrlOption, 'http://127.0.0.1:9'],
    ['check: strict unset', checkCommand, [], strictOption, false],
    ['fuzz: strict set', fuzzCommand, ['--strict'], strictOption, true],
    ['receive: the port as a number', receiveCommand, ['--port', '0'], portOption(4030), 0],
    [
      'check: every report, in order',
      checkCommand,
      ['--report', 'json:a.json', '--report', 'junit:a.xml'],
      reportOption,
      ['json:a.json', 'junit:a.xml'],
    ],
  ])('%s', (_name, command, args, option, want) => {
    expect(valueOf(parse(command, args), option)).toEqual(want);
  });
});

describe('what main() reads before the command table', () => {
  it.each<[string, string[], ReturnType<typeof earlyOptions>]>([
    ['nothing', ['--api', 'x'], { config: undefined, specs: [], format: undefined }],
    [
      'the last --config, each --spec split, --format',
      ['--config', 'a.yaml', '--spec', 'shop=draft.yaml', '--config=b.yaml', '--spec', 'x.yaml', '--format=json'],
      {
        config: 'b.yaml',
        specs: [
          { api: 'shop', file: 'draft.yaml' },
          { api: undefined, file: 'x.yaml' },
        ],
        format: 'json',
      },
    ],
    ['nothing after --', ['spec.yaml', '--', '--format', 'json'], { config: undefined, specs: [], format: undefined }],
  ])('%s', (_name, args, want) => {
    expect(earlyOptions(args)).toEqual(want);
  });

  it('takes no option of a command whose table needs a project it does not have, instead of throwing', () => {
    const needsApis: Command = {
      ...checkCommand,
      options: (project) => {
        if (project.names.length === 0) throw new Error('no APIs to name');
        return [];
      },
    };
    expect(optionsWithoutProject(needsApis, root)).toEqual([]);
    expect(optionsWithoutProject(checkCommand, root).map((option) => option.name)).toContain('base-url');
  });

  it('answers in JSON only when --format json is an option, not a file name after --', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(['check', '--api', 'nope', '--', '--format', 'json'], {
      out: (text) => out.push(text),
      err: (text) => err.push(text),
      cwd: root,
      env: {},
    });
    expect({ code, out, err: err[0] }).toEqual({
      code: 2,
      out: [],
      err: 'contracts check: unknown API "nope". The APIs: client-session, repository-webhooks',
    });
  });
});
