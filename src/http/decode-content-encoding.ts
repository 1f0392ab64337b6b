// Undoes a body's Content-Encoding (RFC 9110 section 8.4: gzip, deflate, br, applied in the order listed),
// never producing more than a cap: a few kilobytes of gzip can expand to gigabytes.
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';

export type Decoded = { bytes: Buffer } | { tooLarge: true };

/**
 * Capture tools differ: some store a body as it came over the wire, some store it already decoded while
 * keeping the Content-Encoding header. Bytes that are already text are taken as decoded; compressed data is
 * never valid UTF-8 free of control characters.
 */
export function decodeContentEncoding(bytes: Buffer, contentEncoding: string | undefined, maxBytes: number): Decoded {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0 || looksLikeText(bytes)) return bytes.length > maxBytes ? { tooLarge: true } : { bytes };
  let current = bytes;
  for (const coding of codings.reverse()) {
    const decode = decoders[coding];
    // An unknown coding is left as it is: the checks then see bytes that are not the documented body.
    if (!decode) break;
    try {
      current = decode(current, { maxOutputLength: maxBytes });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return { tooLarge: true };
      // Not what the header says: checked as the bytes they are.
      break;
    }
  }
  return current.length > maxBytes ? { tooLarge: true } : { bytes: current };
}

type Decoder = (bytes: Buffer, options: { maxOutputLength: number }) => Buffer;

const decoders: Record<string, Decoder> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  br: brotliDecompressSync,
  // "deflate" means the zlib format (RFC 1950), but some servers send raw deflate (RFC 1951).
  deflate: (bytes, options) => {
    try {
      return inflateSync(bytes, options);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw error;
      return inflateRawSync(bytes, options);
    }
  },
};

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function looksLikeText(bytes: Buffer): boolean {
  for (const byte of bytes) if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
