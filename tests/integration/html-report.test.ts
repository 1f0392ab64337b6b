// The HTML report in a real headless Chromium (Debian's `chromium`, driven by puppeteer-core): counts, a failure
// that expands on click, filters, hostile text shown as text, no request leaving the page, and a screenshot.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractsError } from '../../src/core/errors.js';
import type { Finding } from '../../src/core/finding.js';
import { Redactor } from '../../src/reports/redact.js';
import { escapeHtml } from '../../src/reports/html-report.js';
import { parseReportTargets, writeReports } from '../../src/reports/write-reports.js';
import { summarize, type CheckResult } from '../../src/reports/results.js';
import type { CheckRun } from '../../src/reports/check-run.js';
import { root } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

// HTML-special characters, so a redaction of the escaped page alone would miss it.
const secret = 's3cr3t&"token"<value>-123';
const hostileImage = '<img src="http://127.0.0.1:1/pwn" onerror="window.__pwned=1">';
const hostileScript = '<script>window.__pwned=2</script>';

const finding = (fields: Partial<Finding> & Pick<Finding, 'check' | 'message'>): Finding => ({
  severity: 'error',
  operation: 'op',
  instancePath: '',
  ...fields,
});
const result = (
  api: string,
  operation: string,
  check: CheckResult['check'],
  status: CheckResult['status'],
  extra: Partial<CheckResult> = {},
): CheckResult => ({
  api,
  operation,
  check,
  status,
  findings: [],
  durationMs: 3,
  ...extra,
});

const results: CheckResult[] = [
  result('client-session', 'retrieveClientSession', 'status_code_conformance', 'passed'),
  result('client-session', 'retrieveClientSession', 'content_type_conformance', 'passed'),
  result('client-session', 'retrieveClientSession', 'response_schema_conformance', 'failed', {
    findings: [
      {
        ...finding({
          check: 'response_schema_conformance',
          instancePath: '/currencyCode',
          message: '/currencyCode must be one of the allowed values ("EUR", "USD")',
          expected: ['EUR', 'USD'],
          actual: 'XXX',
        }),
        count: 3,
      },
      finding({
        check: 'response_schema_conformance',
        instancePath: '/note',
        message: `the target said ${hostileImage}`,
        actual: `Bearer ${secret}`,
      }),
    ],
    omitted: 4,
  }),
  result('client-session', 'retrieveClientSession', 'payment_method_placement', 'passed'),
  result('client-session', 'retrieveClientSession', 'auth_required', 'skipped', {
    reason: 'needs a stateful server; the Prism mock is stateless (use --base-url)',
  }),
  result('repository-webhooks', 'createWebhook', 'status_code_conformance', 'failed', {
    reason: `the target answered ${hostileScript}`,
    findings: [
      finding({
        check: 'status_code_conformance',
        message: 'status 500 is not documented for createWebhook (documented: 201, 422)',
        expected: ['201', '422'],
        actual: 500,
      }),
    ],
  }),
  result('repository-webhooks', 'createWebhook', 'events_default_push', 'skipped', {
    reason: '--read-only runs only GET operations',
  }),
  result('repository-webhooks', 'getWebhook', 'status_code_conformance', 'passed', {
    reason: `echoed ${'x'.repeat(1_000_000)}`,
  }),
  result('repository-webhooks', 'getWebhook', 'response_headers_conformance', 'skipped', {
    reason: '--read-only runs only GET operations',
  }),
];
const run: CheckRun = {
  mode: 'full',
  targets: {
    'client-session': `http://127.0.0.1:4010/${hostileScript}`,
    'repository-webhooks': 'http://127.0.0.1:4011',
  },
  results,
  summary: summarize(results),
  notRun: [],
  durationMs: 1234,
  error: new ContractsError('TARGET_RATE_LIMITED', `the target kept rate-limiting ${hostileImage}`),
};

