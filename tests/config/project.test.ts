import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject, readProject } from '../../src/config/project.js';

function projectDir(config: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'contracts-project-'));
  writeFileSync(path.join(dir, 'contracts.config.yaml'), config);
  return dir;
}

const twoApis = 'apis:\n  - name: inventory\n    spec: inventory.yaml\n  - name: billing\n    spec: billing.yaml\n';

describe('readProject', () => {
  it('reads the config once into the APIs, in its order, relative to its folder', () => {
    const dir = projectDir(twoApis);
    const project = readProject({ cwd: dir });
    expect(project.root).toBe(dir);
    expect(project.configFile).toBe(path.join(dir, 'contracts.config.yaml'));
    expect(project.names).toEqual(['inventory', 'billing']);
    expect(project.api('billing')).toEqual({
      name: 'billing',
      spec: 'billing.yaml',
      generated: 'generated/billing.ts',
      mockPort: 4011,
      credentials: [],
      baseDir: dir,
    });
  });

  it('names the --spec files as APIs when there is no config', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'contracts-noconfig-'));
    const project = readProject({
      cwd: dir,
      specs: [
        { api: undefined, file: 'Pet Store.yaml' },
        { api: 'pet-store', file: 'b.json' },
      ],
    });
    expect(project.names).toEqual(['pet-store', 'pet-store-2']);
    expect(project.apis.map((entry) => [entry.spec, entry.mockPort])).toEqual([
      [path.join(dir, 'Pet Store.yaml'), 4010],
      [path.join(dir, 'b.json'), 4011],
    ]);
  });
});

describe('Project', () => {
  const project = makeProject({
    root: '/p',
    apis: [{ name: 'inventory', spec: 'i.yaml', generated: 'g.ts', mockPort: 4010, credentials: [], baseDir: '/p' }],
  });

  it.each([
    [
      'an unknown name, with the closest one',
      () => project.api('inventry'),
      'unknown API "inventry": choose one of inventory. Did you mean "inventory"?',
    ],
    ['select of an unknown name', () => project.select('x'), 'unknown API "x": choose one of inventory or all.'],
    [
      'a name in a project with none',
      () => makeProject({ root: '/', apis: [], searchedFrom: '/w' }).api('x'),
      'no API "x": no contracts.config.yaml in /w or any folder above it: run `contracts init SPEC` to write one for your spec, or give --config FILE',
    ],
  ])('refuses %s in one line', (_name, call, message) => {
    expect(call).toThrow(message);
  });

  it('selects all or one API', () => {
    expect(project.select('all')).toEqual(project.apis);
    expect(project.select('inventory')).toEqual([project.apis[0]]);
  });

  it('cannot be changed once made: every level is frozen', () => {
    const apis = project.apis as unknown as unknown[];
    expect(() => apis.splice(0, 1)).toThrow(TypeError);
    expect(() => {
      (project.apis[0] as { mockPort: number }).mockPort = 1;
    }).toThrow(TypeError);
    expect(() => {
      (project as { root: string }).root = '/elsewhere';
    }).toThrow(TypeError);
    expect(() => {
      (project.apis[0]!.credentials as unknown[]).push({ env: 'X' });
    }).toThrow(TypeError);
    expect(project.apis[0]!.mockPort).toBe(4010);
  });
});
