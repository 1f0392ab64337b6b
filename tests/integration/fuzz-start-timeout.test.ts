// Prism's start message tells the user to pass `--start-timeout SECONDS`; fuzz, which starts that mock without
// --base-url, refused the option (unknown option). It takes it now, in seconds as contracts mock does; past it, the
// run goes on against our own engine (Prism needs minutes on Stripe's description), as --mock-engine own asks at once.
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';

const spec = `openapi: 3.1.0
info: { title: t, version: "1" }
paths:
  /a:
    get: { operationId: a, responses: { "200": { description: ok } } }
`;

const ownEngine =
  /^contracts fuzz: no --base-url: fuzzing the mock of api \(our own engine: documented answers, examples first, each checked against the spec before it is served\)$/m;

describe('contracts fuzz --start-timeout and --mock-engine', () => {
  it.each<[string, { args: string[]; want: RegExp[]; code: number }]>([
    [
      'bounds the embedded Prism start, names the same option, and goes on with our own engine',
      {
        args: ['--mock-engine', 'prism', '--start-timeout', '0.001'],
        want: [
          /^contracts fuzz: Prism for api did not answer on http:\/\/127\.0\.0\.1:\d+ within 0\.0 s: a big spec may need longer \(--start-timeout SECONDS\); serving the mock with our own engine instead \(--mock-engine own starts it at once\)$/m,
          ownEngine,
        ],
        code: 0,
      },
    ],
    [
      'fuzzes our own engine from the start with --mock-engine own',
      { args: ['--mock-engine', 'own'], want: [ownEngine], code: 0 },
    ],
    [
      'refuses a --start-timeout that is no number of seconds',
      {
        args: ['--start-timeout', '5ms'],
        want: [/^contracts fuzz: --start-timeout takes a number of seconds, more than 0 and at most 3600, not "5ms"$/m],
        code: 2,
      },
    ],
    [
      'refuses a --mock-engine it does not know',
      {
        args: ['--mock-engine', 'wiremock'],
        want: [/^contracts fuzz: --mock-engine takes stateful, own or prism, not "wiremock"$/m],
        code: 2,
      },
    ],
  ])(
    '%s',
    async (_name, { args, want, code: wanted }) => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-start-timeout-'));
      await writeFile(path.join(dir, 'api.yaml'), spec);
      const { code, output } = await runMain(['fuzz', '--spec', 'api.yaml', '--max-examples', '3', ...args], dir);
      for (const pattern of want) expect(output).toMatch(pattern);
      expect(code, output).toBe(wanted);
    },
    120_000,
  );
});
