// A config found by looking upwards that another user could have put there is not used (git's CVE-2022-24765
// class): decided on stubbed owners and modes, and on real folders (chown needs root: that case runs as root only).
import { chmod, chown, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { untrustedReason } from '../../src/config/config-trust.js';
import { findConfigUpwards } from '../../src/config/read-config.js';

const me = 1000;

describe('untrustedReason', () => {
  const folder = (mode: number, uid = me) => ({ path: '/srv/shared', facts: { uid, mode } });
  it.each<
    [
      string,
      { files: number[]; folders: { path: string; facts: { uid: number; mode: number } }[]; want: RegExp | undefined },
    ]
  >([
    ['mine, in my folders', { files: [me], folders: [folder(0o40755)], want: undefined }],
    ["root's", { files: [0], folders: [folder(0o40755)], want: undefined }],
    ["another user's", { files: [12345], folders: [folder(0o40755)], want: /owned by another user \(uid 12345\)/ }],
    ['a link of mine to a file of another user', { files: [me, 12345], folders: [folder(0o40755)], want: /uid 12345/ }],
    [
      'in a folder anyone can write to',
      { files: [me], folders: [folder(0o40777)], want: /\/srv\/shared is writable by anyone/ },
    ],
    ['in a sticky folder anyone can write to (/tmp)', { files: [me], folders: [folder(0o41777)], want: undefined }],
  ])('%s', (_name, { files, folders, want }) => {
    const reason = untrustedReason(
      files.map((uid) => ({ uid, mode: 0o100644 })),
      folders,
      me,
    );
    if (want === undefined) expect(reason).toBeUndefined();
    else expect(reason).toMatch(want);
  });
});

describe('findConfigUpwards on real folders', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-trust-'));
  });

  it('passes over a config in a folder anyone can write to (mode 0777, no sticky bit), saying so', async () => {
    const shared = path.join(dir, 'shared');
    await mkdir(path.join(shared, 'work'), { recursive: true });
    await writeFile(path.join(shared, 'contracts.config.yaml'), 'apis: []\n');
    await chmod(shared, 0o777);
    const said: string[] = [];
    expect(findConfigUpwards(path.join(shared, 'work'), (line) => said.push(line))).toBeUndefined();
    expect(said).toEqual([
      `contracts: ignoring ${shared}/contracts.config.yaml: ${shared} is writable by anyone (no sticky bit); give --config ${shared}/contracts.config.yaml to use it anyway`,
    ]);
    await chmod(shared, 0o1777);
    expect(findConfigUpwards(path.join(shared, 'work'))).toBe(path.join(shared, 'contracts.config.yaml'));
  });

  it.runIf(process.getuid?.() === 0)(
    'passes over a config owned by another user (as root: chown to uid 12345)',
    async () => {
      const parent = path.join(dir, 'parent');
      await mkdir(path.join(parent, 'checkout'), { recursive: true });
      const config = path.join(parent, 'contracts.config.yaml');
      await writeFile(config, 'apis: []\n');
      await chown(config, 12345, 12345);
      const said: string[] = [];
      expect(findConfigUpwards(path.join(parent, 'checkout'), (line) => said.push(line))).toBeUndefined();
      expect(said[0]).toMatch(/^contracts: ignoring \S+: it is owned by another user \(uid 12345\)/);
    },
  );
});
