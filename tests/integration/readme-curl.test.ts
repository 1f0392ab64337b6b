// The README's curl examples, run as printed against real mocks (only the ports are swapped for free ones).
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMocks, type Mocks } from '../../src/mock/start-mocks.js';
import { root } from '../helpers/paths.js';

const run = promisify(execFile);
let mocks: Mocks;
let examples: { command: string; status: string }[] = [];

beforeAll(async () => {
  const readme = await readFile(path.join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### `contracts mock`'), readme.indexOf('### Typed clients'));
  examples = [...section.matchAll(/^(curl .+?)\s+# (\d{3})$/gm)].map((m) => ({ command: m[1]!, status: m[2]! }));
  mocks = await startMocks({ ports: { 'client-session': 0, 'repository-webhooks': 0 } });
});
afterAll(async () => {
  await mocks?.stop();
});

describe('README curl examples', () => {
  it('has the examples this test runs', () => {
    expect(examples.length).toBeGreaterThanOrEqual(8);
  });

  it('each gets the status its comment promises', async () => {
    for (const { command, status } of examples) {
      const actual = command
        .replace('127.0.0.1:4010', new URL(mocks.urls['client-session']!).host)
        .replace('127.0.0.1:4011', new URL(mocks.urls['repository-webhooks']!).host);
      const { stdout } = await run('bash', ['-c', actual]);
      expect(stdout.split('\r\n')[0], command).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      if (command.includes('X-API-VERSION: 2.3')) expect(stdout).toContain('x-api-version');
    }
  });
});
