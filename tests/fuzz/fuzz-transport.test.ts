// The fuzz engine without sockets or a spawned CLI: FuzzRunner sends every request through a function playing the
// service (FuzzOptions.send, src/fuzz/fuzz-transport.ts). The stateful walk is green on a correct service and finds
// each planted lifecycle bug by its own rule; the failure book groups a bug's occurrences into one failure and
// keeps a replayable record of it (the walk's steps, create first).
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { specFileEntry } from '../../src/config/api-entry.js';
import type { Phase } from '../../src/fuzz/fuzz-case.js';
import type { FuzzSend } from '../../src/fuzz/fuzz-transport.js';
import { type FuzzRun, FuzzRunner } from '../../src/fuzz/run-fuzz.js';
import { type CrudBug, type CrudRequest, crudKey, crudService, crudSpec } from './stateful/crud-service.js';

let spec: string;
beforeAll(async () => {
  spec = path.join(await mkdtemp(path.join(os.tmpdir(), 'contracts-transport-')), 'shop.yaml');
  await writeFile(spec, crudSpec);
});

const base = 'http://shop.test';

/** A transport answering with `answer`: what went out recorded, nothing on the network. */
function fakeTransport(answer: (request: CrudRequest) => { status: number; body?: unknown }): {
  send: FuzzSend;
  sent: string[];
} {
  const sent: string[] = [];
  const send: FuzzSend = async (request) => {
    const url = new URL(request.url);
    sent.push(`${request.method} ${url.pathname}${url.search}`);
    const headers = Object.fromEntries(request.headers.map(([name, value]) => [name.toLowerCase(), value]));
    const { status, body } = answer({
      method: request.method,
      url: `${url.pathname}${url.search}`,
      headers,
      body: request.body ?? '',
    });
    const text = body === undefined ? '' : JSON.stringify(body);
    return {
      method: request.method,
      path: url.pathname,
      url: request.url,
      status,
      headers: body === undefined ? { 'content-length': '0' } : { 'content-type': 'application/json' },
      body: text,
    };
  };
  return { send, sent };
}

async function fuzz(send: FuzzSend, phases: Phase[], maxExamples = 20): Promise<FuzzRun> {
  const runner = new FuzzRunner({
    apis: [{ ...specFileEntry('shop', spec), credentials: [{ env: 'SHOP_KEY', securityScheme: 'key' }] }],
    baseUrls: { shop: base },
    phases,
    maxExamples,
    seed: 1,
    timeoutMs: 5000,
    strict: false,
    readOnly: false,
    maxTimeMs: 60_000,
    rate: 0,
    marker: 'transport',
    env: { SHOP_KEY: crudKey },
    remote: true,
    log: () => undefined,
    addSecret: () => undefined,
    send,
  });
  return runner.run();
}

const lifecycle = [
  'conflict_documented',
  'ensure_resource_availability',
  'ignored_auth',
  'listed_after_create',
  'paging_consistent',
  'read_after_write',
  'use_after_free',
];

describe('the stateful walk through a fake transport', () => {
  it('passes every lifecycle check on a correct service, sending nothing anywhere else', async () => {
    const { send, sent } = fakeTransport(crudService());
    const run = await fuzz(send, ['stateful']);
    expect(run.error).toBeUndefined();
    expect(run.failures).toEqual([]);
    const judged = run.results.filter((result) => lifecycle.includes(result.check));
    expect([...new Set(judged.map((result) => result.check))].sort()).toEqual(lifecycle);
    expect(judged.filter((result) => result.status !== 'passed')).toEqual([]);
    expect(sent[0]).toBe('POST /items');
    expect(run.requests).toBe(sent.length);
  });

  it.each([
    ['unreadable', 'ensure_resource_availability', 'createItem'],
    ['still-there', 'use_after_free', 'deleteItem'],
    ['not-stored', 'read_after_write', 'updateItem'],
    ['unlisted', 'listed_after_create', 'createItem'],
    ['page-repeat', 'paging_consistent', 'listItems'],
    ['archive-twice', 'conflict_documented', 'archiveItem'],
    ['delete-ignores-key', 'ignored_auth', 'deleteItem'],
  ] as const)('finds the lifecycle bug %s by %s alone, on %s', async (bug: CrudBug, check, operation) => {
    const run = await fuzz(fakeTransport(crudService([bug])).send, ['stateful']);
    expect(run.failures.map((failure) => ({ check: failure.check, operation: failure.operation }))).toEqual([
      { check, operation },
    ]);
  });
});
describe('the failure book through a fake transport', () => {
  it('groups every occurrence of one cause into one failure per check, counting each judged request', async () => {
    const crud = crudService();
    // A list with a large page crashes: one cause, hit by most random cases of listItems.
    const crashes = (request: CrudRequest) =>
      request.method === 'GET' && /[?&]limit=([5-9]\d|100)(&|$)/.test(request.url)
        ? { status: 500, body: { error: 'boom' } }
        : crud(request);
    let crashed = 0;
    const { send } = fakeTransport((request) => {
      const answer = crashes(request);
      if (answer.status === 500) crashed++;
      return answer;
    });
    const run = await fuzz(send, ['random'], 40);
    const groups = run.failures.map(({ key, check, operation, status, kind, phase, count }) => ({
      key,
      check,
      operation,
      status,
      kind,
      phase,
      count,
    }));
    const group = (check: string) => ({
      key: `listItems\u0000${check}\u0000500\u0000ordinary values`,
      check,
      operation: 'listItems',
      status: 500,
      kind: 'ordinary values',
      phase: 'random',
      count: groups[0]?.count,
    });
    expect(groups).toEqual([group('not_a_server_error'), group('status_code_conformance')]);
    // Every crash the random phase judged is counted once in each group (shrinking's requests are not).
    expect(groups[0]!.count).toBeGreaterThan(1);
    expect(groups[0]!.count).toBeLessThanOrEqual(crashed);
  });

  it("keeps a walk failure's replay record: every step from the create, the failing read last, and the finding", async () => {
    const run = await fuzz(fakeTransport(crudService(['not-stored'])).send, ['stateful']);
    expect(run.failures).toHaveLength(1);
    const failure = run.failures[0]!;
    const steps = failure.sequence!.steps;
    expect(
      steps.map((step) => `${step.request.method} ${new URL(step.request.url).pathname} → ${step.status}`),
    ).toEqual(['POST /items → 201', 'GET /items/itm_1 → 200', 'PATCH /items/itm_1 → 200', 'GET /items/itm_1 → 200']);
    const sentName = (JSON.parse(steps[2]!.request.body!) as { name: string }).name;
    const storedName = (steps[0]!.json as { name: string }).name;
    const message = `updateItem on itemId "itm_1" set name to ${JSON.stringify(sentName)} and answered 2xx, but the next getItem shows ${JSON.stringify(storedName)}`;
    expect(failure.sequence!.finding).toEqual({
      check: 'read_after_write',
      severity: 'error',
      operation: 'updateItem',
      instancePath: '/name',
      message,
      expected: sentName,
      actual: storedName,
    });
    expect({ request: failure.request, steps: failure.steps, message: failure.message }).toEqual({
      request: steps[3]!.request,
      steps: 4,
      message,
    });
    expect(failure.script!.split('\n').slice(0, 2)).toEqual([
      '#!/usr/bin/env bash',
      `# contracts fuzz, failure ${failure.id} (seed 1): read_after_write · updateItem · 200`,
    ]);
  });
});
