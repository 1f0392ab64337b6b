// A curl line repeats the request it stands for byte for byte: taking a query credential out of the URL (to write
// it as a variable) leaves the other pairs as they were sent, a form list's raw `,` included (OpenAPI 3.1 section
// 4.8.12.4: `ids=1%2C2` is one item, `ids=1,2` two).
import { describe, expect, it } from 'vitest';
import { curlLine } from '../../src/fuzz/curl-line.js';

describe('curlLine with styled query pairs', () => {
  it('keeps the other pairs as sent when it writes a query credential as a variable', () => {
    const line = curlLine({ method: 'GET', url: 'http://h/items?ids=1,2&key=s3cret&f[a]=x|y', headers: [] }, [
      { env: 'API_KEY', in: 'query', name: 'key', prefix: '' },
    ]);
    expect(line).toBe(`curl -g -sS -i -X GET 'http://h/items?ids=1,2&f[a]=x|y''&key='"$API_KEY"`);
  });
});
