// The sandbox implements the seed APIs wherever it runs: in a project whose contracts.config.yaml lists only its own
// APIs it serves the specs the toolkit ships (it ended in "internal error … baseDir").
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readProject } from '../../src/config/project.js';
import { startSandbox } from '../../src/plugins/example-sandbox.js';

describe('the sandbox in a project of its own', () => {
  it('serves the seed APIs from the shipped specs when the config lists neither', async () => {
    const project = await mkdtemp(path.join(os.tmpdir(), 'contracts-sandbox-config-'));
    await writeFile(
      path.join(project, 'inventory.yaml'),
      'openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths: {}\n',
    );
    await writeFile(
      path.join(project, 'contracts.config.yaml'),
      'apis:\n  - name: inventory\n    spec: inventory.yaml\n',
    );
    const sandbox = await startSandbox({ apis: readProject({ cwd: project }).apis, port: 0, host: '127.0.0.1' });
    try {
      const session = await fetch(`${sandbox.url}/client-session`, {
        headers: { 'X-API-KEY': 'k', 'X-API-VERSION': '2.4' },
      });
      expect(session.status).toBe(200);
      expect((await fetch(`${sandbox.url}/repos/octo/app/hooks`)).status).toBe(200);
    } finally {
      await sandbox.stop();
    }
  });
});
