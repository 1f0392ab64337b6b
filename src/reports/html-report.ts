// `--report html:FILE`: one self-contained page (CSS and script inline, nothing fetched) to open offline or attach to
// a CI run: the run, a matrix of operations × checks per API coloured by result, each failure with its findings, and
// filters. Every string from the run may come from a hostile target: each is redacted, then HTML-escaped; the script
// reads only the page's own attributes, so nothing from the run is ever code.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../config/package-root.js';
import { checkNames } from '../core/finding.js';
import type { CheckResult, ReportedFinding } from './results.js';
import { runTitle, type CheckRun } from '../reports/check-run.js';

export interface HtmlReportOptions {
  /** Applied to every string before it is escaped, so a secret is caught in its plain form. */
  redact?: (text: string) => string;
  generatedAt?: Date;
  version?: string;
}

/**
 * A fuzz run's distinct failure, as far as this page shows it (src/fuzz/executor.ts FuzzFailure): under its check,
 * the request that broke it as a curl line and what the target answered.
 */
interface ReportedFuzzFailure {
  api: string;
  operation: string;
  check: string;
  note?: string;
  curl?: string;
  answer?: { status: number; headers: Record<string, string>; body?: string; bodyBytes: number; truncated?: true };
  /** The reproduction as a bash script, and how many requests it sends (src/fuzz/repro-script.ts). */
  script?: string;
  steps?: number;
}

/** Distinct failures shown under one check: the first few make the point. */
const maxFailuresShown = 5;

/** The longest value (actual, expected) shown in full; longer ones are cut with their length. */
const maxValueChars = 500;
/** The longest of any other string from the run (a message, a reason, a target's answer quoted in one). */
const maxTextChars = 4000;

export function htmlReport(run: CheckRun, options: HtmlReportOptions = {}): string {
  const redact = options.redact ?? ((text: string) => text);
  const text = (value: string) => escapeHtml(cut(redact(value), maxTextChars));
  const generatedAt = (options.generatedAt ?? new Date()).toISOString();
  const version = options.version ?? toolVersion();
  const indexed = run.results.map((result, index) => ({ result, index }));
  const apis = [...new Set(run.results.map((result) => result.api))];
  const checks = checkNames.filter((check) => run.results.some((result) => result.check === check));
  const failures = indexed.filter(({ result }) => result.status === 'failed');

  const targets = Object.entries(run.targets)
    .map(([api, url]) => `<li><b>${text(api)}</b> ${text(String(url))}</li>`)
    .join('');
  const head = [
    `<h1>${runTitle(run)}</h1>`,
    `<p class="summary">`,
    ...(['passed', 'failed', 'skipped'] as const).map(
      (status) => `<span class="badge ${status}">${status} <b data-count="${status}">${run.summary[status]}</b></span>`,
    ),
    `</p>`,
    `<dl class="run"><dt>mode</dt><dd>${text(run.mode)}</dd><dt>targets</dt><dd><ul>${targets || '<li>none</li>'}</ul></dd>`,
    `<dt>generated</dt><dd><time>${text(generatedAt)}</time>, the run took ${(run.durationMs / 1000).toFixed(1)} s</dd>`,
    `<dt>version</dt><dd>contracts ${text(version)}</dd></dl>`,
    run.error
      ? `<p class="error" role="alert">The run could not finish: ${text(run.error.message)} (${text(run.error.code)})${run.notRun.length ? `; ${run.notRun.length} planned checks did not run` : ''}</p>`
      : '',
  ];
  const filters = [
    `<form class="filters">`,
    `<label><input type="checkbox" id="failed-only"> failed only</label>`,
    `<label>API <select id="api-filter"><option value="">all</option>${apis.map((api) => `<option>${text(api)}</option>`).join('')}</select></label>`,
    `<label>check <select id="check-filter"><option value="">all</option>${checks.map((check) => `<option>${check}</option>`).join('')}</select></label>`,
    `<span class="shown">showing <b id="shown-failures">${failures.length}</b> of ${failures.length} failures</span>`,
    `</form>`,
  ];
  const matrices = apis.map((api) => {
    const own = indexed.filter(({ result }) => result.api === api);
    const columns = checks.filter((check) => own.some(({ result }) => result.check === check));
    const operations = [...new Set(own.map(({ result }) => result.operation))];
    const header = `<tr><th class="op">operation</th>${columns.map((check) => `<th data-check="${check}"><span>${check}</span></th>`).join('')}</tr>`;
    const rows = operations.map((operation) => {
      const cells = columns.map((check) => {
        const found = own.find(({ result }) => result.operation === operation && result.check === check);
        if (!found) return `<td class="cell none" data-check="${check}" title="not planned">·</td>`;
        const { result, index } = found;
        const title = text(`${check}: ${result.status}${result.reason ? ` (${result.reason})` : ''}`);
        const mark =
          result.status === 'failed'
            ? `<a class="cell-link" href="#r${index}" aria-label="${title}">✗</a>`
            : result.status === 'passed'
              ? '✓'
              : '–';
        return `<td class="cell ${result.status}" data-check="${check}" data-status="${result.status}" title="${title}">${mark}</td>`;
      });
      return `<tr class="operation"><th class="op">${text(operation)}</th>${cells.join('')}</tr>`;
    });
    return `<section class="api" data-api="${text(api)}"><h2>${text(api)}</h2><table class="matrix">${header}${rows.join('')}</table></section>`;
  });
  const fuzzFailures = (run as CheckRun & { failures?: ReportedFuzzFailure[] }).failures ?? [];
  const details = failures.map(({ result, index }) =>
    failureDetails(
      result,
      index,
      text,
      fuzzFailures.filter(
        (failure) =>
          failure.api === result.api && failure.operation === result.operation && failure.check === result.check,
      ),
    ),
  );
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    // Defence in depth behind the escaping: nothing is fetched, and only this report's own script runs.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src '${scriptHash}'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${runTitle(run)}: ${run.summary.failed} failed, ${run.summary.passed} passed, ${run.summary.skipped} skipped</title>`,
    `<style>${style}</style></head><body>`,
    ...head,
    ...filters,
    ...matrices,
    `<section class="failures"><h2>Failures</h2>${details.join('') || '<p>None.</p>'}</section>`,
    `<script>${script}</script>`,
    '</body></html>',
    '',
  ].join('\n');
}

