// Reads a Markdown document (README.md, a page of docs/) into the code blocks its test runs: each shell block's commands (continuation lines joined,
// comment-only lines dropped), the expected exit status and output of each, and the block's directives.
// The directives are documented in readme-blocks.test.ts.

export type Directive =
  | { kind: 'skip'; reason: string }
  | { kind: 'skip-command'; prefix: string; reason: string }
  | { kind: 'expect-exit'; code: number }
  | { kind: 'background' }
  | { kind: 'timeout'; seconds: number }
  | { kind: 'file'; path: string };

export interface Command {
  /** The command as written (continuations joined), trailing comment included: bash ignores it. */
  text: string;
  /** The command without its trailing comment, environment assignments or a final `&`. */
  bare: string;
  expectedExit: number;
  /** Long-running: started, waited for until it says it is ready, stopped when its README section ends. */
  server: boolean;
  /** Set when a skip-command directive matches: not run, for this reason. */
  skipped?: string;
  /** console blocks: the output lines shown under the command, each of which must appear in its output. */
  output: string[];
  /** A `curl -i` line whose comment is a bare status (`# 404`): the response must have that status. */
  expectedStatus?: number;
}

export interface Block {
  line: number;
  lang: string;
  section: string;
  text: string;
  directives: Directive[];
  commands: Command[];
}

const shellLangs = new Set(['sh', 'bash', 'console', 'shell']);
const serverCommand = /^(?:npx contracts|contracts|npm run|node bin\/contracts\.js) (?:mock|sandbox|proxy|receive)\b/;

export function isShell(block: Block): boolean {
  return shellLangs.has(block.lang);
}

export function parseDirectives(comment: string, line: number, file = 'README.md'): Directive[] {
  const body = /^<!--\s*readme-test:(.*?)-->$/.exec(comment.trim())?.[1];
  if (body === undefined) return [];
  return body
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part): Directive => {
      const [, name = '', rest = ''] = /^([a-z-]+)\s*(.*)$/.exec(part) ?? [];
      if (name === 'skip' && rest) return { kind: 'skip', reason: rest };
      if (name === 'skip-command') {
        const m = /^(.+?)\s+\((.+)\)$/.exec(rest);
        if (m) return { kind: 'skip-command', prefix: m[1]!, reason: m[2]! };
      }
      if (name === 'expect-exit' && /^\d+$/.test(rest)) return { kind: 'expect-exit', code: Number(rest) };
      if (name === 'background' && !rest) return { kind: 'background' };
      if (name === 'timeout' && /^\d+$/.test(rest)) return { kind: 'timeout', seconds: Number(rest) };
      if (name === 'file' && rest) return { kind: 'file', path: rest };
      throw new Error(
        `${file}:${line}: readme-test directive not understood: "${part}" (see tests/readme/readme-blocks.test.ts)`,
      );
    });
}

/** Splits a shell line at its trailing comment: a `#` that starts a word outside quotes. */
export function splitComment(line: string): { code: string; comment: string } {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"') i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\') i++;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!)))
      return { code: line.slice(0, i).trimEnd(), comment: line.slice(i + 1).trim() };
  }
  return { code: line.trimEnd(), comment: '' };
}

function toCommand(text: string, directives: Directive[], output: string[]): Command {
  const lines = text.split('\n');
  const code = lines.map((l) => splitComment(l).code.replace(/\\$/, '').trim()).join(' ');
  const comment = lines.map((l) => splitComment(l).comment).join(' ');
  const background = /&$/.test(code) && !/&&$/.test(code);
  const bare = code
    .replace(/&$/, '')
    .replace(/^(?:[A-Z_][A-Z0-9_]*=\S*\s+)+/, '')
    .trim();
  const exits = /\bexits (\d+)\b/.exec(comment);
  const blockExit = directives.find((d) => d.kind === 'expect-exit');
  const skip = directives.find(
    (d): d is Extract<Directive, { kind: 'skip-command' }> =>
      d.kind === 'skip-command' && (bare === d.prefix || bare.startsWith(`${d.prefix} `)),
  );
  return {
    text,
    bare,
    expectedExit: exits ? Number(exits[1]) : blockExit?.kind === 'expect-exit' ? blockExit.code : 0,
    server: background || serverCommand.test(bare) || directives.some((d) => d.kind === 'background'),
    ...(skip ? { skipped: skip.reason } : {}),
    ...(/^curl\s/.test(bare) && /^\d{3}$/.test(comment) ? { expectedStatus: Number(comment) } : {}),
    output,
  };
}

function commandsOf(lang: string, text: string, directives: Directive[]): Command[] {
  const commands: Command[] = [];
  const lines = text.split('\n');
  if (lang === 'console') {
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i]!.startsWith('$ ')) continue;
      let command = lines[i]!.slice(2);
      while (command.endsWith('\\') && i + 1 < lines.length) command += `\n${lines[++i]}`;
      const output: string[] = [];
      while (i + 1 < lines.length && !lines[i + 1]!.startsWith('$ '))
        if (lines[++i]!.trim()) output.push(lines[i]!.trim());
      commands.push(toCommand(command, directives, output));
    }
    return commands;
  }
  for (let i = 0; i < lines.length; i++) {
    let command = lines[i]!;
    if (!command.trim() || command.trim().startsWith('#')) continue;
    while (splitComment(command.split('\n').at(-1)!).code.endsWith('\\') && i + 1 < lines.length)
      command += `\n${lines[++i]}`;
    commands.push(toCommand(command, directives, []));
  }
  return commands;
}

export function parseReadme(markdown: string, file = 'README.md'): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const heading = /^#{1,6} (.+)$/.exec(lines[i]!);
    if (heading) {
      section = heading[1]!;
      continue;
    }
    const fence = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!fence) continue;
    const start = i;
    const body: string[] = [];
    while (++i < lines.length && lines[i] !== '```') body.push(lines[i]!);
    const directives: Directive[] = [];
    for (let j = start - 1; j >= 0 && (lines[j]!.trim() === '' || lines[j]!.startsWith('<!-- readme-test:')); j--) {
      if (lines[j]!.trim()) directives.unshift(...parseDirectives(lines[j]!, j + 1, file));
    }
    const lang = fence[1] ?? '';
    const text = body.join('\n');
    blocks.push({
      line: start + 1,
      lang,
      section,
      text,
      directives,
      commands: shellLangs.has(lang) ? commandsOf(lang, text, directives) : [],
    });
  }
  return blocks;
}
