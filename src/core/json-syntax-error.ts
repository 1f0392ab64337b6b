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
  const containers: ('[' | '{')[] = [];
  let at = 0;
  const fail = (offset: number): JsonSyntaxError => ({ offset, atEnd: offset >= text.length });
  const skipSpace = () => {
    while (at < text.length && (text[at] === ' ' || text[at] === '\t' || text[at] === '\n' || text[at] === '\r')) at++;
  };
  // Each scanner moves `at` past what it read and returns true, or leaves `at` on the offending character.
  const scanString = (): boolean => {
    at++; // the opening quote
    while (at < text.length) {
      const code = text.charCodeAt(at);
      if (code === 0x22) {
        at++;
        return true;
      }
      if (code < 0x20) return false;
      if (code === 0x5c) {
        const escaped = text[at + 1];
        if (escaped === 'u') {
          for (let digit = 2; digit < 6; digit++) {
            if (!/[0-9a-fA-F]/.test(text[at + digit] ?? '')) {
              at += digit;
              return false;
            }
          }
          at += 6;
          continue;
        }
        if (escaped === undefined || !'"\\/bfnrt'.includes(escaped)) {
          at++;
          return false;
        }
        at += 2;
        continue;
      }
      at++;
    }
    return false;
  };
  const digits = (): number => {
    const start = at;
    while (at < text.length && text.charCodeAt(at) >= 0x30 && text.charCodeAt(at) <= 0x39) at++;
    return at - start;
  };
  const scanNumber = (): boolean => {
    if (text[at] === '-') at++;
    if (text[at] === '0') at++;
    else if (digits() === 0) return false;
    if (text[at] === '.') {
      at++;
      if (digits() === 0) return false;
    }
    if (text[at] === 'e' || text[at] === 'E') {
      at++;
      if (text[at] === '+' || text[at] === '-') at++;
      if (digits() === 0) return false;
    }
    return true;
  };
  const scanLiteral = (word: string): boolean => {
    for (let index = 0; index < word.length; index++, at++) if (text[at] !== word[index]) return false;
    return true;
  };

  // Alternates between reading a value and reading what may follow one, with the open containers on a stack.
  let expectValue = true;
  for (;;) {
    skipSpace();
    if (expectValue) {
      const char = text[at];
      if (char === '{' || char === '[') {
        containers.push(char);
        at++;
        skipSpace();
        if (text[at] === (char === '{' ? '}' : ']')) {
          containers.pop();
          at++;
          expectValue = false;
          continue;
        }
        if (char === '{' && !readKey()) return fail(at);
        continue;
      }
      const read =
        char === '"'
          ? scanString()
          : char === 't'
            ? scanLiteral('true')
            : char === 'f'
              ? scanLiteral('false')
              : char === 'n'
                ? scanLiteral('null')
                : char === '-' || (char !== undefined && char >= '0' && char <= '9')
                  ? scanNumber()
                  : false;
      if (!read) return fail(at);
      expectValue = false;
      continue;
    }
    const open = containers[containers.length - 1];
    if (open === undefined) return at === text.length ? undefined : fail(at);
    const char = text[at];
    if (char === (open === '{' ? '}' : ']')) {
      containers.pop();
      at++;
    } else if (char === ',') {
      at++;
      if (open === '{') {
        skipSpace();
        if (!readKey()) return fail(at);
      }
      expectValue = true;
    } else {
      return fail(at);
    }
  }

  /** A member name and its colon; the value follows. */
  function readKey(): boolean {
    if (text[at] !== '"' || !scanString()) return false;
    skipSpace();
    if (text[at] !== ':') return false;
    at++;
    expectValue = true;
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
