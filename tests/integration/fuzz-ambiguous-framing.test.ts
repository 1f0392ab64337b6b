// A target that answers with both Content-Length and Transfer-Encoding: chunked (a framing two readers can take two
// ways: the stuff of response smuggling) is at fault, as the proxy judges it (it refuses to relay such an answer).
// fuzz ended "cannot reach …: HPE_UNEXPECTED_CONTENT_LENGTH", exit 2, as if the target were down; now it is a
// finding for the operation, exit 1, and the other operations are fuzzed.
import { mkdtemp, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const spec = `openapi: 3.1.0
info: { title: t, version: "1" }
paths:
  /ambiguous:
    get:
      operationId: ambiguous
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: object } } } }
  /plain:
    get:
      operationId: plain
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: object } } } }
`;

/** A raw HTTP/1.1 server: /ambiguous is answered with Content-Length beside chunked, anything else plainly. */
function rawServer(): net.Server {
  return net.createServer((socket) => {
    let buffered = '';
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      let end = buffered.indexOf('\r\n\r\n');
      while (end >= 0) {
        const head = buffered.slice(0, end);
        buffered = buffered.slice(end + 4);
        socket.write(
          head.startsWith('GET /ambiguous')
            ? 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nContent-Length: 2\r\n' +
                'Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n'
            : 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}',
        );
        end = buffered.indexOf('\r\n\r\n');
      }
    });
  });
}

describe('contracts fuzz against a target that frames an answer two ways', () => {
  it('reports it as a finding for that operation (exit 1), not as a target it cannot reach', async () => {
    const project = await mkdtemp(path.join(os.tmpdir(), 'contracts-framing-'));
    await writeFile(path.join(project, 'api.yaml'), spec);
    await writeFile(path.join(project, 'contracts.config.yaml'), 'apis:\n  - name: framing\n    spec: api.yaml\n');
    const server = rawServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const result = await runCli(['fuzz', '--api', 'framing', '--base-url', baseUrl, '--max-examples', '5'], {
        cwd: project,
        env: { CONTRACTS_CONFIG: '' },
      });
      const output = result.stdout + result.stderr;
      expect(output).not.toMatch(/cannot reach|HPE_/);
      expect(output).toMatch(/✗ ambiguous/);
      expect(output).toMatch(/✓ plain/);
      expect(result.code, output).toBe(1);
    } finally {
      server.close();
    }
  }, 120_000);
});
