// A request target the proxy passes on only when the target will route it as it is judged (RFC 9112 section 3.2,
// RFC 3986 section 5.2.4). A dot segment, raw or percent-encoded, climbs out of the path it is judged under (and
// out of the --target prefix) once the target removes it, also behind an encoded slash, which some servers decode
// before routing; a raw backslash is a separator to some servers and not to others. Such a target, and one with
// control characters or a fragment, is refused, not rewritten: the proxy never forwards a request other than the one
// it judged.

/** Control characters and space (Node's own server answers 400 to them); bytes 0x80–0xff pass, as there. */
const control = /[\0-\x20\x7f]/;
/** `.` or `..`, each dot raw or `%2e`, with `;parameters` or not (Tomcat reads `..;x` as `..`). */
const dotSegment = /^(?:\.|%2e){1,2}(?:;.*)?$/i;
/** Where a server may split the path: `/`, and to some servers `%2f`, `%5c` and `\` too. */
const separators = /\/|%2f|%5c|\\/i;

/** Why the request target cannot be relayed as judged, if it cannot. */
export function requestTargetProblem(target: string): string | undefined {
  if (control.test(target)) return 'a control character in the request target';
  if (target.includes('#')) return 'a fragment (#) in the request target';
  const mark = target.indexOf('?');
  const path = mark < 0 ? target : target.slice(0, mark);
  // A raw backslash is a separator to some servers (and to WHATWG URLs) and not to others. An encoded slash is data
  // to the APIs that use one in a segment (GitLab's `group%2Fproject`), so it is relayed, but a dot segment behind
  // it (`%2e%2e%2f`) climbs out as surely as `../`.
  if (path.includes('\\')) return 'a backslash in the request path: the target may route it elsewhere';
  for (const segment of path.split(separators))
    if (dotSegment.test(segment))
      return 'a dot segment (. or .., raw or percent-encoded) in the request path: the target may route it elsewhere';
  return undefined;
}
