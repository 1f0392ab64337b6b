// `contracts fuzz --explain-links` prints the resource model of the spec it is given and exits 0, sending nothing
// (not even to a --base-url), for a spec given by file outside any project and for a config's API; in --help.
import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

describe('contracts fuzz --explain-links', () => {
  it('prints the model of a spec file and sends nothing, even with a --base-url', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-explain-'));
    await copyFile(
      path.join(root, 'tests/fixtures/resource-model/petstore-expanded.yaml'),
      path.join(dir, 'pets.yaml'),
    );
    let requests = 0;
    const server = http.createServer((_request, response) => {
      requests++;
      response.writeHead(500).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const result = await runCli(['fuzz', '--spec', 'pets.yaml', '--explain-links', '--base-url', baseUrl], {
        cwd: dir,
      });
      expect(result.stdout.trimEnd().split('\n')).toEqual([
        "pets (pets.yaml): where each request's values come from",
        'resource Pet: collection /pets, item /pets/{id}',
        '  id: {id} = body field id (same name)',
        '  create  addPet (POST /pets) · no credentials needed',
        '  read    find pet by id (GET /pets/{id}) · no credentials needed',
        '  delete  deletePet (DELETE /pets/{id}) · no credentials needed',
        '  list    findPets (GET /pets) · pages: none declared · items at the body · no credentials needed',
        '',
        'find pet by id (GET /pets/{id})',
        '  id (path) ← inferred: addPet 200 $response.body#/id | inferred: findPets 200 $response.body#/0/id',
        'deletePet (DELETE /pets/{id})',
        '  id (path) ← inferred: addPet 200 $response.body#/id | inferred: findPets 200 $response.body#/0/id',
      ]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(requests).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);

  it('prints the model of a config whose credential variable needs --allow-env: it sends no credential', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-explain-'));
    await copyFile(
      path.join(root, 'tests/fixtures/resource-model/petstore-expanded.yaml'),
      path.join(dir, 'pets.yaml'),
    );
    await writeFile(
      path.join(dir, 'contracts.config.yaml'),
      'apis:\n  - name: pets\n    spec: pets.yaml\n    credentials:\n      - { env: PETS_KEY, header: X-Key }\n',
    );
    const explained = await runCli(['fuzz', '--api', 'pets', '--explain-links'], { cwd: dir });
    expect(explained.stderr).toBe('');
    expect(explained.code).toBe(0);
    expect(explained.stdout.split('\n')[0]).toBe("pets (pets.yaml): where each request's values come from");
    // A run that sends requests is still refused until --allow-env names the variable.
    const sent = await runCli(['fuzz', '--api', 'pets', '--base-url', 'http://127.0.0.1:9'], { cwd: dir });
    expect(sent.code).toBe(2);
    expect(sent.stderr).toMatch(/PETS_KEY.*--allow-env PETS_KEY/);
  }, 60_000);

  it("prints the webhooks API's links from the config, and is explained in fuzz's --help", async () => {
    const result = await runCli(['fuzz', '--api', 'repository-webhooks', '--explain-links']);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe(
      "repository-webhooks (specs/repository-webhooks.yaml): where each request's values come from",
    );
    expect(lines).toContain('  hook_id (path) ← link GetWebhook of createWebhook 201: $response.body#/id');
    expect(lines).toContain(
      '  owner (path): unbound: no resource has the item path /repos/{owner} and none is named like owner: give it a value (an example, a default or a variable)',
    );
    const help = await runCli(['fuzz', '--help']);
    expect(help.stdout).toMatch(/--explain-links +Print each API's resource model and exit, sending nothing/);
  }, 60_000);

  it('ends in one line and exit 2 when the spec cannot be read', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-explain-'));
    const result = await runCli(['fuzz', '--spec', 'missing.yaml', '--explain-links'], { cwd: dir });
    expect({ code: result.code, stderr: result.stderr, stdout: result.stdout }).toEqual({
      code: 2,
      stderr: 'contracts fuzz: spec not found: missing.yaml\n',
      stdout: '',
    });
  }, 60_000);
});
