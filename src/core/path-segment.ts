// A value the run did not choose (an id a target answered, a saved request's parameter) goes into a request path as
// one segment, percent-encoded whole, so its `/`, `?` and `#` stay inside it (RFC 3986 section 3.3). What no encoding
// makes one segment is refused: an empty value (`/items/` is the collection), and a dot segment, `.` or `..`, raw or
// percent-encoded any number of times, alone or between slashes once decoded (a server that decodes %2F before it
// routes reads `../x` as two segments), with `;parameters` or not (Tomcat reads `..;x` as `..`). URL parsers and
// servers resolve those against the path before them (RFC 3986 section 5.2.4): `DELETE /svc/items/..` is
// `DELETE /svc/`, sent with the credential.

export type SegmentValue = string | number | boolean | null;

/** Why `value` cannot be one path segment, or undefined when its percent-encoding is one (null is empty). */
export function pathSegmentProblem(value: SegmentValue): string | undefined {
  const text = value === null ? '' : String(value);
  if (text === '') return 'empty';
  // UTF-8, which percent-encoding writes (RFC 3986 section 2.5), has no bytes for half a surrogate pair.
  if (loneSurrogate.test(text)) return 'a lone surrogate, which no URL can carry';
  let decoded = text;
  // Each round undoes one layer of encoding; a value encoded over and over is refused once it is too deep to read.
  for (let round = 0; ; round++) {
    if (decoded.split(/[/\\]/).some((part) => dotPart.test(part))) return 'a dot segment';
    const next = decodeOnce(decoded);
    if (next === decoded) return undefined;
    if (round === maxDecodes) return 'encoded too many times over';
    decoded = next;
  }
}

/** The one line a value refused as a path segment gets: `what` names where it came from. */
export function refusedSegment(what: string, value: SegmentValue): string {
  return `${what} is ${JSON.stringify(value === null ? '' : String(value))}: not sent as a path segment (${pathSegmentProblem(value)})`;
}

const dotPart = /^\.{1,2}(?:;.*)?$/;
/** Half a surrogate pair: a high one not followed by a low one, or a low one not after a high one. */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;
const maxDecodes = 8;

/** Percent-decoded once; a malformed escape (`%zz`, half a UTF-8 character) is left as it is. */
function decodeOnce(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}
