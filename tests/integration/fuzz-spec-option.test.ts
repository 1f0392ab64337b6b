// `--spec` takes the same form everywhere, fuzz included (it was refused there): the run fuzzes the operations of
// the file it names, not the config's spec.
import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';

const specWith = (operationId: string) =>
  `openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths:\n  /items:\n    get:\n      operationId: ${operationId}\n      responses: { "200": { description: ok } }\n`;

describe('contracts fuzz --spec', () => {
  it('fuzzes the operations of the file it names', async () => {
    const project = await mkdtemp(path.join(os.tmpdir(), 'contracts-fuzz-spec-'));
    await writeFile(path.join(project, 'api.yaml'), specWith('listFromConfig'));
    await writeFile(path.join(project, 'draft.yaml'), specWith('listFromDraft'));
    await writeFile(path.join(project, 'contracts.config.yaml'), 'apis:\n  - name: inventory\n    spec: api.yaml\n');
    const server = http.createServer((_req, res) => res.writeHead(200).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const { code, output } = await runMain(
        ['fuzz', '--api', 'inventory', '--spec', 'draft.yaml', '--base-url', baseUrl, '--max-examples', '2'],
        project,
      );
      expect(output).toMatch(/listFromDraft/);
      expect(output).not.toMatch(/listFromConfig/);
      expect(code, output).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);
});
