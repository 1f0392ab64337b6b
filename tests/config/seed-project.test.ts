// The package's own project (the example APIs): read from its contracts.config.yaml, which it ships, on first use.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readProject } from '../../src/config/project.js';
import { seedConfigFile, seedProject } from '../../src/config/seed-project.js';
import { pluginOf } from '../../src/plugins/registry.js';
import { root } from '../helpers/paths.js';

describe("the package's own project", () => {
  it("is this package's contracts.config.yaml, which the published package ships", () => {
    expect(seedConfigFile).toBe(path.join(root, 'contracts.config.yaml'));
    const files = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { files: string[] }).files;
    expect(files).toContain('contracts.config.yaml');
    const read = readProject({ cwd: root, file: 'contracts.config.yaml' });
    expect({ root: seedProject.root, apis: seedProject.apis, names: seedProject.names }).toEqual({
      root: read.root,
      apis: read.apis,
      names: read.names,
    });
  });

  it('lists APIs that each have a plug-in, and is frozen', () => {
    expect(seedProject.names.length).toBeGreaterThan(0);
    expect(seedProject.names.filter((name) => pluginOf(name) === undefined)).toEqual([]);
    expect(Object.isFrozen(seedProject) && Object.isFrozen(seedProject.apis)).toBe(true);
  });
});
