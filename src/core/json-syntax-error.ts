// Where JSON text stops being JSON (RFC 8259 grammar), said by position only. JSON.parse's own messages quote a
// window of the text (`Unexpected token 'C', "CANARYKEY-"...`), and the text is a response the target chose: a
// body that echoes a credential would put it in every report. So the message names a line and column, never text.

/** The reason JSON text does not parse, e.g. "unexpected character at line 1, column 3". */
export function describeJsonSyntaxError(text: string): string {
  const error = findJsonSyntaxError(text);
  if (!error) return 'it does not parse';
  const { line, column } = lineAndColumn(text, error.offset);
  return error.atEnd
    ? `it ends early, at line ${line}, column ${column}`
    : `unexpected character at line ${line}, column ${column}`;
}

export interface JsonSyntaxError {
  /** UTF-16 offset of the first character that breaks the grammar; `text.length` when the text ends early. */
  offset: number;
  atEnd: boolean;
}

/** The first place `text` breaks the JSON grammar, or undefined when it is JSON. Linear, and no recursion. */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const scan = new Scanner(text);
  const containers: ('[' | '{')[] = [];
  const fail = (offset: number): JsonSyntaxError => ({ offset, atEnd: offset >= text.length });
  // Alternates between reading a value and reading what may follow one, with the open containers on a stack.
  let expectValue = true;
  for (;;) {
    scan.skipSpace();
    if (expectValue) {
      const char = text[scan.at];
      if (char === '{' || char === '[') {
        containers.push(char);
        scan.at++;
        scan.skipSpace();
        if (text[scan.at] === (char === '{' ? '}' : ']')) {
          containers.pop();
          scan.at++;
          expectValue = false;
          continue;
        }
        if (char === '{' && !scan.readKey()) return fail(scan.at);
        continue;
      }
      if (!scan.scanValue(char)) return fail(scan.at);
      expectValue = false;
      continue;
    }
    const open = containers[containers.length - 1];
    if (open === undefined) return scan.at === text.length ? undefined : fail(scan.at);
    const char = text[scan.at];
    if (char === (open === '{' ? '}' : ']')) {
      containers.pop();
      scan.at++;
    } else if (char === ',') {
      scan.at++;
      if (open === '{') {
        scan.skipSpace();
        if (!scan.readKey()) return fail(scan.at);
      }
      expectValue = true;
    } else {
      return fail(scan.at);
    }
  }
}

/** Each scanner moves `at` past what it read and returns true, or leaves `at` on the offending character. */
class Scanner {
  at = 0;

  constructor(private readonly text: string) {}

  skipSpace(): void {
    const { text } = this;
    while (
      this.at < text.length &&
      (text[this.at] === ' ' || text[this.at] === '\t' || text[this.at] === '\n' || text[this.at] === '\r')
    )
      this.at++;
  }

  /** A scalar starting with `char`: a string, true, false, null or a number. */
  scanValue(char: string | undefined): boolean {
    if (char === '"') return this.scanString();
    if (char === 't') return this.scanLiteral('true');
    if (char === 'f') return this.scanLiteral('false');
    if (char === 'n') return this.scanLiteral('null');
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) return this.scanNumber();
    return false;
  }

  /** A member name and its colon; the value follows. */
  readKey(): boolean {
    if (this.text[this.at] !== '"' || !this.scanString()) return false;
    this.skipSpace();
    if (this.text[this.at] !== ':') return false;
    this.at++;
    return true;
  }

  private scanString(): boolean {
    const { text } = this;
    this.at++; // the opening quote
    while (this.at < text.length) {
      const code = text.charCodeAt(this.at);
      if (code === 0x22) {
        this.at++;
        return true;
      }
      if (code < 0x20) return false;
      if (code === 0x5c) {
        const escaped = text[this.at + 1];
        if (escaped === 'u') {
          for (let digit = 2; digit < 6; digit++) {
            if (!/[0-9a-fA-F]/.test(text[this.at + digit] ?? '')) {
              this.at += digit;
              return false;
            }
          }
          this.at += 6;
          continue;
        }
        if (escaped === undefined || !'"\\/bfnrt'.includes(escaped)) {
          this.at++;
          return false;
        }
        this.at += 2;
        continue;
      }
      this.at++;
    }
    return false;
  }

  private digits(): number {
    const start = this.at;
    while (this.at < this.text.length && this.text.charCodeAt(this.at) >= 0x30 && this.text.charCodeAt(this.at) <= 0x39)
      this.at++;
    return this.at - start;
  }

  private scanNumber(): boolean {
    const { text } = this;
    if (text[this.at] === '-') this.at++;
    if (text[this.at] === '0') this.at++;
    else if (this.digits() === 0) return false;
    if (text[this.at] === '.') {
      this.at++;
      if (this.digits() === 0) return false;
    }
    if (text[this.at] === 'e' || text[this.at] === 'E') {
      this.at++;
      if (text[this.at] === '+' || text[this.at] === '-') this.at++;
      if (this.digits() === 0) return false;
    }
    return true;
  }

  private scanLiteral(word: string): boolean {
    for (let index = 0; index < word.length; index++, this.at++) if (this.text[this.at] !== word[index]) return false;
    return true;
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) {
    line++;
    lineStart = index + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
