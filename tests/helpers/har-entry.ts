// One HAR 1.2 entry (http://www.softwareishard.com/blog/har-12-spec/#entries) with a bodiless request and an answer
// of one media type: the shape the HAR checker's tests build captures from.
export function harEntry(method: string, url: string, status: number, body: string, contentType = 'application/json') {
  return {
    startedDateTime: '2026-11-28T00:00:00.000Z',
    time: 1,
    request: {
      method,
      url,
      httpVersion: 'HTTP/1.1',
      headers: [],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'Content-Type', value: contentType }],
      cookies: [],
      content: { size: body.length, mimeType: contentType, text: body },
      redirectURL: '',
      headersSize: -1,
      bodySize: body.length,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  };
}
