// A generated body as the operation's media type puts it on the wire: JSON (and +json types), a form
// (https://url.spec.whatwg.org/#urlencoded-serializing) or multipart/form-data (RFC 7578). Before, every body went
// out as JSON, and an operation that takes only a form (Stripe's and Twilio's POSTs) was sent none. A field that is
// an object goes as JSON text (its part typed application/json in multipart); an array repeats its field.

// Fixed, so a run repeats byte for byte; generated values never hold it (their strings are short or of one letter).
const boundary = 'contracts-fuzz-7d2f9a1c';

export function encodeBody(mediaType: string, value: unknown): { contentType: string; body: string } {
  const type = mediaType.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded' && isRecord(value)) {
    const form = new URLSearchParams();
    for (const [name, item] of fields(value)) form.append(name, text(item));
    return { contentType: type, body: form.toString() };
  }
  if (type === 'multipart/form-data' && isRecord(value)) {
    const parts = fields(value).map(([name, item]) => {
      const json = item !== null && typeof item === 'object';
      const head = `Content-Disposition: form-data; name="${name.replace(/["\r\n]/g, '_')}"`;
      return `--${boundary}\r\n${head}\r\n${json ? 'Content-Type: application/json\r\n' : ''}\r\n${text(item)}\r\n`;
    });
    return { contentType: `multipart/form-data; boundary=${boundary}`, body: `${parts.join('')}--${boundary}--\r\n` };
  }
  return { contentType: type.endsWith('json') ? mediaType : 'application/json', body: JSON.stringify(value) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A record's fields as name-value pairs, an array's items each under its field's name. */
function fields(value: Record<string, unknown>): [string, unknown][] {
  return Object.entries(value).flatMap(([name, item]) =>
    Array.isArray(item) ? item.map((entry): [string, unknown] => [name, entry]) : [[name, item] as [string, unknown]],
  );
}

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
