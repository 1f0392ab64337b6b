// Long-running commands stop, and stop their children, when the process that launched them goes away: a SIGTERM
// to `npx`'s own process (the group leader) alone must not leave `contracts mock` or its Prism processes behind.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { root } from '../helpers/paths.js';

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/** Pids of live processes whose command line contains `marker`. */
function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').includes(marker))
        pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

async function until(condition: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return condition();
}

describe.skipIf(process.platform !== 'linux')('when the launcher goes away', () => {
  it.each([
    [
      'mock',
      async () => {
        const [a, b] = [await freePort(), await freePort()];
        return {
          args: ['mock', '--port-client-session', String(a), '--port-repository-webhooks', String(b)],
          ports: [a, b],
        };
      },
    ],
    [
      'sandbox',
      async () => {
        const port = await freePort();
        return { args: ['sandbox', '--port', String(port)], ports: [port] };
      },
    ],
  ] as const)(
    'a SIGTERM to the npx leader alone stops contracts %s and everything it started within 10 s',
    async (_name, setup) => {
      const { args, ports } = await setup();
      const leader = spawn('npx', ['contracts', ...args], {
        cwd: root,
        detached: true,
        stdio: 'ignore',
        env: { ...process.env, SCARF_ANALYTICS: 'false', npm_config_yes: 'true' },
      });
      const marker = args.join(' ');
      try {
        expect(await until(async () => (await Promise.all(ports.map(listening))).every(Boolean), 20_000)).toBe(true);
        expect(processesWith(marker).length).toBeGreaterThan(1);
        process.kill(leader.pid!, 'SIGTERM');
        expect(
          await until(
            async () => !(await Promise.all(ports.map(listening))).some(Boolean) && processesWith(marker).length === 0,
            10_000,
          ),
        ).toBe(true);
      } finally {
        try {
          process.kill(-leader.pid!, 'SIGKILL');
        } catch {
          // already gone, as it should be
        }
        for (const pid of processesWith(marker)) process.kill(pid, 'SIGKILL');
      }
    },
    40_000,
  );
});
