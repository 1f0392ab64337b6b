// A HAR request's form body given as `postData.params` instead of `postData.text` (HAR 1.2: "text and params fields
// are mutually exclusive"; browsers and proxies write params for form posts), rebuilt as the bytes a server would
// have read, so the request side is judged on the body that was sent instead of "the required body is missing".
import { randomBytes } from 'node:crypto';

export interface HarParam {
  name?: unknown;
  value?: unknown;
  fileName?: unknown;
  contentType?: unknown;
}

/** Most params one entry may hold: a capture is hostile input, and each param costs a part's headers. */
export const maxHarParams = 10_000;

export type RebuiltBody = { body: string; contentType?: string } | { tooMany: number } | undefined;

/**
 * The body the params stand for, for an application/x-www-form-urlencoded or multipart/form-data mimeType; a
 * multipart body gets a boundary none of its values hold, and the Content-Type that names it. undefined for any
 * other media type (params mean nothing there) or when there are no params.
 */
export function bodyFromParams(mimeType: string, params: unknown): RebuiltBody {
  if (!Array.isArray(params) || params.length === 0) return undefined;
  if (params.length > maxHarParams) return { tooMany: params.length };
  const fields = params.map((param: HarParam) => ({
    name: typeof param?.name === 'string' ? param.name : '',
    value: typeof param?.value === 'string' ? param.value : '',
    fileName: typeof param?.fileName === 'string' ? param.fileName : undefined,
    contentType: typeof param?.contentType === 'string' ? param.contentType : undefined,
  }));
  const type = mimeType.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') {
    // WHATWG URL's application/x-www-form-urlencoded serializer: what a browser sends for a form.
    return { body: new URLSearchParams(fields.map((field): [string, string] => [field.name, field.value])).toString() };
  }
  if (type !== 'multipart/form-data') return undefined;
  const boundary = freshBoundary(fields.map((field) => field.value));
  const parts = fields.map((field) => {
    const disposition = `form-data; name="${quoted(field.name)}"${field.fileName === undefined ? '' : `; filename="${quoted(field.fileName)}"`}`;
    // A header line holds no CR or LF: a content type from the capture is cut at the first.
    const contentType = field.contentType?.split(/[\r\n]/)[0];
    const headers = [`Content-Disposition: ${disposition}`, ...(contentType ? [`Content-Type: ${contentType}`] : [])];
    return `--${boundary}\r\n${headers.join('\r\n')}\r\n\r\n${field.value}\r\n`;
  });
  return { body: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** RFC 7578 section 2 (as HTML's form submission does): `"`, CR and LF in a name are percent-encoded. */
function quoted(text: string): string {
  return text.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A boundary (RFC 2046 section 5.1.1) that occurs in no value, so no value can end its part early. */
function freshBoundary(values: string[]): string {
  for (;;) {
    const boundary = `contracts-har-${randomBytes(12).toString('hex')}`;
    if (!values.some((value) => value.includes(boundary))) return boundary;
  }
}
