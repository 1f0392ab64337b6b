// `contracts receive` as an attacker meets it: 64 sockets opened and left idle do not lock real deliveries out.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';

describe('contracts receive under idle connections (real process)', () => {
  it('takes a real delivery while 64 idle sockets are open, closing the longest idle', async () => {
    const child = spawn(process.execPath, [path.join(root, 'bin/contracts.js'), 'receive', '--port', '0'], {
      cwd: root,
      env: { ...process.env, WEBHOOK_SECRET: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((resolve) => child.once('close', resolve));
    const idle: net.Socket[] = [];
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stdout = '';
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          const match = /Receiving webhook deliveries at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
          if (match) resolve(match[1]!);
        });
        child.once('close', () => reject(new Error(`contracts receive exited: ${stdout}`)));
      });
      for (let index = 0; index < 64; index++) {
        const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
        socket.on('error', () => undefined);
        await new Promise((resolve) => socket.once('connect', resolve));
        idle.push(socket);
      }
      await sleep(200);
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-event': 'ping', 'user-agent': 'test' },
        body: '{"zen":"z","hook_id":1}',
        signal: AbortSignal.timeout(5000),
      });
      expect(response.status).toBe(200);
      await expect.poll(() => idle[0]!.readableEnded || idle[0]!.destroyed, { timeout: 2000 }).toBe(true);
    } finally {
      for (const socket of idle) socket.destroy();
      child.kill('SIGINT');
      await exited;
    }
  }, 30_000);
});
