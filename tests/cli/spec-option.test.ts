// --spec takes one form in every command: [API=]FILE, repeatable.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allCommands, main } from '../../src/cli/main.js';

import { commandFor } from '../../src/cli/command.js';
import { parseSpecs, singleSpec, specOverrides } from '../../src/cli/spec-option.js';
import { seedProject } from '../../src/config/seed-project.js';

const commands = (await allCommands()).map((command) => commandFor(command, seedProject));
import { root } from '../helpers/paths.js';

const both = ['client-session', 'repository-webhooks'];

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (text) => out.push(text), err: (text) => err.push(text), cwd: root, env: {} });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('--spec', () => {
  it('has the same form, [api=]file and repeatable, in every command that takes it', () => {
    const forms = commands.flatMap((command) =>
      command.options
        .filter((option) => option.name === 'spec')
        .map((option) => [command.name, option.valueName, option.multiple]),
    );
    expect(forms.map(([name]) => name).sort()).toEqual([
      'check',
      'fuzz',
      'generate',
      'mock',
      'receive',
      'sandbox',
      'validate',
    ]);
    // The sandbox serves one spec on one port: its --spec is one file.
    for (const [name, valueName, multiple] of forms)
      expect([valueName, multiple]).toEqual(name === 'sandbox' ? ['file', undefined] : ['[api=]file', true]);
  });

  it.each<[string, string[], string[], Record<string, string>]>([
    [
      'API=FILE for one of the APIs',
      ['client-session=draft.yaml'],
      both,
      { 'client-session': path.join(root, 'draft.yaml') },
    ],
    [
      'a bare FILE when one API is chosen',
      ['draft.yaml'],
      ['repository-webhooks'],
      { 'repository-webhooks': path.join(root, 'draft.yaml') },
    ],
    [
      'a path with = in a directory name as a file',
      ['dir/a=b.yaml'],
      ['client-session'],
      { 'client-session': path.join(root, 'dir/a=b.yaml') },
    ],
    [
      'one per API',
      ['client-session=a.yaml', 'repository-webhooks=b.yaml'],
      both,
      { 'client-session': path.join(root, 'a.yaml'), 'repository-webhooks': path.join(root, 'b.yaml') },
    ],
  ])('replaces specs by API: %s', (_name, values, chosen, want) => {
    expect(specOverrides(values, root, chosen, both)).toEqual(want);
  });

  it.each<[string, string[], string[], string]>([
    [
      'a bare FILE with several APIs',
      ['draft.yaml'],
      both,
      '--spec draft.yaml: with several APIs, say which one it is for: --spec API=draft.yaml',
    ],
    [
      'an API the run does not cover',
      ['repository-webhooks=x.yaml'],
      ['client-session'],
      '--spec repository-webhooks=x.yaml has no effect: repository-webhooks is not among the APIs of this run',
    ],
    [
      'a misspelt API',
      ['clint-session=x.yaml'],
      both,
      '--spec clint-session=x.yaml: no API "clint-session". Did you mean "client-session"?',
    ],
    [
      'an API named twice',
      ['client-session=a.yaml', 'client-session=b.yaml'],
      both,
      '--spec names client-session twice',
    ],
    ['API= without a file', ['client-session='], both, '--spec client-session=: the file is missing'],
  ])('refuses %s in one line', (_name, values, chosen, message) => {
    expect(() => specOverrides(values, root, chosen, both)).toThrow(message);
  });

  it('takes FILE or API=FILE where one spec is used (receive, validate --delivery)', () => {
    expect(singleSpec(['hooks.yaml'], root, both)).toEqual({
      api: undefined,
      file: path.join(root, 'hooks.yaml'),
      shown: 'hooks.yaml',
    });
    expect(singleSpec(['repository-webhooks=hooks.yaml'], root, both)).toEqual({
      api: 'repository-webhooks',
      file: path.join(root, 'hooks.yaml'),
      shown: 'hooks.yaml',
    });
    expect(() => singleSpec(['a.yaml', 'b.yaml'], root, both)).toThrow('give one --spec here');
    expect(parseSpecs(undefined, root, both)).toEqual([]);
  });

  describe('in validate', () => {
    const response = ['--operation', 'retrieveClientSession', '--status', '418'];
    it.each([
      ['FILE alone, as before', ['--spec', 'specs/client-session.yaml']],
      ['API=FILE, as check and mock take it', ['--spec', 'client-session=specs/client-session.yaml']],
      ['FILE for the API --api chose', ['--api', 'client-session', '--spec', 'specs/client-session.yaml']],
    ])('checks the response against %s', async (_name, spec) => {
      const result = await cli(['validate', ...spec, ...response]);
      expect(result.out).toMatch(/status_code_conformance: status 418 is not documented for retrieveClientSession/);
      expect(result.code).toBe(1);
    });
  });
});