/** Debian's chromium, or CHROMIUM_PATH; a missing browser fails the test (CI installs it in .ci/run). */
function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
    (file): file is string => !!file,
  );
  const found = candidates.find((file) => existsSync(file));
  if (!found)
    throw new Error(
      `no Chromium at ${candidates.join(', ')}: install Debian's chromium (apt-get install chromium; .ci/run does) or set CHROMIUM_PATH`,
    );
  return found;
}

let browser: Browser;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contracts-html-'));
  browser = await puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    // Root in a container has no user namespace for Chromium's sandbox; the page is our own file.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--no-first-run',
      '--disable-background-networking',
      '--host-resolver-rules=MAP * ~NOTFOUND',
    ],
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Opens a report file with every request other than the file itself recorded and refused. */
async function open(file: string): Promise<{ page: Page; requests: string[] }> {
  const page = await browser.newPage();
  await page.setViewport({ width: 1100, height: 900 });
  const url = pathToFileURL(file).href;
  const requests: string[] = [];
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    if (request.url() === url) return void request.continue();
    requests.push(request.url());
    void request.abort();
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, requests };
}

const js = <T>(page: Page, expression: string) => page.evaluate(expression) as Promise<T>;
const visibleCount = (page: Page, selector: string) =>
  js<number>(
    page,
    `[...document.querySelectorAll(${JSON.stringify(selector)})].filter((e) => e.checkVisibility()).length`,
  );

