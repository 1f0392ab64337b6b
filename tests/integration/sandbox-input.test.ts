// Hostile requests to the sandbox: every refused request changes nothing, and nothing a client sends can make
// later requests fail (poisoning), keep the sandbox from stopping, or store a config.url that cannot be delivered.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/plugins/example-sandbox.js';
import { root } from '../helpers/paths.js';

let sandbox: Sandbox;
let hookId: number;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, deliveryTimeoutMs: 2000 });
});
afterAll(async () => {
  await sandbox?.stop();
});
beforeEach(async () => {
  await sandbox.reset();
  hookId = (
    await call('POST', '/repos/octo/app/hooks', { config: { url: 'http://127.0.0.1:9/keep', insecure_ssl: '0' } })
  ).json.id;
});

async function call(method: string, urlPath: string, body?: unknown) {
  const response = await fetch(sandbox.url + urlPath, {
    method,
    ...(body === undefined
      ? {}
      : {
          body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        }),
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    json: text ? (JSON.parse(text) as any) : undefined,
    headers: response.headers,
  };
}

/** Everything a client can read back about the hooks; equal before and after means nothing changed. */
async function snapshot(): Promise<string> {
  const reads = [
    await call('GET', '/repos/octo/app/hooks'),
    await call('GET', `/repos/octo/app/hooks/${hookId}`),
    await call('GET', `/repos/octo/app/hooks/${hookId}/config`),
  ];
  for (const read of reads) expect(read.status, read.text).toBe(200);
  return reads.map((read) => read.text).join('\n');
}

/** A value of `objects` nested objects. */
const deep = (objects: number) => '{"a":'.repeat(objects) + '"x"' + '}'.repeat(objects);

describe('sandbox: a refused request changes nothing', () => {
  const refused: [
    string,
    { method: string; path: string; body: string | Uint8Array; status: number; message: RegExp },
  ][] = [
    [
      'a create whose insecure_ssl nests 20,000 levels',
      {
        method: 'POST',
        path: '/repos/octo/app/hooks',
        body: `{"events":["issues"],"config":{"url":"http://127.0.0.1:9/deep","insecure_ssl":${deep(20_000)}}}`,
        status: 422,
        message: /nests deeper than 64 levels/,
      },
    ],
    [
      'a config update whose insecure_ssl nests 65 levels',
      {
        method: 'PATCH',
        path: '/repos/octo/app/hooks/HOOK/config',
        body: `{"url":"http://127.0.0.1:9/keep","insecure_ssl":${deep(64)}}`,
        status: 422,
        message: /nests deeper than 64 levels/,
      },
    ],
    [
      'an update nesting 20,000 arrays',
      {
        method: 'PATCH',
        path: '/repos/octo/app/hooks/HOOK',
        body: `{"events":${'['.repeat(20_000)}${']'.repeat(20_000)}}`,
        status: 422,
        message: /nests deeper than 64 levels/,
      },
    ],
    [
      'a create with invalid UTF-8',
      {
        method: 'POST',
        path: '/repos/octo/app/hooks',
        body: Buffer.from('{"name":"web","events":["issues"],"config":{"url":"http://127.0.0.1:9/\xff"}}', 'latin1'),
        status: 400,
        message: /not valid UTF-8/,
      },
    ],
    [
      'a create with a duplicate key',
      {
        method: 'POST',
        path: '/repos/octo/app/hooks',
        body: '{"events":["issues"],"config":{"url":"http://127.0.0.1:9/a","url":"file:///etc/passwd"}}',
        status: 400,
        message: /key "url" appears twice in \/config/,
      },
    ],
    [
      'an update with a duplicate key',
      {
        method: 'PATCH',
        path: '/repos/octo/app/hooks/HOOK',
        body: '{"active":false,"active":true}',
        status: 400,
        message: /key "active" appears twice/,
      },
    ],
    ...[
      'file:///etc/passwd',
      'javascript:alert(1)',
      '',
      'data:text/plain,ok',
      '/relative',
      'http://user:secret@example.com/h',
    ].flatMap((url): [string, { method: string; path: string; body: string; status: number; message: RegExp }][] => [
      [
        `a create with config.url ${JSON.stringify(url)}`,
        {
          method: 'POST',
          path: '/repos/octo/app/hooks',
          body: JSON.stringify({ events: ['issues'], config: { url } }),
          status: 422,
          message: /config\.url must/,
        },
      ],
      [
        `an update with config.url ${JSON.stringify(url)}`,
        {
          method: 'PATCH',
          path: '/repos/octo/app/hooks/HOOK',
          body: JSON.stringify({ config: { url } }),
          status: 422,
          message: /config\.url must/,
        },
      ],
      [
        `a config update with url ${JSON.stringify(url)}`,
        {
          method: 'PATCH',
          path: '/repos/octo/app/hooks/HOOK/config',
          body: JSON.stringify({ url }),
          status: 422,
          message: /config\.url must/,
        },
      ],
    ]),
  ];

  it.each(refused)('answers %s with a message', async (_name, { method, path: urlPath, body, status, message }) => {
    const before = await snapshot();
    const result = await call(method, urlPath.replace('HOOK', String(hookId)), body);
    expect(result.status, result.text).toBe(status);
    expect(result.json.message).toMatch(message);
    expect(await snapshot()).toBe(before);
  });

  it('accepts a body nested exactly 64 levels, and answers for that hook from then on', async () => {
    const created = await call(
      'POST',
      '/repos/octo/app/hooks',
      `{"events":["issues"],"config":{"url":"http://127.0.0.1:9/deep","insecure_ssl":${deep(62)}}}`,
    );
    expect(created.status, created.text).toBe(201);
    expect((await call('GET', `/repos/octo/app/hooks/${created.json.id}`)).status).toBe(200);
    await snapshot();
  });
});

describe('sandbox: methods', () => {
  it.each([
    ['PUT on the hook list', { method: 'PUT', path: '/repos/octo/app/hooks', allow: 'GET, POST' }],
    ['POST on a hook', { method: 'POST', path: '/repos/octo/app/hooks/1', allow: 'GET, DELETE, PATCH' }],
    ['DELETE on the client session', { method: 'DELETE', path: '/client-session', allow: 'GET' }],
    ['GET on the pings trigger', { method: 'GET', path: '/repos/octo/app/hooks/1/pings', allow: 'POST' }],
    ['GET on the reset path', { method: 'GET', path: '/__sandbox/reset', allow: 'POST' }],
  ])('answers %s with 405 and Allow', async (_name, { method, path: urlPath, allow }) => {
    const result = await call(method, urlPath);
    expect(result.status).toBe(405);
    expect(result.headers.get('allow')).toBe(allow);
    expect(result.json.message).toContain(`allowed: ${allow}`);
  });

  it('answers an unknown path with 404 whatever the method', async () => {
    for (const method of ['GET', 'PUT']) expect((await call(method, '/nothing/here')).status).toBe(404);
  });
});

describe('sandbox: a body over the limit', () => {
  /** Sends headers announcing 2 MB and then 1.5 MB of it over a raw socket; resolves with what came back once the sandbox closes. */
  function oversized(port: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(answer));
      setTimeout(
        () => reject(new Error(`the sandbox kept the connection open after answering: ${answer.split('\r\n')[0]}`)),
        10_000,
      ).unref();
      socket.write(
        'POST /repos/octo/app/hooks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n',
      );
      socket.write(Buffer.alloc(1_500_000, 0x20));
    });
  }

  it('answers 413 and closes the connection, since the rest of that body is not a request', async () => {
    const answer = await oversized(sandbox.port);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.toLowerCase()).toContain('connection: close');
  });

  it('contracts sandbox stops cleanly on SIGTERM after a 413: "Sandbox stopped.", exit 0', async () => {
    const child = spawn(process.execPath, [path.join(root, 'bin/contracts.js'), 'sandbox', '--port', '0'], {
      cwd: root,
      env: { ...process.env, SCARF_ANALYTICS: 'false' },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      for (let i = 0; i < 400 && !/Ctrl-C to stop/.test(out); i++)
        await new Promise((resolve) => setTimeout(resolve, 25));
      const url = /http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      expect(url, out).not.toBeNull();
      const response = await fetch(`${url![0]}/repos/octo/app/hooks`, {
        method: 'POST',
        body: 'x'.repeat(2_000_000),
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(413);
      await response.text();
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(out).toContain('Sandbox stopped.');
    } finally {
      child.kill('SIGKILL');
    }
  });
});
