// Prism's start message tells the user to pass `--start-timeout SECONDS`; fuzz, which starts that mock without
// --base-url, refused the option (unknown option). It takes it now, in seconds as contracts mock does.
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

describe('contracts fuzz --start-timeout', () => {
  it.each<[string, { value: string; want: RegExp }]>([
    [
      'bounds the embedded mock start, and its message names the same option',
      {
        value: '0.001',
        want: /^contracts fuzz: Prism for api did not answer on http:\/\/127\.0\.0\.1:\d+ within 0\.0 s: a big spec may need longer \(--start-timeout SECONDS\)$/m,
      },
    ],
    [
      'refuses a value that is no number of seconds',
      {
        value: '5ms',
        want: /^contracts fuzz: --start-timeout takes a number of seconds, more than 0 and at most 3600, not "5ms"$/m,
      },
    ],
  ])(
    '%s',
    async (_name, { value, want }) => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-start-timeout-'));
      await writeFile(path.join(dir, 'api.yaml'), spec);
      const { code, output } = await runMain(['fuzz', '--spec', 'api.yaml', '--start-timeout', value], dir);
      expect(output).toMatch(want);
      expect(code, output).toBe(2);
    },
    60_000,
  );
});
