// `contracts proxy` in front of an HTTPS target: the connection to the target is TLS, and its certificate is
// verified as Node verifies any (the system's CAs plus NODE_EXTRA_CA_CERTS): an unknown certificate is a 502 with
// the reason, never a silent downgrade; a trusted one carries the traffic.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileContract } from '../../src/core/compile-contract.js';
import { loadSpec } from '../../src/core/load-spec.js';
import { startProxy } from '../../src/proxy/start-proxy.js';
import { root, specFile } from '../helpers/paths.js';
import { watchProxyProcess } from '../helpers/proxy.js';

const certFile = path.join(root, 'tests/fixtures/tls/cert.pem');
const seen: { host: string | undefined; url: string | undefined }[] = [];
let target: https.Server;
let targetUrl: string;

beforeAll(async () => {
  target = https.createServer(
    { cert: readFileSync(certFile), key: readFileSync(path.join(root, 'tests/fixtures/tls/key.pem')) },
    (req, res) => {
      seen.push({ host: req.headers.host, url: req.url });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"over":"tls"}');
    },
  );
  target.listen(0, '127.0.0.1');
  await once(target, 'listening');
  targetUrl = `https://127.0.0.1:${(target.address() as AddressInfo).port}`;
});
afterAll(async () => {
  target?.closeAllConnections();
  await new Promise((resolve) => target?.close(resolve));
});

describe('contracts proxy to an HTTPS target', () => {
  it('answers 502 naming the certificate problem when the target certificate is not trusted', async () => {
    const contract = compileContract(await loadSpec(specFile('client-session')));
    const proxy = await startProxy({ contract, target: targetUrl, maxBodyBytes: 1 << 20 });
    try {
      const before = seen.length;
      const response = await fetch(`${proxy.url}/client-session`);
      expect(response.status).toBe(502);
      expect(((await response.json()) as { reason: string }).reason).toMatch(/SELF_SIGNED|self[- ]signed/i);
      expect(seen.length).toBe(before);
    } finally {
      await proxy.stop();
    }
  });

  it('carries the traffic over TLS when the certificate is trusted (NODE_EXTRA_CA_CERTS)', async () => {
    const child = spawn(
      process.execPath,
      [path.join(root, 'bin/contracts.js'), 'proxy', '--api', 'client-session', '--target', targetUrl, '--port', '0'],
      { env: { ...process.env, NODE_EXTRA_CA_CERTS: certFile }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const { output, url: listening } = watchProxyProcess(child);
    const exited = new Promise((resolve) => child.once('close', resolve));
    try {
      const url = await listening;
      const before = seen.length;
      const response = await fetch(`${url}/client-session?x=1`, { headers: { 'X-API-VERSION': '2.4' } });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('{"over":"tls"}');
      expect(seen.slice(before)).toEqual([{ host: targetUrl.slice('https://'.length), url: '/client-session?x=1' }]);
    } finally {
      child.kill('SIGINT');
    }
    await exited;
    expect(output.stdout).toContain('SIGINT: 1 exchange');
  }, 60_000);
});
