// `contracts diff`: classifies every change between two versions of a spec for the API's clients.
import path from 'node:path';
import { specPath, type Project } from '../config/project.js';
import { compareChanges, diffSpecs } from '../core/diff/diff-specs.js';
import { applyPolicy, levelChoices, parseLevels, rulesHelp } from '../core/diff/diff-policy.js';
import type { DiffLevel } from '../core/diff/diff-rules.js';
import { ContractsError } from '../core/errors.js';
import { diffFormats, failsAt, renderDiff, summaryLine, type DiffFormat } from '../diff/diff-reports.js';
import { defaultIgnoreFile, filePair, gitPairs, readIgnoreFile } from '../diff/load-diff-inputs.js';
import { exitCodes, type Command } from './command.js';
import { aside } from './help.js';
import { requireChoice } from './options/values.js';
import { formatOption } from './options/shared-options.js';
import { texts, valueOf } from './options/typed-option.js';

const diffFormat = formatOption<DiffFormat>(diffFormats);

export const diffCommand: Command = {
  name: 'diff',
  summary: 'Classify spec changes for clients: breaking (error), warning, info',
  usage: '[options] BASE HEAD | --base REF [SPEC...]',
  description(project: Project) {
    return [
      'Compares two versions of an OpenAPI spec (2.0 to 3.2) and classifies each change for the clients of the API, with a',
      'stable rule id and the place (file:line in HEAD, or in BASE for what was removed). Schemas are compared by the',
      'instances they accept, also inside allOf/anyOf/oneOf: a request that accepts fewer bodies breaks clients, a',
      'response that may take new shapes may break them; an equivalent rewrite is no change. Where that cannot be',
      'decided (a oneOf whose branches overlap, not, if/then), it says so as schema-change-undecided.',
      `With --base REF it compares each spec${aside(
        project.apis.map((entry) => entry.spec),
        'by default ',
      )} with its`,
      'version at the git ref, read with git show (no checkout).',
      '',
      `Accepted changes: ${defaultIgnoreFile} (or --ignore-file) lists them, each with its reason:`,
      '  - rule: response-enum-value-added',
      '    location: GET /orders             # optional: a file, file:line, or the start of an operation',
      '    reason: ZWG announced to clients in the 2.5 release notes',
      '',
      'Rules (id, level, meaning):',
      rulesHelp(),
    ].join('\n');
  },
  positionals: [
    { name: 'BASE HEAD', description: 'The old and the new spec file (without --base)' },
    { name: 'SPEC', description: 'With --base: the specs to compare (default: the shipped specs)' },
  ],
  options: [
    {
      name: 'base',
      type: 'string',
      valueName: 'ref',
      description: 'Compare each spec with its version at this git ref (e.g. origin/main)',
    },
    diffFormat,
    {
      name: 'fail-on',
      type: 'string',
      valueName: 'error|warning',
      description: 'Lowest level that makes the exit status 1',
      default: 'error',
    },
    {
      name: 'level',
      type: 'string',
      valueName: 'rule=level',
      multiple: true,
      description: `Set a rule's level (${levelChoices.join(', ')})`,
    },
    {
      name: 'ignore-file',
      type: 'string',
      valueName: 'file',
      description: `Accepted changes, each with a reason (default: ${defaultIgnoreFile} if present)`,
    },
  ],
  examples: [
    { command: 'contracts diff --base origin/main', description: 'Both shipped specs against the main branch' },
    {
      command: 'contracts diff old.yaml new.yaml --format markdown >> "$GITHUB_STEP_SUMMARY"',
      description: 'Two files; a markdown report for a PR',
    },
    {
      command: 'contracts diff --base origin/main --format github',
      description: 'Annotations on the pull request diff',
    },
    {
      command: 'contracts diff --base v2.4 --fail-on warning --level operation-id-changed=off',
      description: 'Warnings fail too; one rule off',
    },
  ],
  async run(options, positionals, io) {
    const format = valueOf(options, diffFormat);
    const failOn = requireChoice('fail-on', options['fail-on'], ['error', 'warning']) as DiffLevel;
    const levels = parseLevels(texts(options.level));
    const ignoreFile = typeof options['ignore-file'] === 'string' ? options['ignore-file'] : undefined;
    const ignores = await readIgnoreFile(ignoreFile ?? defaultIgnoreFile, io.cwd, ignoreFile !== undefined);
    const ref = typeof options.base === 'string' ? options.base : undefined;
    let pairs;
    if (ref !== undefined) {
      const files =
        positionals.length > 0 ? positionals.map((file) => path.resolve(io.cwd, file)) : io.project.all().map(specPath);
      pairs = await gitPairs(ref, files, io.cwd);
    } else {
      if (positionals.length !== 2) throw new ContractsError('USAGE', 'give two spec files (BASE HEAD), or --base REF');
      pairs = [await filePair(positionals[0]!, positionals[1]!, io.cwd)];
    }
    const changes = pairs.flatMap(({ base, head }) => diffSpecs(base, head));
    const title = ref !== undefined ? `${ref} → working tree` : `${pairs[0]!.base.file} → ${pairs[0]!.head.file}`;
    const result = applyPolicy(changes, { levels, ignores });
    const report = { ...result, changes: result.changes.sort(compareChanges), title, failOn };
    const output = renderDiff(report, format);
    if (output !== '') io.out(output);
    io.err(summaryLine(report));
    return report.changes.some((change) => failsAt(change.level, failOn)) ? exitCodes.failed : exitCodes.ok;
  },
};