describe('html report in headless Chromium', () => {
  let file: string;
  beforeAll(async () => {
    const redactor = new Redactor();
    redactor.add(secret);
    file = path.join(dir, 'report.html');
    await writeReports(run, parseReportTargets([`html:${file}`], dir), redactor);
  });

  it('holds no secret, in any encoding, and no markup from the run', async () => {
    const html = await readFile(file, 'utf8');
    for (const form of [secret, escapeHtml(secret), encodeURIComponent(secret), Buffer.from(secret).toString('base64')])
      expect(html).not.toContain(form);
    expect(html).not.toContain(hostileImage);
    expect(html).not.toContain(hostileScript);
    expect(html).toContain('&lt;img src=&quot;http://127.0.0.1:1/pwn&quot;');
    // A megabyte a target echoed into a reason is cut, with its length said.
    expect(html).toMatch(/… \(10000\d\d characters\)/);
    expect(html.length).toBeLessThan(100_000);
  });

  it('shows the counts, colours each result and makes no network request', async () => {
    const { page, requests } = await open(file);
    expect(
      await js(
        page,
        `[...document.querySelectorAll('[data-count]')].map((e) => e.getAttribute('data-count') + '=' + e.textContent).join(' ')`,
      ),
    ).toBe('passed=4 failed=2 skipped=3');
    expect(await visibleCount(page, 'td.cell.passed')).toBe(4);
    expect(await visibleCount(page, 'td.cell.failed')).toBe(2);
    expect(await visibleCount(page, 'td.cell.skipped')).toBe(3);
    expect(await js(page, `getComputedStyle(document.querySelector('td.cell.failed')).backgroundColor`)).toBe(
      'rgb(244, 180, 180)',
    );
    expect(await js(page, `document.querySelector('td.cell.skipped').title`)).toContain('needs a stateful server');
    // The hostile strings are text on the page, never elements or code.
    expect(
      await js(page, 'document.images.length + ":" + document.scripts.length + ":" + String(window.__pwned)'),
    ).toBe('0:1:undefined');
    expect(await js(page, 'document.body.innerText')).toContain(hostileImage);
    expect(await js(page, 'document.title')).toBe('contracts check: 2 failed, 4 passed, 3 skipped');
    expect(requests).toEqual([]);
    await page.close();
  });

  it('expands a failure with its findings when its cell is clicked', async () => {
    const { page, requests } = await open(file);
    const id = await js<string>(
      page,
      `document.querySelector('details.result[data-check="response_schema_conformance"]').id`,
    );
    expect(await js(page, `document.getElementById('${id}').open`)).toBe(false);
    expect(await visibleCount(page, `#${id} table.findings`)).toBe(0);
    await page.click(`a.cell-link[href="#${id}"]`);
    expect(await js(page, `document.getElementById('${id}').open`)).toBe(true);
    expect(await visibleCount(page, `#${id} table.findings`)).toBe(1);
    const text = await js<string>(page, `document.getElementById('${id}').innerText`);
    for (const part of [
      '/currencyCode',
      'XXX',
      '["EUR","USD"]',
      '(seen 3 times)',
      '… and 4 more findings',
      'Bearer [REDACTED]',
    ])
      expect(text).toContain(part);
    expect(requests).toEqual([]);
    await page.close();
  });

  it('filters to failed operations, to one API and to one check', async () => {
    const { page } = await open(file);
    expect(await visibleCount(page, 'tr.operation')).toBe(3);
    await page.click('#failed-only');
    expect(await visibleCount(page, 'tr.operation')).toBe(2);
    await page.select('#api-filter', 'repository-webhooks');
    expect(await visibleCount(page, 'section.api')).toBe(1);
    expect(await js(page, `document.getElementById('shown-failures').textContent`)).toBe('1');
    await page.select('#api-filter', '');
    await page.click('#failed-only');
    await page.select('#check-filter', 'response_schema_conformance');
    expect(await visibleCount(page, 'table.matrix th[data-check]')).toBe(1);
    expect(await visibleCount(page, 'td.cell')).toBe(1);
    expect(
      await js(
        page,
        `[...document.querySelectorAll('section.api')].filter((e) => e.checkVisibility()).map((e) => e.dataset.api).join()`,
      ),
    ).toBe('client-session');
    expect(await js(page, `document.getElementById('shown-failures').textContent`)).toBe('1');
    await page.close();
  });

  it('leaves a screenshot under reports/', async () => {
    const { page } = await open(file);
    await page.click('a.cell-link');
    await mkdir(path.join(root, 'reports'), { recursive: true });
    const shot = path.join(root, 'reports', 'html-report.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect((await readFile(shot)).subarray(1, 4).toString()).toBe('PNG');
    await page.close();
  });
});

describe('contracts check --report html:FILE', () => {
  it('writes the page beside the JSON report, with the same counts, readable offline', async () => {
    const html = path.join(dir, 'cli', 'check.html');
    const json = path.join(dir, 'cli', 'check.json');
    const cli = await runCli(
      ['check', '--api', 'client-session', '--report', `html:${html}`, '--report', `json:${json}`],
      { env: { CLIENT_SESSION_API_KEY: 'cli-secret-key-1234' } },
    );
    expect(cli.stderr).not.toMatch(/at .*\.ts:\d+/);
    expect([0, 1]).toContain(cli.code);
    const summary = (JSON.parse(await readFile(json, 'utf8')) as { summary: Record<string, number> }).summary;
    const text = await readFile(html, 'utf8');
    expect(text).not.toContain('cli-secret-key-1234');
    const { page, requests } = await open(html);
    expect(await js(page, `[...document.querySelectorAll('[data-count]')].map((e) => e.textContent).join(',')`)).toBe(
      `${summary.passed},${summary.failed},${summary.skipped}`,
    );
    expect(await js(page, `document.querySelector('tr.operation th').textContent`)).toBe('retrieveClientSession');
    expect(requests).toEqual([]);
    await page.close();
  }, 90_000);

  it('refuses an unknown report kind in one line, naming html among the kinds', async () => {
    const cli = await runCli(['check', '--report', 'pdf:out.pdf']);
    expect(cli.code).toBe(2);
    expect(cli.stderr.split('\n')[0]).toMatch(
      /--report takes junit:FILE or json:FILE or html:FILE, not "pdf:out.pdf"$/,
    );
    expect(cli.stderr).not.toMatch(/at .*\.ts:\d+/);
  });
});
