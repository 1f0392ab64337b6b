// An interrupt ends a wait for a delivery at once, like the API polls: the run stops and deletes its hooks.
import { afterEach, describe, expect, it } from 'vitest';
import { CheckRunner } from '../../src/runner/run-check.js';
import { Redactor } from '../../src/reports/redact.js';
import { startSandbox, type Sandbox } from '../../src/plugins/example-sandbox.js';
import { freePort } from '../helpers/free-port.js';
import { repositoryWebhooksCheck } from '../../src/plugins/repository-webhooks/check/check-plugin.js';
import { seedProject } from '../../src/config/seed-project.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.stop();
  sandbox = undefined;
});

describe('waiting for a delivery', () => {
  it('ends on an interrupt, long before --delivery-wait, and the hooks are deleted', async () => {
    sandbox = await startSandbox({ port: 0 });
    // The hooks deliver to a port where nothing listens: the API records the attempts, the receiver gets nothing.
    const dead = await freePort();
    const runner = new CheckRunner({
      apis: [seedProject.api('repository-webhooks')],
      baseUrl: sandbox.url,
      timeoutMs: 5000,
      retries: 0,
      env: {},
      redactor: new Redactor(),
      plugins: () => repositoryWebhooksCheck,
      settings: { owner: 'octo', repo: 'app', hookUrl: `http://127.0.0.1:${dead}/nowhere`, deliveryWaitMs: 120_000 },
      receiver: { port: 0 },
    });
    const started = Date.now();
    const running = runner.run();
    // Well into the first wait for a delivery: the ping is answered and recorded within a second on the sandbox.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    runner.interrupt();
    const run = await running;
    expect(run.error?.code).toBe('INTERRUPTED');
    expect(Date.now() - started).toBeLessThan(60_000);
    const hooks = await (await fetch(`${sandbox.url}/repos/octo/app/hooks`)).json();
    expect(hooks).toEqual([]);
  }, 90_000);
});
