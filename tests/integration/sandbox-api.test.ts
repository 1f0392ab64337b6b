// `contracts sandbox --spec FILE` and `--api NAME` as a user runs them: a real process on a real port serving a spec
// that is neither example API statefully, its admin surface, seeds, faults, and a bad seed refused at start.
import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';
import { spawnServer, type ServerProcess } from '../helpers/spawn-server.js';

const notes = path.join(root, 'tests/mock/fixtures/notes.yaml');
const listening = /statefully at (http:\/\/\S+)/;
const children: ServerProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

const key = { 'x-api-key': 'any' };
const json = { ...key, 'content-type': 'application/json' };

describe('contracts sandbox --spec', () => {
  it('serves the spec statefully: a create is read back and listed, reset puts the seeds back', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-sandbox-api-'));
    const data = path.join(dir, 'seeds.yaml');
    await writeFile(
      data,
      'Note:\n  - { id: nt_fromfile, title: From the file, archived: false, createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z" }\n',
    );
    const port = await spawnServer(['sandbox', '--spec', notes, '--port', '0', '--data', data], listening, children);
    const base = `http://127.0.0.1:${port}`;
    const created = await fetch(`${base}/notes`, { method: 'POST', headers: json, body: '{"title":"Hello"}' });
    const note = (await created.json()) as { id: string };
    expect([created.status, created.headers.get('location')]).toEqual([201, `/notes/${note.id}`]);
    const read = await fetch(`${base}/notes/${note.id}`, { headers: key });
    expect([read.status, await read.json()]).toEqual([200, note]);
    const listed = (await (await fetch(`${base}/notes`, { headers: key })).json()) as { data: { id: string }[] };
    expect(listed.data.map((item) => item.id)).toEqual(['nt_seed0001', 'nt_fromfile', note.id]);
    expect(
      (
        await fetch(`${base}/notes`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"title":"x"}',
        })
      ).status,
    ).toBe(401);
    expect((await fetch(`${base}/__contracts/reset`, { method: 'POST' })).status).toBe(204);
    const state = (await (await fetch(`${base}/__contracts/state`)).json()) as { Note: { id: string }[] };
    expect(state.Note.map((item) => item.id)).toEqual(['nt_seed0001', 'nt_fromfile']);
  });

  it('has no admin surface with --no-admin', async () => {
    const port = await spawnServer(['sandbox', '--spec', notes, '--port', '0', '--no-admin'], listening, children);
    const answer = await fetch(`http://127.0.0.1:${port}/__contracts/state`);
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as { detail: string }).detail).toMatch(/matches no path of the spec/);
  });

  it('drops the connection as its fault where the operation documents no 5xx', async () => {
    const port = await spawnServer(
      ['sandbox', '--spec', notes, '--port', '0', '--faults', '100%'],
      listening,
      children,
    );
    await expect(fetch(`http://127.0.0.1:${port}/notes`, { headers: key })).rejects.toThrow();
  });

  it('refuses at start a seed its spec refuses, in one line', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-sandbox-api-'));
    await writeFile(path.join(dir, 'bad.json'), '{"Note": [{"id": "nt_badbad00", "title": ""}]}');
    const result = await runCli(['sandbox', '--spec', notes, '--port', '0', '--data', path.join(dir, 'bad.json')]);
    expect([result.code, result.stderr.trim().split('\n')]).toEqual([
      expect.any(Number),
      [`contracts sandbox: ${path.join(dir, 'bad.json')}: Note item #1 does not match the Note the spec answers with`],
    ]);
    expect(result.code).not.toBe(0);
  });
});

describe('contracts sandbox --api', () => {
  it('serves a config API that is not an example API from its spec', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-sandbox-api-'));
    await copyFile(notes, path.join(dir, 'notes.yaml'));
    await writeFile(path.join(dir, 'contracts.config.yaml'), 'apis:\n  - name: notes\n    spec: notes.yaml\n');
    const child = spawn(
      process.execPath,
      [path.join(root, 'bin/contracts.js'), 'sandbox', '--api', 'notes', '--port', '0'],
      {
        cwd: dir,
        env: { ...process.env, SCARF_ANALYTICS: 'false' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    children.push(child);
    let stdout = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = listening.exec(stdout);
        if (match) resolve(match[1]!);
      });
      child.once('close', (code) => reject(new Error(`exited ${code}: ${stdout}`)));
    });
    const created = await fetch(`${url}/notes`, { method: 'POST', headers: json, body: '{"title":"Hello"}' });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await fetch(`${url}/notes/${id}`, { headers: key })).status).toBe(200);
  });
});

describe('startSandbox({ spec })', () => {
  it('serves the spec statefully in process, and reset() puts the seeds back', async () => {
    const { startSandbox } = await import('../../src/plugins/example-sandbox.js');
    const sandbox = await startSandbox({ spec: notes, port: 0 });
    try {
      const created = await fetch(`${sandbox.url}/v1/notes`, {
        method: 'POST',
        headers: json,
        body: '{"title":"Lib"}',
      });
      expect([created.status, created.headers.get('location')?.startsWith('/v1/notes/nt_')]).toEqual([201, true]);
      const { id } = (await created.json()) as { id: string };
      await sandbox.reset();
      expect((await fetch(`${sandbox.url}/notes/${id}`, { headers: key })).status).toBe(404);
      expect((await fetch(`${sandbox.url}/notes/nt_seed0001`, { headers: key })).status).toBe(200);
    } finally {
      await sandbox.stop();
    }
  });
});
