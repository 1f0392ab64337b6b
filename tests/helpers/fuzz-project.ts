// `contracts fuzz` run in a scratch project against its stand-in, its JSON report read back.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { runCli } from './run-cli.js';
import type { ScratchProject } from './user-project.js';

export async function fuzzProject<Report>(project: ScratchProject, api: string, extra: string[]) {
  const result = await runCli(
    ['fuzz', '--api', api, '--base-url', project.baseUrl, ...extra, '--report', 'json:r.json'],
    { cwd: project.dir },
  );
  const report = JSON.parse(await readFile(path.join(project.dir, 'r.json'), 'utf8')) as Report;
  return { ...result, report };
}
