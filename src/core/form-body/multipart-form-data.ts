// A multipart/form-data body split into its parts (RFC 7578, on the multipart syntax of RFC 2046 section 5.1.1),
// strictly: what does not follow the grammar is one reason, never a throw. Linear in the body: each delimiter is
// found once by indexOf from where the last one ended, and the parts and header lines kept are capped.

export interface MultipartPart {
  /** The Content-Disposition `name` (RFC 7578 section 4.2). */
  name: string;
  /** Set when the part carries a `filename` parameter (a file upload). */
  filename?: string;
  /** The part's header fields, names in lower case (the first of a repeated one). */
  headers: Record<string, string>;
  /** The part's content, as the body's text holds it. */
  content: string;
}

/** Parts read from one body at most: past it the body is not judged (a finding says so). */
export const maxParts = 1000;
/** Header lines of one part at most. */
const maxPartHeaders = 50;

export type MultipartReading = { parts: MultipartPart[] } | { malformed: string } | { tooManyParts: number };

/** The `boundary` parameter of a multipart Content-Type, or undefined (RFC 2046 section 5.1.1: 1 to 70 bchars). */
export function boundaryOf(contentType: string | undefined): string | undefined {
  const parameter = /;\s*boundary\s*=\s*(?:"((?:[^"\\\r\n]|\\[^\r\n])*)"|([^;\s]+))/i.exec(contentType ?? '');
  if (!parameter) return undefined;
  const value = parameter[1] !== undefined ? parameter[1].replace(/\\(.)/g, '$1') : parameter[2]!;
  return /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/.test(value) ? value : undefined;
}

export function readMultipart(body: string, contentType: string | undefined): MultipartReading {
  const boundary = boundaryOf(contentType);
  if (boundary === undefined) return { malformed: 'its Content-Type has no valid boundary parameter' };
  const dashBoundary = `--${boundary}`;
  // The first boundary opens the body or follows the preamble's last CRLF.
  let at = body.startsWith(dashBoundary) ? 0 : body.indexOf(`\r\n${dashBoundary}`);
  if (at < 0) return { malformed: 'the boundary of its Content-Type never occurs in it' };
  at += at === 0 && body.startsWith(dashBoundary) ? dashBoundary.length : dashBoundary.length + 2;
  const parts: MultipartPart[] = [];
  for (;;) {
    if (body.startsWith('--', at)) return { parts };
    const start = afterPadding(body, at);
    if (start < 0) return { malformed: 'a boundary line holds more than the boundary' };
    const end = body.indexOf(`\r\n${dashBoundary}`, start);
    if (end < 0) return { malformed: 'it ends before its closing boundary' };
    if (parts.length === maxParts) return { tooManyParts: maxParts };
    const part = readPart(body.slice(start, end));
    if ('malformed' in part) return { malformed: `part ${parts.length + 1}: ${part.malformed}` };
    parts.push(part);
    at = end + 2 + dashBoundary.length;
  }
}

/** Past a delimiter's transport padding (spaces and tabs, RFC 2046) and its CRLF; -1 when something else is there. */
function afterPadding(body: string, at: number): number {
  let index = at;
  while (body[index] === ' ' || body[index] === '\t') index++;
  return body.startsWith('\r\n', index) ? index + 2 : -1;
}

function readPart(text: string): MultipartPart | { malformed: string } {
  const headEnd = text.startsWith('\r\n') ? 0 : text.indexOf('\r\n\r\n');
  if (headEnd < 0) return { malformed: 'its header never ends (no empty line)' };
  const headers: Record<string, string> = {};
  const lines = headEnd === 0 ? [] : text.slice(0, headEnd).split('\r\n');
  if (lines.length > maxPartHeaders) return { malformed: `it has over ${maxPartHeaders} header lines` };
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon) : '';
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) return { malformed: 'a header line is not `name: value`' };
    const key = name.toLowerCase();
    if (!Object.hasOwn(headers, key)) headers[key] = line.slice(colon + 1).trim();
  }
  const content = text.slice(headEnd === 0 ? 2 : headEnd + 4);
  const disposition = headers['content-disposition'];
  if (disposition === undefined) return { malformed: 'it has no Content-Disposition header' };
  const parsed = dispositionOf(disposition);
  if (!parsed) return { malformed: 'its Content-Disposition is not `form-data` with a name parameter' };
  return { ...parsed, headers, content };
}

/** RFC 7578 section 4.2: `form-data; name="field"; filename="a.txt"`, quoted strings unescaped. */
function dispositionOf(value: string): { name: string; filename?: string } | undefined {
  const type = /^form-data\s*(?=;|$)/i.exec(value);
  if (!type) return undefined;
  const parameters: Record<string, string> = {};
  const parameter = /;\s*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s"]*))\s*/gy;
  parameter.lastIndex = type[0].length;
  while (parameter.lastIndex < value.length) {
    const match = parameter.exec(value);
    if (!match) return undefined;
    const key = match[1]!.toLowerCase();
    if (!Object.hasOwn(parameters, key))
      parameters[key] = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3]!;
  }
  if (parameters.name === undefined) return undefined;
  return { name: parameters.name, ...(parameters.filename !== undefined ? { filename: parameters.filename } : {}) };
}
