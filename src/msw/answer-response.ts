// The engine's answer as a fetch Response for msw. RFC 9110 section 9.3.2: a HEAD answer is its GET's without the
// content; section 15.3.5 and 15.4.5 (and the Fetch standard's null body statuses): 204, 205 and 304 carry none.
import { problem, unable, type EngineAnswer } from '../mock/engine/engine-answer.js';

const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

export function answerResponse(answer: EngineAnswer, method: string): Response {
  // The Fetch standard's Response carries 200-599 only: an informational answer cannot be given through msw.
  if (answer.status < 200 || answer.status > 599)
    return answerResponse(unable(`a fetch Response cannot carry the status ${answer.status}`), method);
  const empty = method.toUpperCase() === 'HEAD' || nullBodyStatuses.has(answer.status);
  try {
    return new Response(empty ? null : new TextEncoder().encode(answer.body), {
      status: answer.status,
      headers: answer.headers,
    });
  } catch (error) {
    // A header value fetch refuses (a control character): said as the mock's own fault, never thrown into the test.
    return answerResponse(unable(`its answer could not be made a Response: ${(error as Error).message}`), method);
  }
}

/** The answer to a body over the bound (request-record.ts), as the engine's HTTP server gives it. */
export const tooLarge = (): EngineAnswer => problem(413, 'Content Too Large', 'request body over 32 MB');
