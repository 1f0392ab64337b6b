// Renders `contracts --help` and `contracts <command> --help` from the command table.
import type { Command } from './command.js';

export function commandHelp(command: Command): string {
  const lines = [`Usage: contracts ${command.name} ${command.usage}`.trimEnd(), '', command.description, ''];
  if (command.positionals?.length) {
    lines.push('Arguments:');
    for (const positional of command.positionals) lines.push(`  ${positional.name.padEnd(28)} ${positional.description}`);
    lines.push('');
  }
  lines.push('Options:');
  for (const option of command.options) {
    const flag = `--${option.name}${option.type === 'string' ? ` <${option.valueName ?? 'value'}>` : ''}`;
    const extra = [option.multiple ? 'repeatable' : '', option.default !== undefined && option.default !== false ? `default: ${String(option.default)}` : '']
      .filter(Boolean)
      .join('; ');
    lines.push(`  ${flag.padEnd(28)} ${option.description}${extra ? ` (${extra})` : ''}`);
  }
  lines.push(`  ${'--config <file>'.padEnd(28)} The APIs to work on (default: contracts.config.yaml here, else the project's)`);
  lines.push(`  ${'-h, --help'.padEnd(28)} Show this help`);
  lines.push('', 'Examples:');
  for (const example of command.examples) lines.push(`  ${example.command}`, `      ${example.description}`);
  lines.push('', 'Exit status: 0 all good, 1 the subject failed (problems found), 2 the tool could not do its job.');
  return lines.join('\n');
}

export function mainHelp(commands: Command[]): string {
  const lines = [
    'Usage: contracts <command> [options]',
    '',
    'API contract testing for the client-session and repository-webhooks APIs: lint the OpenAPI specs, generate',
    'TypeScript types from them, serve them as Prism mocks or as a stateful sandbox, and check real or recorded',
    'responses against them.',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(12)} ${command.summary}`),
    '',
    'Run `contracts <command> --help` for a command\'s options and examples.',
    '',
    'Exit status: 0 all good, 1 the subject failed (problems found), 2 the tool could not do its job.',
  ];
  return lines.join('\n');
}
