// `contracts generate`: TypeScript types from the specs into generated/, or --check that they are current.
import path from 'node:path';
import type { Project } from '../config/project.js';
import { exitCodes, type Command } from './command.js';
import { generateEntries } from './generate-specs.js';
import { specOption } from './spec-option.js';

export const generateCommand: Command = {
  name: 'generate',
  summary: 'Generate TypeScript types from the specs (--check: fail when stale)',
  usage: '[--check] [--out-dir DIR] [--spec [API=]FILE]...',
  description(project: Project) {
    return [
      'Runs openapi-typescript on each spec of the config and writes one file per API, with a do-not-edit banner:',
      ...project.apis.map((entry) => `  ${entry.spec} -> ${entry.generated}`),
      'With --check nothing is written: it exits 1 and names each file that differs from what the specs generate.',
      'With --spec only the APIs it names are generated, from the files it gives (Swagger 2.0 or OpenAPI 3.0-3.2).',
    ].join('\n');
  },
  options: [
    { name: 'check', type: 'boolean', description: 'Write nothing; exit 1 when a generated file is stale or missing' },
    {
      name: 'out-dir',
      type: 'string',
      valueName: 'dir',
      description: "Directory of the generated files (default: each API's `generated` path in the config)",
    },
    specOption(
      'A Swagger 2.0 or OpenAPI 3.0-3.2 file: FILE alone (without a config, its types go to generated/NAME.ts), ' +
        'or API=FILE for an API of the config (repeatable)',
    ),
  ],
  examples: [
    { command: 'contracts generate', description: 'Regenerate generated/ after changing a spec' },
    { command: 'contracts generate --check', description: 'In CI: fail when generated/ has drifted from specs/' },
    {
      command: 'contracts generate --spec petstore.yaml --out-dir types',
      description: 'Types for one file, no config',
    },
  ],
  async run(options, _positionals, io) {
    const { findStale, renderAll, writeGenerated } = await import('../generate/generate-types.js');
    const outDir = options['out-dir'] === undefined ? undefined : path.resolve(io.cwd, String(options['out-dir']));
    const files = await renderAll(outDir, generateEntries(options.spec, io.cwd, io.project));
    const relative = (file: string) => path.relative(io.cwd, file) || file;
    if (options.check) {
      const stale = await findStale(files);
      for (const item of stale)
        io.out(
          `${relative(item.file)}: ${item.reason === 'missing' ? 'missing' : 'stale'}: run \`npx contracts generate\``,
        );
      if (stale.length === 0) io.err(`generated types are up to date (${files.length} files)`);
      return stale.length > 0 ? exitCodes.failed : exitCodes.ok;
    }
    await writeGenerated(files);
    for (const file of files) io.out(`${file.api.spec} -> ${relative(file.file)}`);
    return exitCodes.ok;
  },
};
