// Renders `contracts --help` and `contracts <command> --help` from the command table, within `helpWidth` columns:
// descriptions are reflowed, option descriptions wrap under their column, long example commands continue with `\`.
import type { Project } from '../config/project.js';
import type { OptionSpec, ProjectCommand } from './command.js';

/** No line of any help is wider: a terminal of 100 columns (or a CI log) shows it without wrapping it itself. */
export const helpWidth = 100;
const flagColumn = 28;

/**
 * A list said in parentheses after a phrase (` (a :4010, b :4011)`), or nothing when the list is empty: outside a
 * project there are no APIs to name, and help never prints `()`.
 */
export function aside(items: readonly string[], lead = ''): string {
  return items.length === 0 ? '' : ` (${lead}${items.join(', ')})`;
}

export function commandHelp(command: ProjectCommand): string {
  const lines = [
    ...wrapWords(`Usage: contracts ${command.name} ${command.usage}`.trimEnd(), helpWidth, '', '    '),
    '',
    ...reflow(command.description),
    '',
  ];
  if (command.positionals?.length) {
    lines.push('Arguments:');
    for (const positional of command.positionals)
      lines.push(...columns(positional.name, positional.description, flagColumn));
    lines.push('');
  }
  lines.push('Options:');
  for (const option of command.options)
    lines.push(...columns(flagOf(option), option.description + extraOf(option), flagColumn));
  lines.push(
    ...columns(
      '--config <file>',
      'The APIs to work on (default: the file CONTRACTS_CONFIG names, else contracts.config.yaml here or in the nearest folder above)',
      flagColumn,
    ),
  );
  lines.push(...columns('-h, --help', 'Show this help', flagColumn));
  lines.push('', 'Examples:');
  for (const example of command.examples)
    lines.push(
      ...shellLines(example.command, '  ', '      '),
      ...wrapWords(example.description, helpWidth, '      ', '      '),
    );
  lines.push('', ...wrapWords(exitStatus, helpWidth, '', ''));
  return lines.join('\n');
}

export function mainHelp(commands: ProjectCommand[], project: Project): string {
  const lines = [
    'Usage: contracts <command> [options]',
    '',
    ...reflow(
      [
        `API contract testing for the APIs of the config (${project.names.join(', ') || 'none yet: contracts init SPEC adds one'}):`,
        'lint the OpenAPI specs, generate TypeScript types from them, serve them as Prism mocks or as a stateful',
        'sandbox, fuzz servers with generated requests, diff spec revisions, and check real or recorded exchanges',
        'against them.',
      ].join('\n'),
    ),
    '',
    'Commands:',
    ...commands.flatMap((command) => columns(command.name, command.summary, 14)),
    '',
    'Options:',
    ...columns('-v, --version', 'Print the version of contracts', 14),
    ...columns('-h, --help', 'Show this help', 14),
    '',
    "Run `contracts <command> --help` for a command's options and examples.",
    '',
    ...wrapWords(exitStatus, helpWidth, '', ''),
  ];
  return lines.join('\n');
}

const exitStatus = 'Exit status: 0 all good, 1 the subject failed (problems found), 2 the tool could not do its job.';

function flagOf(option: OptionSpec): string {
  const short = option.short ? `-${option.short}, ` : '';
  return `${short}--${option.name}${option.type === 'string' ? ` <${option.valueName ?? 'value'}>` : ''}`;
}

function extraOf(option: OptionSpec): string {
  const extra = [
    option.multiple ? 'repeatable' : '',
    option.default !== undefined && option.default !== false ? `default: ${String(option.default)}` : '',
    option.requires?.length ? `needs ${option.requires.map((name) => `--${name}`).join(' and ')}` : '',
    option.conflicts?.length ? `not with ${option.conflicts.map((name) => `--${name}`).join(' or ')}` : '',
  ].filter(Boolean);
  return extra.length ? ` (${extra.join('; ')})` : '';
}

/** `  term      text…` with the text wrapped under its column; a term too wide for it gets a line of its own. */
function columns(term: string, text: string, width: number): string[] {
  const indent = ' '.repeat(2 + width + 1);
  const head = `  ${term.padEnd(width)} `;
  if (head.length > indent.length) return [`  ${term}`, ...wrapWords(text, helpWidth, indent, indent)];
  return wrapWords(text, helpWidth, head, indent);
}

/** Greedy word wrap; a single word longer than the line stays whole (a URL is not cut). */
export function wrapWords(text: string, width: number, first: string, rest: string): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = rest + word;
    } else {
      line += (empty ? '' : ' ') + word;
    }
    empty = false;
  }
  lines.push(line.trimEnd());
  return lines;
}

/** A shell command too long for a line continues with ` \` on the next, indented. */
function shellLines(command: string, first: string, rest: string): string[] {
  const lines = wrapWords(command, helpWidth - 2, first, rest);
  return lines.map((line, index) => (index < lines.length - 1 ? `${line} \\` : line));
}

/**
 * Reflows a description written as lines: a run of unindented lines is one paragraph, rewrapped; an indented line
 * is an entry of a table or a listing (`  NAME    text`), kept as it is when it fits, else wrapped under its text
 * column; its indented continuation lines join it first.
 */
function reflow(description: string): string[] {
  const out: string[] = [];
  let prose: string[] = [];
  const flushProse = () => {
    if (prose.length) out.push(...wrapWords(prose.join(' '), helpWidth, '', ''));
    prose = [];
  };
  const lines = description.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.trim() === '') {
      flushProse();
      out.push('');
    } else if (!/^\s/.test(line)) {
      prose.push(line.trim());
    } else {
      flushProse();
      const indent = /^\s*/.exec(line)![0].length;
      // The columns before the last wide gap (a table's term, level…) stay as written; the text after them wraps
      // under its own column, joined first by its continuation lines (indented to that column).
      const gaps = [...line.slice(indent).matchAll(/\S\s{2,}(?=\S)/g)]
        .map((gap) => indent + gap.index! + gap[0].length)
        .filter((end) => end <= helpWidth / 2);
      const head = line.slice(0, gaps.at(-1) ?? indent);
      let text = line.slice(head.length).trim();
      while (gaps.length && index + 1 < lines.length && /^\s*/.exec(lines[index + 1]!)![0].length === head.length)
        text += ' ' + lines[++index]!.trim();
      const hang = ' '.repeat(gaps.length ? head.length : indent + 4);
      out.push(...(head.length + text.length <= helpWidth ? [head + text] : wrapWords(text, helpWidth, head, hang)));
    }
  }
  flushProse();
  return out;
}
