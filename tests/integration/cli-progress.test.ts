// The progress line of long runs, seen as a user sees it: the real CLI under a pseudo-terminal (`script` from
// util-linux), fed a HAR capture through a FIFO that pauses mid-way, so the run lasts past the 2 s delay.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';

const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-progress-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const entry = (status: number) =>
  JSON.stringify({
    request: { method: 'GET', url: 'http://127.0.0.1:1/repos/o/r/hooks/1', headers: [] },
    response: { status, headers: [{ name: 'content-type', value: 'application/json' }], content: { text: '{}' } },
  });
const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** Runs the CLI with `args`, under a pseudo-terminal when `tty`; what the terminal (or stderr) received. */
async function run(
  args: string[],
  tty: boolean,
  whileRunning: () => Promise<void> = async () => undefined,
): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, path.join(root, 'bin/contracts.js'), ...args];
  const child = tty
    ? spawn('script', ['-qec', command.map(quote).join(' '), '/dev/null'], {
        cwd: root,
        env: { ...process.env, SCARF_ANALYTICS: 'false', COLUMNS: '120' },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : spawn(command[0]!, command.slice(1), {
        cwd: root,
        env: { ...process.env, SCARF_ANALYTICS: 'false' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await whileRunning();
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, output };
}

/** A FIFO that gives two exchanges, waits 3 s, then the third and the end of the capture. */
async function slowHar(name: string): Promise<{ file: string; feed: () => Promise<void> }> {
  const file = path.join(dir, name);
  execFileSync('mkfifo', [file]);
  return {
    file,
    feed: async () => {
      const stream = createWriteStream(file);
      // Opening a FIFO waits for its reader: the pause starts once the CLI is reading, however slow it was to start.
      await once(stream, 'open');
      stream.write(`{"log":{"version":"1.2","entries":[${entry(200)},${entry(418)},`);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      stream.end(`${entry(200)}]}}`);
      await once(stream, 'close');
    },
  };
}

const progressLine = /\r\x1b\[Kvalidate: \d+ exchanges · \d+\/s · \d+ failing · \d+ s/;

describe.skipIf(!hasScript)('the progress line (real CLI, pseudo-terminal)', () => {
  it('validate --har past 2 s shows done, rate and failing on the terminal, then clears it before the summary', async () => {
    const har = await slowHar('a.har');
    const { code, output } = await run(['validate', '--api', 'repository-webhooks', '--har', har.file], true, har.feed);
    expect(output).toMatch(progressLine);
    const summary = output.indexOf('3 exchanges: 2 conform, 1 fail');
    expect(summary).toBeGreaterThan(0);
    // The last thing before the summary that touched the line cleared it.
    const before = output.slice(0, summary);
    expect(before.lastIndexOf('\r\x1b[K')).toBeGreaterThan(before.lastIndexOf('validate: '));
    expect(code).toBe(1);
  }, 30_000);

  it.each([
    ['with --quiet', ['--quiet'], true],
    ['when standard error is not a terminal', [], false],
  ])(
    'shows nothing %s, and the summary still',
    async (_name, extra, tty) => {
      const har = await slowHar(`b-${tty}.har`);
      const { code, output } = await run(
        ['validate', '--api', 'repository-webhooks', '--har', har.file, ...extra],
        tty,
        har.feed,
      );
      expect(output).not.toContain('exchanges ·');
      expect(output).not.toContain('\x1b[K');
      expect(output).toContain('3 exchanges: 2 conform, 1 fail');
      expect(code).toBe(1);
    },
    30_000,
  );

  it('fuzz past 2 s shows requests, rate and failures so far', async () => {
    // A target that answers 500 to everything, the first request only after 3 s.
    let first = true;
    const server = http.createServer((_request, response) => {
      const answer = () => response.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"boom"}');
      if (first) {
        first = false;
        setTimeout(answer, 3000);
      } else answer();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const { code, output } = await run(
        [
          'fuzz',
          '--api',
          'client-session',
          '--base-url',
          url,
          '--phases',
          'examples',
          '--max-examples',
          '2',
          '--seed',
          '1',
          '--rate',
          '0',
        ],
        true,
      );
      expect(output).toMatch(/\r\x1b\[Kfuzz: \d+ requests · \d+\/s · \d+ failures · \d+ s/);
      expect(code).toBe(1);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }, 60_000);
});
