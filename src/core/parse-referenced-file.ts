// Parses a file a `$ref` names: JSON or YAML, aliases bounded as for the root spec. An error names the line, never
// the file's text.
import { LineCounter, parseDocument } from 'yaml';

// As in load-spec.ts: an alias may be expanded at most this many times (an alias bomb in a referenced file).
const maxAliasCount = 100;

export function parseReferencedFile(text: string): { document: unknown } | { error: string } {
  if (/^\s*[[{]/.test(text)) {
    try {
      return { document: JSON.parse(text) };
    } catch {
      // Not plain JSON: YAML says where it breaks.
    }
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const first = doc.errors[0];
  if (first) return { error: `line ${lineCounter.linePos(first.pos[0]).line}, ${first.code}` };
  try {
    return { document: doc.toJS({ maxAliasCount }) };
  } catch {
    return { error: 'its YAML aliases (*name) expand too far (an alias bomb?)' };
  }
}
