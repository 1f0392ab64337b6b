// contracts-kit/msw in a browser: headless Chromium (Debian's, driven by puppeteer-core) opens a page from a
// loopback node:http server; the page, bundled by esbuild for platform=browser through the package's "browser"
// condition, starts msw's service worker (mockServiceWorker.js from msw's own package) with our handlers on the
// parsed spec, then fetches. The handlers answer in the page; no /api request reaches the server.
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { build } from 'esbuild';
import puppeteer, { type Browser } from 'puppeteer-core';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../helpers/paths.js';

const chromium = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (file) => !!file && existsSync(file),
);
const document = parse(readFileSync(path.join(root, 'tests/msw/fixtures/pets.yaml'), 'utf8')) as unknown;

/** The page's code, as a user writes it: the spec as data, the handlers under the page's /api. */
const pageSource = `
import { setupWorker } from 'msw/browser';
import { handlers } from 'contracts-kit/msw';
import { compilePattern } from './src/core/pattern-engine.ts';

const spec = ${JSON.stringify(document)};
const worker = setupWorker(...handlers(spec, { baseUrl: '/api' }));
// Nested repetition runs on re2js, which the browser entry hands in (a pattern engine without it would fall back
// to backtracking silently).
window.patternEngine = compilePattern('^(\\w+\\s?)*$').engine;
window.mockReady = worker.start({ quiet: true, onUnhandledFrame: 'bypass' }).then(() => true);
window.send = async (method, url, body) => {
  const init = body === undefined ? { method } : { method, body, headers: { 'content-type': 'application/json' } };
  const response = await fetch(url, init);
  return { status: response.status, contentType: response.headers.get('content-type'), body: await response.json() };
};
`;

let bundle = '';
let server: http.Server;
let origin = '';
const reachedServer: string[] = [];
let browser: Browser | undefined;

beforeAll(async () => {
  if (!chromium) return;
  const built = await build({
    stdin: { contents: pageSource, resolveDir: root, sourcefile: 'page.ts', loader: 'ts' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    conditions: ['contracts-source'],
    write: false,
    logLevel: 'silent',
  });
  bundle = built.outputFiles[0]!.text;
  const worker = readFileSync(path.join(root, 'node_modules/msw/lib/mockServiceWorker.js'));
  const files: Record<string, [string, string | Buffer]> = {
    '/': ['text/html', '<!doctype html><title>msw</title><script type="module" src="/page.js"></script>'],
    '/page.js': ['text/javascript', bundle],
    '/mockServiceWorker.js': ['text/javascript', worker],
  };
  server = http.createServer((request, response) => {
    reachedServer.push(request.url ?? '');
    const file = files[request.url ?? ''];
    response.writeHead(file ? 200 : 404, { 'content-type': file?.[0] ?? 'text/plain' });
    response.end(file?.[1] ?? 'not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    // Root in a container has no user namespace for Chromium's sandbox; the page is our own.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  if (server) await new Promise((resolve) => server.close(resolve));
});

const title = chromium
  ? 'handlers in headless Chromium, through msw’s service worker'
  : 'handlers in headless Chromium: skipped, no Chromium at /usr/bin/chromium or CHROMIUM_PATH (apt-get install chromium)';

describe.skipIf(!chromium)(title, () => {
  it('answers the page’s fetches as the spec documents, in the page', async () => {
    const page = await browser!.newPage();
    await page.goto(`${origin}/`, { waitUntil: 'load', timeout: 30_000 });
    await page.waitForFunction('window.mockReady !== undefined', { timeout: 30_000 });
    expect(await page.evaluate('Promise.all([window.mockReady, window.patternEngine])')).toEqual([true, 're2']);
    // A string evaluated in the page (this file is compiled without the DOM's types).
    const send = (method: string, url: string, body?: string): Promise<unknown> =>
      page.evaluate(
        `window.send(${[method, url, body].map((value) => JSON.stringify(value) ?? 'undefined').join(', ')})`,
      );
    // What a create stores, a read returns (the stateful engine, in the page).
    const created = (await send('POST', '/api/pets', '{"name":"Rex"}')) as { body: { id: string } };
    expect(created).toEqual({
      status: 201,
      contentType: 'application/json',
      body: { id: expect.stringMatching(/^[0-9]+$/), name: 'Rex' },
    });
    expect(await send('GET', `/api/pets/${created.body.id}`)).toEqual({
      status: 200,
      contentType: 'application/json',
      body: created.body,
    });
    expect(await send('POST', '/api/pets', '{}')).toEqual({
      status: 400,
      contentType: 'application/problem+json',
      body: {
        type: 'about:blank',
        title: 'Request refused by the spec',
        status: 400,
        detail: 'request body must have required property "name"',
      },
    });
    // The page, its code and the worker came from the server; no request under /api did.
    expect(reachedServer.filter((url) => url.startsWith('/api'))).toEqual([]);
    expect(reachedServer).toContain('/mockServiceWorker.js');
  }, 60_000);
});
