// Finds, as js-yaml reads a text (its loader's open and close events, fast-yaml.ts), a flow collection that is a
// mapping key: yaml writes such a key as its flow text (`[ a ]`, `{ a: 1 }`), js-yaml as its items joined (`a`,
// `[object Object]`), so the fast path must not answer for the text. A flow collection is a key when
//   - `:` follows it on its line (`[a]: b`, `{[a]:b}`, `[ [a] : b ]`): js-yaml takes a key only on the line where it
//     starts; or
//   - it is an entry of a flow mapping not after a `:` (`{[a]}`, `{x: 1, [a]}`): after `{` it is one; after `,`, or
//     anything but `:`, `[` or `-` (a comment), it is one if the node around it closes as a flow mapping.
// Each `]` or `}` ends one collection, and is looked at by the few nodes that end there (js-yaml tries a node as a
// block key, then takes it as it is); only the blanks around it, and the line before, are read: linear.

/** What js-yaml's loader shows a listener (which @types/js-yaml does not declare). */
export interface LoaderState {
  kind: string | null | undefined;
  input: string;
  position: number;
}

interface Frame {
  /** Where the node's reading started (for a node inside a flow collection, its first character). */
  start: number;
  /** Whether a flow collection inside it may be a key: then it must not be a flow mapping. */
  keyIfMapping: boolean;
}

/**
 * A watcher for one load: told each open and close event, it answers whether the node that just closed is a flow
 * collection js-yaml took as a key (or made its parent one that holds such a key).
 */
export function flowKeyWatcher(): (event: string, state: LoaderState) => boolean {
  const frames: Frame[] = [];
  return (event, { kind, input, position }) => {
    if (event === 'open') {
      frames.push({ start: position, keyIfMapping: false });
      return false;
    }
    const frame = frames.pop();
    const last = input[position - 1];
    if (frame === undefined || kind === 'scalar' || (last !== ']' && last !== '}')) return false;
    if (frame.keyIfMapping && last === '}') return true;
    let after = position;
    while (input[after] === ' ' || input[after] === '\t') after++;
    if (input[after] === ':') return true;
    const previous = previousMark(input, frame.start);
    if (previous === '{') return true;
    const parent = frames.at(-1);
    // (At the text's start, it is the document itself.)
    if (previous !== undefined && !':[-'.includes(previous) && parent !== undefined) parent.keyIfMapping = true;
    return false;
  };
}

/**
 * The last character before `start` that is not white space, or '#' when a line break lies between and the line
 * it is on may end in a comment (its last character then says nothing).
 */
function previousMark(input: string, start: number): string | undefined {
  let at = start - 1;
  let lineBreak = false;
  for (; at >= 0 && ' \t\r\n'.includes(input[at]!); at--) if (input[at] === '\n') lineBreak = true;
  if (at < 0) return undefined;
  if (lineBreak && /(?:^|[ \t])#/.test(input.slice(input.lastIndexOf('\n', at) + 1, at + 1))) return '#';
  return input[at];
}
