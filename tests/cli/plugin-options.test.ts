// A plug-in's options (src/plugins/api-plugin.ts): check and fuzz list them only when the config has an API with that
// plug-in, parse them with the plug-in's parsers, and hand the values to the plug-in as its settings.
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/cli/check-command.js';
import { commandFor, type Command } from '../../src/cli/command.js';
import { fuzzCommand } from '../../src/cli/fuzz-command.js';
import { main } from '../../src/cli/main.js';
import { parseCommandArgs } from '../../src/cli/parse-args.js';
import { optionSets, pluginSettings } from '../../src/cli/plugin-options.js';
import { makeProject } from '../../src/config/project.js';
import { seedProject } from '../../src/config/seed-project.js';
import { root } from '../helpers/paths.js';

const usersOwn = makeProject({
  root: '/p',
  apis: [{ name: 'inventory', spec: 'i.yaml', generated: 'g.ts', mockPort: 4010, credentials: [], baseDir: '/p' }],
});
const webhookOptions = ['owner', 'repo', 'hook-id', 'hook-url', 'receiver-port', 'no-receiver', 'delivery-wait'];
const names = (command: Command, project = seedProject) =>
  commandFor(command, project).options.map((option) => option.name);
const url = 'http://127.0.0.1:9';

describe("a plug-in's options are listed only where a configured API has the plug-in", () => {
  it.each<[string, Command, string[]]>([
    ['check', checkCommand, webhookOptions],
    ['fuzz', fuzzCommand, ['owner', 'repo', 'hook-url', 'delivery-wait']],
  ])("%s lists the webhooks example's options for a config that has it", (_name, command, want) => {
    expect(names(command).filter((name) => webhookOptions.includes(name))).toEqual(want);
  });

  it.each<[string, Command]>([
    ['check', checkCommand],
    ['fuzz', fuzzCommand],
  ])("%s lists none of them for a config of the user's own APIs", (_name, command) => {
    expect(names(command, usersOwn).filter((name) => webhookOptions.includes(name))).toEqual([]);
  });

  it.each<[string, Command]>([
    ['check', checkCommand],
    ['fuzz', fuzzCommand],
  ])("%s's help for a user's project names no example API, its variables or its hooks", (_name, command) => {
    const help = commandFor(command, usersOwn);
    const text = JSON.stringify([help.description, help.examples, help.options]);
    expect(
      text.match(/client-session|repository-webhooks|CLIENT_SESSION|WEBHOOKS_TOKEN|webhook|Both APIs/gi),
    ).toBeNull();
  });

  it("refuses --owner in a project of the user's own APIs", () => {
    expect(() => parseCommandArgs(commandFor(fuzzCommand, usersOwn), ['--owner', 'acme'])).toThrow(
      'unknown option --owner',
    );
  });
});

/** The settings the command hands the repository-webhooks plug-in for these arguments. */
function settings(command: Command, part: 'check' | 'fuzz', args: string[]) {
  const { options } = parseCommandArgs(commandFor(command, seedProject), args);
  return pluginSettings(optionSets(['repository-webhooks'], part)[0]!.set, options);
}

describe('the plug-in gets its options as typed settings', () => {
  it.each<[string, Command, 'check' | 'fuzz', string[], Record<string, unknown>]>([
    [
      'check, the defaults',
      checkCommand,
      'check',
      [],
      {
        owner: 'octo',
        repo: 'app',
        hookId: undefined,
        hookUrl: undefined,
        receiverPort: undefined,
        noReceiver: false,
        deliveryWaitMs: 10_000,
      },
    ],
    [
      'check, on staging through a tunnel',
      checkCommand,
      'check',
      ['--base-url', url, '--owner', 'acme', '--hook-url', 'https://t.example.com/in', '--receiver-port', '4031'],
      {
        owner: 'acme',
        repo: 'app',
        hookId: undefined,
        hookUrl: 'https://t.example.com/in',
        receiverPort: 4031,
        noReceiver: false,
        deliveryWaitMs: 10_000,
      },
    ],
    [
      'check --read-only on one hook',
      checkCommand,
      'check',
      ['--base-url', url, '--read-only', '--hook-id', '42'],
      {
        owner: 'octo',
        repo: 'app',
        hookId: 42,
        hookUrl: undefined,
        receiverPort: undefined,
        noReceiver: false,
        deliveryWaitMs: 10_000,
      },
    ],
    [
      'fuzz waits for a delivery as long as check does (they had drifted: 5000 and 10000)',
      fuzzCommand,
      'fuzz',
      [],
      { owner: 'octo', repo: 'app', hookUrl: undefined, deliveryWaitMs: 10_000 },
    ],
  ])('%s', (_name, command, part, args, want) => {
    expect(settings(command, part, args)).toEqual(want);
  });

  it.each<[string, Command, string[], string]>([
    ['an owner with a slash', checkCommand, ['--owner', 'a/b'], '--owner must be one path segment, not "a/b"'],
    ['a repo with a space', fuzzCommand, ['--repo', 'a b'], '--repo must be one path segment, not "a b"'],
    [
      'a hook id that is no integer',
      checkCommand,
      ['--base-url', url, '--read-only', '--hook-id', 'x'],
      '--hook-id must be an integer, not "x"',
    ],
    [
      'a hook URL without a host (the same checker as --base-url)',
      fuzzCommand,
      ['--hook-url', 'http:/hooks.example.com'],
      '--hook-url must be an http(s) URL, such as https://staging.example.com',
    ],
    [
      'a delivery wait past ten minutes',
      fuzzCommand,
      ['--delivery-wait', '600001'],
      '--delivery-wait must be a whole number of milliseconds up to 600000, not "600001"',
    ],
  ])('refuses %s before the run', (_name, command, args, message) => {
    expect(() => parseCommandArgs(commandFor(command, seedProject), args)).toThrow(message);
  });

  it.each<[string, Record<string, unknown>, unknown]>([
    ['a free port by default', {}, { port: 0 }],
    ['the port a tunnel forwards to', { receiverPort: 4031, hookUrl: 'https://t.example.com' }, { port: 4031 }],
    ['none with --no-receiver', { noReceiver: true }, { off: '--no-receiver: no receiver sees the deliveries' }],
    [
      'none when --hook-url sends the deliveries elsewhere',
      { hookUrl: 'https://t.example.com' },
      { off: '--hook-url without --receiver-port: the deliveries go where this run cannot see them' },
    ],
  ])("check's receiver: %s", (_name, given, want) => {
    const { set } = optionSets(['repository-webhooks'], 'check')[0]!;
    expect(set.receiver?.(given)).toEqual(want);
  });

  it('says in one line that check --read-only needs the hook to read', async () => {
    const err: string[] = [];
    const code = await main(['check', '--api', 'repository-webhooks', '--base-url', url, '--read-only'], {
      out: () => undefined,
      err: (text) => err.push(text),
      cwd: root,
      env: {},
    });
    expect({ code, err: err[0] }).toEqual({
      code: 2,
      err: 'contracts check: --read-only needs --hook-id: the existing webhook to read',
    });
  });
});
