// `contracts receive` and `validate --delivery` without --api, in a project of several APIs: which one the
// deliveries belong to is the config's to say (its webhooks: blocks); when it cannot, one usage line and exit 2.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { shopSpec } from '../helpers/webhooks-project.js';
import { runMain } from '../helpers/run-main.js';

async function project(blocks: { a: boolean; b: boolean }): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'contracts-which-api-'));
  await writeFile(path.join(dir, 'shop.yaml'), shopSpec);
  const entry = (name: string, block: boolean) =>
    [
      `  - name: ${name}`,
      '    spec: shop.yaml',
      ...(block ? ['    webhooks: { eventHeader: X-Shop-Topic }'] : []),
    ].join('\n');
  await writeFile(
    path.join(dir, 'contracts.config.yaml'),
    `apis:\n${entry('shop', blocks.a)}\n${entry('shop-next', blocks.b)}\n`,
  );
  return dir;
}

describe('receive and validate --delivery without --api, in a project of several APIs', () => {
  it.each([
    {
      blocks: { a: true, b: true },
      line: 'give --api NAME: several APIs of the config have a webhooks: block (shop, shop-next)',
    },
    {
      blocks: { a: false, b: false },
      line: 'give --api NAME: no API of the config has a webhooks: block to say which one sends these deliveries (shop, shop-next)',
    },
  ])('asks for --api in one line when the blocks are $blocks', async ({ blocks, line }) => {
    const dir = await project(blocks);
    await writeFile(path.join(dir, 'delivery.json'), '{}');
    await writeFile(path.join(dir, 'headers.txt'), 'Content-Type: application/json\n');
    const validate = ['validate', '--delivery', '--headers', 'headers.txt', '--body', 'delivery.json'];
    for (const args of [['receive', '--port', '0'], validate]) {
      const command = args[0]!;
      expect(await runMain(args, dir)).toEqual({
        code: 2,
        output: `contracts ${command}: ${line}\nRun \`contracts ${command} --help\` for usage.`,
      });
    }
  });
});
