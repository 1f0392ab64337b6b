// The sandbox of a spec in Swagger Petstore's shape, served with no code (`contracts sandbox --api petstyle`): a PUT
// on the collection path replaces the pet its body's id names; a search below the collection (findByStatus) lists
// what creates stored, filtered by the query; the client's own id is kept (a pet's id, a user's username); a body
// the operation leaves optional may be left out, and a form body is stored with its fields' types. `contracts fuzz`
// against it finds nothing, and exits 0.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';
import { spawnServer, type ServerProcess } from '../helpers/spawn-server.js';

const dir = path.join(root, 'tests/fixtures/petstyle');
const children: ServerProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

const key = { api_key: 'any' };
const json = { ...key, 'content-type': 'application/json' };

async function sandbox(): Promise<string> {
  const port = await spawnServer(
    ['sandbox', '--api', 'petstyle', '--port', '0'],
    /statefully at (http:\/\/\S+)/,
    children,
    { cwd: dir },
  );
  return `http://127.0.0.1:${port}/api/v3`;
}

async function send(url: string, init: RequestInit = {}) {
  const answer = await fetch(url, init);
  const text = await answer.text();
  return { status: answer.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

describe('contracts sandbox --api petstyle (a Petstore-shaped spec)', () => {
  it('keeps the ids a client chose, replaces by the body id, and finds pets by status', async () => {
    const base = await sandbox();
    const doggie = { id: 10, name: 'doggie', status: 'available' };
    expect(await send(`${base}/pet`, { method: 'POST', headers: json, body: JSON.stringify(doggie) })).toEqual({
      status: 200,
      body: doggie,
    });
    // A form body, its fields read as the schema types them.
    const form = { ...key, 'content-type': 'application/x-www-form-urlencoded' };
    expect(
      await send(`${base}/pet`, { method: 'POST', headers: form, body: 'id=11&name=cat&status=pending&age=3' }),
    ).toEqual({ status: 200, body: { id: 11, name: 'cat', status: 'pending', age: 3 } });
    // PUT /pet names the pet by the body's id: it is replaced, and a pet nobody made is the documented 404.
    const sold = { id: 10, name: 'rex', status: 'sold' };
    expect(await send(`${base}/pet`, { method: 'PUT', headers: json, body: JSON.stringify(sold) })).toEqual({
      status: 200,
      body: sold,
    });
    expect(await send(`${base}/pet/10`, { headers: key })).toEqual({ status: 200, body: sold });
    const nobody = { id: 99, name: 'ghost' };
    expect((await send(`${base}/pet`, { method: 'PUT', headers: json, body: JSON.stringify(nobody) })).status).toBe(
      404,
    );
    // The search lists what the creates stored, by the status asked for; without one, every pet.
    expect(await send(`${base}/pet/findByStatus?status=sold`, { headers: key })).toEqual({ status: 200, body: [sold] });
    expect(await send(`${base}/pet/findByStatus?status=available`, { headers: key })).toEqual({
      status: 200,
      body: [],
    });
    expect(((await send(`${base}/pet/findByStatus`, { headers: key })).body as unknown[]).length).toBe(2);
    // A user's username is its id: the one sent is kept, and a PUT naming another leaves it as the path names it.
    const user = { username: 'ann', firstName: 'Ann' };
    expect(await send(`${base}/user`, { method: 'POST', headers: json, body: JSON.stringify(user) })).toEqual({
      status: 200,
      body: user,
    });
    const renamed = JSON.stringify({ username: 'bob', firstName: 'Anna' });
    expect((await send(`${base}/user/ann`, { method: 'PUT', headers: json, body: renamed })).status).toBe(200);
    expect(await send(`${base}/user/ann`)).toEqual({ status: 200, body: { username: 'ann', firstName: 'Anna' } });
    // createUser's body is optional: without one, a user is made with a username of the server's.
    const made = await send(`${base}/user`, { method: 'POST' });
    expect(made.status).toBe(200);
    expect(typeof (made.body as { username?: unknown }).username).toBe('string');
    // Without the key, the secured operations answer 401.
    expect((await send(`${base}/pet/10`)).status).toBe(401);
  });

  it('is a sandbox its own fuzz finds nothing wrong with', { timeout: 300_000 }, async () => {
    const base = await sandbox();
    const result = await runCli(['fuzz', '--api', 'petstyle', '--base-url', base, '--seed', '1'], {
      cwd: dir,
      env: { CONTRACTS_PETSTYLE_KEY: 'k' },
    });
    expect(result.stdout).toMatch(/\d+ passed, 0 failed/);
    expect(result.stdout).not.toMatch(/✗ not exercised/);
    expect(result.code).toBe(0);
  });
});