function failureDetails(
  result: CheckResult,
  index: number,
  text: (value: string) => string,
  fuzzFailures: ReportedFuzzFailure[] = [],
): string {
  const rows = result.findings.map((finding) => findingRow(finding, text)).join('');
  const more = result.omitted ? `<p class="muted">… and ${result.omitted} more findings</p>` : '';
  const cases = fuzzFailures.slice(0, maxFailuresShown).map((failure) => fuzzCase(failure, text));
  if (fuzzFailures.length > maxFailuresShown)
    cases.push(`<p class="muted">… and ${fuzzFailures.length - maxFailuresShown} more distinct failures</p>`);
  return [
    `<details class="result" id="r${index}" data-api="${text(result.api)}" data-check="${result.check}" data-status="${result.status}">`,
    `<summary><span class="badge failed">failed</span> ${text(result.api)} · <b>${text(result.operation)}</b> · ${result.check}`,
    ` <span class="muted">(${result.findings.length} finding${result.findings.length === 1 ? '' : 's'})</span></summary>`,
    result.reason ? `<p class="reason">${text(result.reason)}</p>` : '',
    `<table class="findings"><tr><th>where</th><th>finding</th><th>actual</th><th>expected</th></tr>${rows}</table>${more}`,
    ...cases,
    `</details>`,
  ].join('');
}

/** One fuzz failure's case: what was sent (the curl line) and what came back (status, headers, the body's start). */
function fuzzCase(failure: ReportedFuzzFailure, text: (value: string) => string): string {
  const answer = failure.answer;
  const headers = answer
    ? Object.entries(answer.headers ?? {})
        .map(([name, value]) => `${name}: ${value}`)
        .join('\n')
    : '';
  const size = answer ? `${answer.bodyBytes} bytes${answer.truncated ? ', the start shown' : ''}` : '';
  return [
    '<div class="case">',
    failure.note ? `<p>case: ${text(failure.note)}</p>` : '',
    failure.curl ? `<p>reproduce: <code>${text(failure.curl)}</code></p>` : '',
    failure.script && (failure.steps ?? 1) > 1
      ? `<details><summary>the ${Number(failure.steps)} requests that led to it, as a bash script</summary><pre>${text(failure.script)}</pre></details>`
      : '',
    answer ? `<p>answer: <b>${Number(answer.status)}</b> <span class="muted">(${text(size)})</span></p>` : '',
    answer && (headers || answer.body)
      ? `<pre>${text(`${headers}${headers && answer.body ? '\n\n' : ''}${answer.body ?? ''}`)}</pre>`
      : '',
    '</div>',
  ].join('');
}

function findingRow(finding: ReportedFinding, text: (value: string) => string): string {
  const seen = (finding.count ?? 1) > 1 ? ` <span class="muted">(seen ${finding.count} times)</span>` : '';
  const level = finding.severity === 'warning' ? '<span class="badge skipped">warning</span> ' : '';
  return (
    `<tr><td><code>${text(finding.instancePath || '(body)')}</code></td><td>${level}${text(finding.message)}${seen}</td>` +
    `<td><code>${text(show(finding.actual))}</code></td><td><code>${text(show(finding.expected))}</code></td></tr>`
  );
}

