// `contracts sandbox --spec FILE --hooks FILE` as a user runs it, on the planted notes service's spec: a TypeScript
// hooks module changes what the sandbox does (a request changed before the engine, an answer from the store), and
// what a hook answers is still judged by the spec's checks (a refused one is the mock's 500); a hook that throws
// answers 500 and is said once; a module that cannot load is one line. --strict says each such 500 and ends 1;
// --record writes a HAR that `contracts validate --har` passes.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { mockRefusalHeader, mockRefusalValue } from '../../src/core/mock-refusal.js';
import { root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

const spec = path.join(root, 'tests/fixtures/planted/notes/openapi.yaml');
const children: ChildProcessByStdio<null, Readable, Readable>[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

const key = { 'x-api-key': 'planted-key-77' };
const json = { ...key, 'content-type': 'application/json' };

const hooksModule = `import type { SandboxHooks } from 'contracts-kit';
interface Note { id: string; title: string; tags: string[] }
const seen: string[] = [];
const hooks: SandboxHooks = {
  createNote: {
    before(ctx) {
      const body = ctx.request.body as { tags?: string[] };
      body.tags = [...(body.tags ?? []), 'hooked'];
    },
  },
  getNote: {
    before(ctx) {
      if (ctx.request.params.noteId !== 'note_aaaaaaaaaaaa') return;
      const newest = ctx.store.list('Note').at(-1) as unknown as Note;
      return { status: 200, body: newest };
    },
  },
  updateNote: { after: () => ({ status: 200, body: { nope: true } }) },
  listNotes: {
    before() {
      throw new Error('boom\\n    at somewhere (hooks.ts:1:1)');
    },
  },
};
export default hooks;
`;

interface Running {
  url: string;
  stop(): Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** `contracts sandbox …` in `cwd` until it listens; stop() interrupts it as Ctrl-C does and waits for its exit. */
async function sandbox(args: string[], cwd: string): Promise<Running> {
  const child = spawn(process.execPath, [path.join(root, 'bin/contracts.js'), 'sandbox', '--port', '0', ...args], {
    cwd,
    env: { ...process.env, SCARF_ANALYTICS: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /statefully at (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    void closed.then(() => reject(new Error(`sandbox exited: ${stderr}`)));
  });
  return {
    url,
    async stop() {
      child.kill('SIGINT');
      const code = await closed;
      return { code, stdout, stderr };
    },
  };
}

async function project(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-sandbox-hooks-'));
  await writeFile(path.join(dir, 'hooks.ts'), hooksModule);
  return dir;
}

describe('contracts sandbox --hooks', () => {
  it('runs the hooks, judges what they answer, says a throwing hook once, and --strict ends 1', async () => {
    const dir = await project();
    const running = await sandbox(['--spec', spec, '--hooks', 'hooks.ts', '--strict'], dir);
    const created = await fetch(`${running.url}/notes`, { method: 'POST', headers: json, body: '{"title":"Hi"}' });
    const note = (await created.json()) as { id: string; tags: string[] };
    expect([created.status, note.tags]).toEqual([201, ['hooked']]);
    const fromStore = await fetch(`${running.url}/notes/note_aaaaaaaaaaaa`);
    expect([fromStore.status, await fromStore.json()]).toEqual([200, note]);
    const refused = await fetch(`${running.url}/notes/${note.id}`, {
      method: 'PATCH',
      headers: { ...key, 'content-type': 'application/merge-patch+json' },
      body: '{"pinned":true}',
    });
    expect([refused.status, refused.headers.get(mockRefusalHeader), await refused.json()]).toEqual([
      500,
      mockRefusalValue,
      {
        type: 'about:blank',
        title: 'contracts mock: no valid answer',
        status: 500,
        detail:
          'the mock could not make a valid answer: its 200 answer fails response_schema_conformance: body must have required property "id"',
      },
    ]);
    const thrown = [
      await fetch(`${running.url}/notes`, { headers: key }),
      await fetch(`${running.url}/notes`, { headers: key }),
    ];
    expect(await Promise.all(thrown.map(async (answer) => [answer.status, await answer.json()]))).toEqual(
      Array(2).fill([
        500,
        {
          type: 'about:blank',
          title: 'contracts sandbox: a hook failed',
          status: 500,
          detail: 'hook listNotes.before threw: boom',
        },
      ]),
    );
    const { code, stderr } = await running.stop();
    expect([code, stderr.trim().split('\n')]).toEqual([
      1,
      [
        `sandbox --strict: PATCH /notes/${note.id}: the mock could not make a valid answer: its 200 answer fails response_schema_conformance: body must have required property "id"`,
        'sandbox: hook listNotes.before in hooks.ts threw: boom (answered 500; said once per hook)',
        'sandbox --strict: GET /notes: hook listNotes.before threw: boom',
        'sandbox --strict: GET /notes: hook listNotes.before threw: boom',
        "sandbox --strict: 3 answer(s) were not served as the API's (the spec's checks refused them, or a hook failed): answered 500",
      ],
    ]);
    expect((await readdir(dir)).sort()).toEqual(['hooks.ts']);
  });

  it('without --strict serves the same 500s quietly and ends 0', async () => {
    const dir = await project();
    const running = await sandbox(['--spec', spec, '--hooks', 'hooks.ts'], dir);
    expect(
      (
        await fetch(`${running.url}/notes/note_bbbbbbbbbbbb`, {
          method: 'PATCH',
          headers: { ...key, 'content-type': 'application/merge-patch+json' },
          body: '{}',
        })
      ).status,
    ).toBe(500);
    const { code, stderr } = await running.stop();
    expect([code, stderr]).toEqual([0, '']);
  });

  it.each([
    ['a syntax error', 'export default { createNote: { before( } };', 'line 1: Parameter declaration expected.'],
    [
      'an operationId the spec does not have',
      'export default { makeNote: {} };',
      '"makeNote" is no operationId of the spec (its operationIds: listNotes, createNote, getNote, deleteNote, updateNote)',
    ],
    ['a module that throws as it loads', 'throw new Error("no config\\n  at x");\nexport default {};', 'no config'],
    ['a hook that is no function', 'export default { getNote: { before: 1 } };', 'getNote.before must be a function'],
  ])('refuses a hooks module with %s in one line naming it', async (_name, source, why) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-sandbox-hooks-'));
    await writeFile(path.join(dir, 'bad.ts'), source);
    const result = await runCli(['sandbox', '--spec', spec, '--port', '0', '--hooks', 'bad.ts'], { cwd: dir });
    expect([result.code, result.stderr.trim().split('\n')]).toEqual([
      2,
      [`contracts sandbox: cannot load the sandbox hooks bad.ts: ${why}`],
    ]);
  });

  it('reads the hooks module from the config, and refuses one outside the project', async () => {
    const dir = await project();
    await writeFile(path.join(dir, 'openapi.yaml'), await readFile(spec, 'utf8'));
    await writeFile(
      path.join(dir, 'contracts.config.yaml'),
      'apis:\n  - name: notes\n    spec: openapi.yaml\n    sandbox:\n      hooks: ../elsewhere/hooks.ts\n',
    );
    const refused = await runCli(['sandbox', '--api', 'notes', '--port', '0'], { cwd: dir });
    expect([refused.code, refused.stderr]).toEqual([
      2,
      expect.stringMatching(/apis\[0\]\.sandbox\.hooks "\.\.\/elsewhere\/hooks\.ts" leads outside the project/),
    ]);
    await writeFile(
      path.join(dir, 'contracts.config.yaml'),
      'apis:\n  - name: notes\n    spec: openapi.yaml\n    sandbox:\n      hooks: hooks.ts\n',
    );
    const running = await sandbox(['--api', 'notes'], dir);
    const created = await fetch(`${running.url}/notes`, { method: 'POST', headers: json, body: '{"title":"Hi"}' });
    expect(((await created.json()) as { tags: string[] }).tags).toEqual(['hooked']);
    expect((await running.stop()).code).toBe(0);
  });
});

describe('contracts sandbox --record', () => {
  it('writes every exchange as a HAR whose answers contracts validate --har passes, credentials redacted', async () => {
    const dir = await project();
    const running = await sandbox(['--spec', spec, '--record', 'run.har'], dir);
    const created = await fetch(`${running.url}/notes`, { method: 'POST', headers: json, body: '{"title":"Hi"}' });
    const note = (await created.json()) as { id: string };
    await fetch(`${running.url}/notes/${note.id}`, { headers: key });
    await fetch(`${running.url}/notes`, { method: 'POST', headers: json, body: '{"title":1}' });
    await fetch(`${running.url}/__contracts/state`);
    const { code, stdout } = await running.stop();
    expect([code, stdout]).toEqual([0, expect.stringMatching(/^HAR written to run\.har$/m)]);
    const har = await readFile(path.join(dir, 'run.har'), 'utf8');
    const entries = (
      JSON.parse(har) as {
        log: { entries: { request: { method: string; url: string }; response: { status: number } }[] };
      }
    ).log.entries;
    expect(
      entries.map((entry) => [entry.request.method, new URL(entry.request.url).pathname, entry.response.status]),
    ).toEqual([
      ['POST', '/notes', 201],
      ['GET', `/notes/${note.id}`, 200],
      ['POST', '/notes', 400],
    ]);
    expect(har).not.toContain(key['x-api-key']);
    // The sandbox's answers all conform; the client's own bad request (#3) is what the request side finds.
    const answers = await runCli(['validate', '--spec', spec, '--har', 'run.har', '--side', 'response'], { cwd: dir });
    expect([answers.code, answers.stderr]).toEqual([0, '']);
    const both = await runCli(['validate', '--spec', spec, '--har', 'run.har'], { cwd: dir });
    expect([both.code, both.stdout.split('\n').filter((line) => line.includes('✗'))]).toEqual([
      1,
      ['    ✗ request_body_conformance: request /title must be string'],
    ]);
  });

  it('refuses a file outside the project and one that is the spec, in one line', async () => {
    const dir = await project();
    const outside = await runCli(['sandbox', '--spec', spec, '--port', '0', '--record', '../x.har'], { cwd: dir });
    expect([outside.code, outside.stderr.trim()]).toEqual([
      2,
      `contracts sandbox: --record ../x.har leads outside the project (${await realpathOf(dir)}): name a file inside it`,
    ]);
    await writeFile(path.join(dir, 'openapi.yaml'), await readFile(spec, 'utf8'));
    const input = await runCli(['sandbox', '--spec', 'openapi.yaml', '--port', '0', '--record', 'openapi.yaml'], {
      cwd: dir,
    });
    expect([input.code, input.stderr.trim()]).toEqual([
      2,
      'contracts sandbox: --record openapi.yaml would overwrite the spec: write the report elsewhere',
    ]);
  });
});

async function realpathOf(dir: string): Promise<string> {
  const { realpath } = await import('node:fs/promises');
  return realpath(dir);
}
