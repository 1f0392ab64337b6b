// A fuzz run judges an answer that repeats the operation's last one (same status, headers and body) by that one's
// verdict, without parsing and checking it again. Nothing else may be taken for a repeat: a server that answers
// most valid requests well and some with a change in one header, the status or the body alone is caught on that
// change, whichever answer came before it.
import http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { FuzzRunner } from '../../src/fuzz/run-fuzz.js';
import { fuzzPluginsOf } from '../../src/plugins/registry.js';
import { HttpCapture } from '../../src/http/http-capture.js';
import { startSandbox } from '../../src/plugins/example-sandbox.js';
import { onLoopback } from '../helpers/loopback.js';
import { seedProject } from '../../src/config/seed-project.js';

let good: string;

beforeAll(async () => {
  // The sandbox's answer: valid by every check (the sandbox passes `contracts check` and `contracts fuzz`).
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
  const capture = new HttpCapture({ timeoutMs: 5000 });
  try {
    const answer = await capture.exchange({
      method: 'GET',
      url: `${sandbox.url}/client-session`,
      headers: [
        ['X-API-KEY', 'k'],
        ['X-API-VERSION', '2.4'],
      ],
    });
    good = answer.body;
  } finally {
    capture.close();
    await sandbox.stop();
  }
});

type Answer = { status: number; contentType: string; body: string };

/** Answers every request with `usual`, except every fifth with `odd`. Fixed headers, no Date: answers repeat exactly. */
async function serve(odd: (usual: Answer) => Answer): Promise<{ url: string; close(): Promise<void> }> {
  let count = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const usual = { status: 200, contentType: 'application/json', body: good };
      const answer = ++count % 5 === 0 ? odd(usual) : usual;
      response.sendDate = false;
      response.writeHead(answer.status, {
        'content-type': answer.contentType,
        'content-length': Buffer.byteLength(answer.body),
      });
      response.end(answer.body);
    });
  });
  return onLoopback(server);
}

async function fuzz(url: string) {
  const runner = new FuzzRunner({
    apis: [seedProject.api('client-session')],
    baseUrls: { 'client-session': url },
    phases: ['random'],
    maxExamples: 30,
    seed: 7,
    plugins: await fuzzPluginsOf(['client-session']),
    timeoutMs: 5000,
    strict: false,
    readOnly: false,
    maxTimeMs: 60_000,
    rate: 0,
    marker: 'repeat',
    env: {},
    log: () => undefined,
    addSecret: () => undefined,
    workers: 4,
  });
  const run = await runner.run();
  expect(run.error).toBeUndefined();
  const status = (check: string) =>
    run.results.find((result) => result.operation === 'retrieveClientSession' && result.check === check)?.status;
  return { run, status };
}

describe('answers that repeat the last one', () => {
  it('pass when every answer is the same valid one', async () => {
    const server = await serve((usual) => usual);
    try {
      const { run, status } = await fuzz(server.url);
      expect(run.failures).toEqual([]);
      expect(status('response_schema_conformance')).toBe('passed');
      expect(status('content_type_conformance')).toBe('passed');
      expect(status('status_code_conformance')).toBe('passed');
    } finally {
      await server.close();
    }
  });

  it.each([
    ['a header', 'content_type_conformance', (usual: Answer) => ({ ...usual, contentType: 'text/plain' })],
    ['the status', 'status_code_conformance', (usual: Answer) => ({ ...usual, status: 203 })],
    [
      'the body',
      'response_schema_conformance',
      // As long as the usual body, so that its Content-Length is the same: only the body differs.
      (usual: Answer) => ({ ...usual, body: usual.body.replace('"currencyCode":"EUR"', '"currencyCode":12345') }),
    ],
  ])('are told apart when only %s changes', async (_what, check, odd) => {
    const server = await serve(odd);
    try {
      const { run, status } = await fuzz(server.url);
      expect(status(check)).toBe('failed');
      expect(run.failures.map((failure) => failure.check)).toContain(check);
    } finally {
      await server.close();
    }
  });
});