function show(value: unknown): string {
  if (value === undefined) return '';
  let shown: string;
  try {
    shown = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    shown = String(value);
  }
  return cut(shown, maxValueChars);
}

function cut(value: string, most: number): string {
  return value.length > most ? `${value.slice(0, most)}… (${value.length} characters)` : value;
}

const htmlEscapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => htmlEscapes[char]!);
}

function toolVersion(): string {
  try {
    return String(
      (JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version?: unknown }).version ??
        'unknown',
    );
  } catch {
    return 'unknown';
  }
}

const style = `
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d2327;background:#fff}
h1{font-size:22px;margin:0 0 8px}h2{font-size:17px;margin:24px 0 8px}
.badge{display:inline-block;padding:2px 8px;border-radius:10px;margin-right:6px;font-size:13px}
.badge.passed{background:#d7f2dc;color:#145a23}.badge.failed{background:#fbd9d9;color:#8a1212}.badge.skipped{background:#e8e8e8;color:#444}
dl.run{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:8px 0}dt{color:#666}dd{margin:0}dd ul{margin:0;padding:0;list-style:none}
.error{background:#fff3cd;border:1px solid #e0c36c;padding:8px;border-radius:4px}
.filters{display:flex;gap:16px;align-items:center;padding:8px 0;border-top:1px solid #ddd;border-bottom:1px solid #ddd;flex-wrap:wrap}
table.matrix{border-collapse:collapse}table.matrix th,table.matrix td{border:1px solid #ccc;padding:3px 6px}
table.matrix th[data-check]{vertical-align:bottom;height:190px;font-weight:normal;font-size:12px}
table.matrix th[data-check] span{writing-mode:vertical-rl;transform:rotate(180deg)}
th.op{text-align:left;font-weight:normal;font-family:ui-monospace,monospace;white-space:nowrap}
td.cell{text-align:center;min-width:22px}td.passed{background:#c8ecd0;color:#145a23}td.failed{background:#f4b4b4}td.skipped{background:#e8e8e8;color:#666}td.none{color:#bbb}
td.failed a{color:#8a1212;font-weight:bold;text-decoration:none;display:block}
details.result{border:1px solid #e3b0b0;border-radius:4px;margin:6px 0;padding:4px 8px}details.result summary{cursor:pointer}
table.findings{border-collapse:collapse;margin:6px 0;width:100%}table.findings th,table.findings td{border-top:1px solid #eee;padding:3px 6px;text-align:left;vertical-align:top}
code{font-family:ui-monospace,monospace;font-size:12px;word-break:break-all}.muted{color:#777}.reason{margin:4px 0;color:#555}
[hidden]{display:none!important}`;

// Filters and the link from a failed cell to its details; it reads only attributes the report wrote.
const script = `
(function(){
  var all=function(s){return Array.prototype.slice.call(document.querySelectorAll(s))};
  var failedOnly=document.getElementById('failed-only'),api=document.getElementById('api-filter'),check=document.getElementById('check-filter');
  function apply(){
    var a=api.value,c=check.value,f=failedOnly.checked;
    all('section.api').forEach(function(s){
      s.hidden=(a!==''&&s.getAttribute('data-api')!==a)||(c!==''&&!s.querySelector('th[data-check="'+CSS.escape(c)+'"]'));
    });
    all('table.matrix [data-check]').forEach(function(e){e.hidden=c!==''&&e.getAttribute('data-check')!==c});
    all('tr.operation').forEach(function(r){
      var cells=Array.prototype.slice.call(r.querySelectorAll('td.cell')).filter(function(x){return !x.hidden});
      r.hidden=f&&!cells.some(function(x){return x.getAttribute('data-status')==='failed'});
    });
    var shown=0;
    all('details.result').forEach(function(d){
      d.hidden=(a!==''&&d.getAttribute('data-api')!==a)||(c!==''&&d.getAttribute('data-check')!==c);
      if(!d.hidden)shown++;
    });
    document.getElementById('shown-failures').textContent=String(shown);
  }
  [failedOnly,api,check].forEach(function(e){e.addEventListener('change',apply)});
  document.addEventListener('click',function(e){
    var link=e.target&&e.target.closest&&e.target.closest('a.cell-link');
    if(!link)return;
    var d=document.getElementById(link.getAttribute('href').slice(1));
    if(d){d.open=true;d.hidden=false}
  });
  function openHash(){var d=location.hash&&document.getElementById(location.hash.slice(1));if(d&&d.tagName==='DETAILS')d.open=true}
  window.addEventListener('hashchange',openHash);openHash();
})();`;

const scriptHash = `sha256-${createHash('sha256').update(script).digest('base64')}`;
