// content_type_conformance: the body's media type is one documented for the response, and a response
// documented without a body (202/204 here) has none. OpenAPI 3.1 section 4.8.17 (Response Object `content`).
import { headerValue } from '../exchange.js';
import { parseMediaType, shownContentType } from '../media-type.js';
import { finding, type ExchangeCheck } from './check-context.js';

export const contentTypeConformance: ExchangeCheck = {
  name: 'content_type_conformance',
  applies: (context) =>
    context.response !== undefined && (context.response.spec.noBody || context.response.mediaTypes.length > 0),
  run(context) {
    const response = context.response!;
    const { status, body, bodyTooLarge } = context.exchange;
    // Characters stand in for bytes here: only "none" matters on the hot path; messages count bytes.
    const size = bodyTooLarge ?? body.length;
    const contentType = headerValue(context.exchange.headers, 'content-type');
    if (response.spec.noBody) {
      if (size === 0) return [];
      return [
        finding(context, 'content_type_conformance', {
          message: `status ${status} is documented without a body, but the response has one (${bodyTooLarge ? 'over ' : ''}${bodyTooLarge ?? Buffer.byteLength(body)} bytes${contentType ? `, ${contentType}` : ''})`,
          expected: 'no body',
          actual: `${bodyTooLarge ?? Buffer.byteLength(body)} bytes`,
        }),
      ];
    }
    if (size === 0) {
      // RFC 9110 §9.3.2: a response to HEAD carries no content, whatever the status documents.
      if (context.exchange.method.length === 4 && context.exchange.method.toUpperCase() === 'HEAD') return [];
      return [
        finding(context, 'content_type_conformance', {
          message: `status ${status} is documented with a body (${documented(response).join(', ')}), but the response has none`,
          expected: documented(response),
          actual: 'no body',
        }),
      ];
    }
    if (context.media) return [];
    const actual = parseMediaType(contentType);
    const mediaType = shownContentType(contentType, actual, response.mediaTypes);
    return [
      finding(context, 'content_type_conformance', {
        message: mediaType
          ? `content type ${mediaType} is not documented for status ${status} (documented: ${documented(response).join(', ')})`
          : `the response has a body but no Content-Type (documented: ${documented(response).join(', ')})`,
        expected: documented(response),
        actual: mediaType ?? null,
      }),
    ];
  },
};

/**
 * Listed only for a finding, so a conforming response allocates nothing here. A module function, not a closure:
 * under tsx every named closure made on the hot path also costs a defineProperty (esbuild's keepNames).
 */
function documented(response: { mediaTypes: { mediaType: string }[] }): string[] {
  return response.mediaTypes.map((media) => media.mediaType);
}
