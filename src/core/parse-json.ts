// JSON text to a value, or undefined: for answers whose body may be anything (a mock's, a target's).

/** The text parsed as JSON, or undefined when it is empty or not JSON. */
export function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
