// A failure's reproduction as a bash script that runs as it is: every request that led to it, in order (the hook a
// case acted on created first, a sequence's steps one by one), each id read from the answer that first gave it
// (`HOOK_0` from the create's /id, a delivery's from the list's /0/id) and put into the requests that follow, and at
// the end the check that failed, judged again: exit 1 when the failure reproduces, 0 when it does not, 2 when the
// script could not get there. Credentials are references to the variables the config names ("$WEBHOOKS_TOKEN"),
// webhook secrets the run made up are made up afresh ("$SECRET_1"); no value of either is in the script. What a spec
// or a target supplies (an operationId, a path, an id, a header, a body) is in it only as a single-quoted word or in
// a comment made one line (shell-word.ts): running the script runs nothing of theirs.
import { exchangeCheckNames, type Finding } from '../core/finding.js';
import { matchOperation } from '../core/operation-index.js';
import { encodeParameter, isPlainParameter } from '../core/parameter-style.js';
import { decodeParameter, MalformedParameter } from '../core/parameter-style-decode.js';
import type { ParamModel } from '../core/request-model.js';
import type { OperationSpec } from '../core/operation-index.js';
import { type CredentialSource, curlLine, type ScriptVariables, type SentRequest } from './curl-line.js';
import { oneLine, type ShellPiece, shellQuote, variableReference } from './shell-word.js';

/** A request a case or a sequence sent before the one that failed, with what it was answered. */
export interface TrailStep {
  request: SentRequest;
  status: number;
  /** The answer's body parsed as JSON, when it was JSON. */
  json: unknown;
  /**
   * A page of a list the stateful walk followed: its number in that walk (1: the first), where the answer holds the
   * items and which field of an item is its id. A script judges listed_after_create and paging_consistent on them.
   */
  page?: { number: number; itemsPointer: string; idField: string };
}

export interface ScriptInput {
  api: string;
  /** The failure's id, check, operation and the status the run got. */
  failure: { id: string; check: string; operation: string; status: number; seed: number; message: string };
  finding: Finding;
  /** What was sent before the failing request (a sequence's earlier steps, the hook the case acted on). */
  trail: readonly TrailStep[];
  /** The failing request and its answer. */
  last: TrailStep;
  /** The operations of the API, to tell which path segments are ids. */
  operations: readonly OperationSpec[];
  /** The run's --base-url: what BASE_URL stands for in the script. */
  baseUrl: string;
  credentials: readonly CredentialSource[];
  /** The operations' parameters by operationId, to read a label or matrix path segment (absent: all are simple). */
  models?: ReadonlyMap<string, { params: readonly ParamModel[] }>;
  /** A parameter the failing case set itself (FuzzFailure's varied). */
  varied?: { name: string; in: string; value?: string };
  /**
   * Path parameters that name something an earlier answer gave, bound from it in the script: the API's plug-in's
   * (FuzzPlugin.scriptIds: a hook, a delivery); absent, every one (the stateful walk's instances).
   */
  ids?: ReadonlySet<string>;
}
/** Secrets the fuzzer makes up for the hooks it creates (stateful.ts): replaced by variables made afresh. */
const madeUpSecret = /fuzz-secret-[0-9a-f]+-\d+/g;
/**
 * The run's mark in the config.url of each hook it creates (executor.markerUrl): made the script's own at each run,
 * so that running it again, or on a target the run used, makes no hook with another's config (which the seed says
 * is refused), while two steps that used one url still use one.
 */
const runMarker = /contracts-fuzz=[0-9a-f]+-(\d+)/g;
/**
 * Checks the core judges from one answer that `contracts validate` judges again on the script's last answer: all but
 * the status (the script compares it itself) and the headers (validate is given only the content type).
 */
const exchangeChecks = new Set<string>(
  exchangeCheckNames.filter((check) => check !== 'status_code_conformance' && check !== 'response_headers_conformance'),
);
const base = 'http://contracts-repro.invalid';

export function reproScript(input: ScriptInput): string {
  const { failure, finding, last } = input;
  const steps = withoutPolls([...input.trail, last]);
  const variables = new Map<string, { name: string; step: number; pointer: string }>();
  const secrets = new Map<string, string>();
  const counts = new Map<string, number>();
  const isId = (param: string) => input.ids === undefined || input.ids.has(param);
  const lines: string[] = [];
  const cleanup: { variable: string; line: string }[] = [];
  // Where a variable goes, the text holds a placeholder no request of the run holds, so none can be forged.
  const mark = markerPrefix(steps.map((step) => step.request));
  const placeholder = (name: string) => `${mark}${name}__`;
  const variablesIn = { origin: 'BASE_URL', split: placeholdersOf(mark), placeholder };
  steps.forEach((step, index) => {
    const n = index + 1;
    const isLast = index === steps.length - 1;
    const url = new URL(step.request.url);
    const basePath = new URL(input.baseUrl).pathname.replace(/\/+$/, '');
    const relative = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : url.pathname;
    const match = matchOperation(input.operations, step.request.method, relative);
    // Ids in the path an earlier answer gave: the variable bound from it, found where that answer first had it.
    let path = relative;
    const bound: { name: string; step: number; pointer: string }[] = [];
    for (const [param, value] of Object.entries(match?.pathParams ?? {})) {
      const segment = isId(param) && idSegment(input, match!.operation.operationId, param, value);
      if (!segment) continue;
      const { id } = segment;
      let variable = variables.get(`${param}=${id}`);
      if (!variable) {
        const source = firstAnswerWith(steps.slice(0, index), id);
        if (!source) continue;
        const prefix =
          param === 'hook_id'
            ? 'HOOK'
            : param === 'delivery_id'
              ? 'DELIVERY'
              : `ID_${param.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
        const count = counts.get(param) ?? 0;
        counts.set(param, count + 1);
        variable = { name: `${prefix}_${count}`, ...source };
        variables.set(`${param}=${id}`, variable);
        bound.push(variable);
      }
      const written = segment.written(placeholder(variable.name));
      path = path.replace(new RegExp(`/${escapeRegExp(segment.sent)}(?=/|$)`), () => `/${written}`);
    }
    for (const variable of bound) lines.push(...bindLines(variable, steps[variable.step - 1]!));
    const paged = nextPageQuery(steps, index, url.search, placeholder);
    lines.push(...paged.lines);
    const body = step.request.body
      ?.replace(madeUpSecret, (secret) => {
        if (!secrets.has(secret)) secrets.set(secret, `SECRET_${secrets.size + 1}`);
        return placeholder(secrets.get(secret)!);
      })
      .replace(runMarker, (_marker, index: string) => `contracts-fuzz=repro-${placeholder('RUN_0')}-${index}`);
    const line = curlLine(
      { ...step.request, url: `${base}${path}${paged.search}`, ...(body !== undefined ? { body } : {}) },
      input.credentials,
      isLast ? input.varied : undefined,
      variablesIn,
    ).replace(/^curl (-g )?-sS -i /, '');
    const operation = match?.operation.operationId ?? `${step.request.method} ${relative}`;
    // Each hook the script makes is deleted when it ends, whatever happened.
    for (const variable of bound)
      if (variable.name.startsWith('HOOK_') && steps[variable.step - 1]!.request.method === 'POST')
        cleanup.push({
          variable: variable.name,
          line: deleteLine(steps[variable.step - 1]!.request, variable.name, input.credentials, basePath, variablesIn),
        });
    lines.push(
      `# ${n}. ${oneLine(operation)}: the run got ${step.status}${isLast ? ' (the failure)' : ''}`,
      `step_${n}=(${line})`,
      `send ${n} "\${step_${n}[@]}"`,
    );
  });
  const lastStep = steps.length;
  const conditions = reproducedWhen(input, steps, variables);
  // Only the credentials the requests carry are required: one the failing steps never send (another scheme's token,
  // a login's body credentials) left unset is no reason not to run, and never a "reproduced".
  const sentText = [...lines, ...cleanup.map(({ line }) => line)].join('\n');
  const credentialNames = [...new Set(input.credentials.flatMap((credential) => credential.env ?? []))].filter((name) =>
    sentText.includes(variableReference(name)),
  );
  const header = [
    '#!/usr/bin/env bash',
    `# contracts fuzz, failure ${failure.id} (seed ${failure.seed}): ${oneLine(`${failure.check} · ${failure.operation}`)} · ${failure.status}`,
    `#   ${oneLine(failure.message)}`,
    '# Every request that led to it, as the run sent them; ids are read from the answers, as the run read them.',
    `# BASE_URL: the target (${oneLine(input.api)}); needs curl and node${conditions.validates ? ', and contracts (CONTRACTS, default npx --no-install contracts) with the config the run used' : ''}.`,
    '# Exit status: 1 when the failure reproduces, 0 when it does not, 2 when the script cannot run (a variable it',
    '# needs unset, curl or node missing, the target unreachable) or a step could not be sent.',
    'set -u',
    ...requireLines(credentialNames),
    ...[...secrets.values()].map((name) => `${name}="contracts-repro-$RANDOM$RANDOM$RANDOM"`),
    'RUN_0="$RANDOM$RANDOM"',
    cleanup.length > 0
      ? '# At exit: what the script made is deleted, its answers removed.'
      : '# At exit: its answers are removed.',
    'cleanup() {',
    ...cleanup.map(({ variable, line }) => `  [ -n "\${${variable}:-}" ] && curl -g -sS -o /dev/null ${line} || true`),
    '  rm -rf "$dir"',
    '}',
    'dir=$(mktemp -d) && trap cleanup EXIT',
    ...helperLines(conditions.usesSame),
    '',
  ];
  const footer = [
    '',
    `# The check that failed: ${oneLine(failure.check)} on step ${lastStep}, ${oneLine(finding.message)}`,
    `if ${conditions.tests.join(' && ')}; then`,
    `  echo ${shellQuote(`reproduced: ${oneLine(`${failure.check} · ${failure.operation}`)}`)}": step ${lastStep} answered $status, as in the run"`,
    `  exit 1`,
    'fi',
    `echo "not reproduced: step ${lastStep} answered $status"${shellQuote(` (the run got ${failure.status}, failing ${oneLine(failure.check)})`)}`,
    'exit 0',
    '',
  ];
  return [...header, ...lines, ...footer].join('\n');
}

/** The script's own shell functions: send (a step), value (an id read from an answer), same (the check's test). */
function helperLines(usesSame: boolean): string[] {
  return [
    '# send N [curl arguments]: the answer of step N in $dir/N, its status in $status, its content type in $ctype',
    'send() {',
    '  local n=$1 out; shift',
    '  out=$(curl -g -sS -o "$dir/$n" -w \'%{http_code} %{content_type}\' "$@") || { echo "cannot run: step $n: curl failed (is the target at $BASE_URL up?)" >&2; exit 2; }',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's ${…}, not a template
    '  status=${out%% *}; ctype=${out#* }; echo "step $n: $status" >&2',
    '}',
    '# value N POINTER: the value at a JSON pointer of the answer of step N (nothing when it has none)',
    `value() { node -e ${ownProgram(valueScript)} "$dir/$1" "$2"; }`,
    ...(usesSame
      ? [
          '# same N POINTER JSON: whether the answer of step N has that value there (lists of names in any order)',
          `same() { node -e ${ownProgram(sameScript)} "$dir/$1" "$2" "$3"; }`,
        ]
      : []),
  ];
}

/** The checks a script makes before sending anything: each failing with exit 2 and one line saying what is missing. */
function requireLines(credentialNames: readonly string[]): string[] {
  const needed = (name: string, why: string) =>
    `[ -n "\${${name}:-}" ] || { echo ${shellQuote(`cannot run: set ${name} (${why})`)} >&2; exit 2; }`;
  return [
    needed('BASE_URL', 'the target, e.g. http://127.0.0.1:8080'),
    ...credentialNames.map((name) => needed(name, 'a credential the failing requests send')),
    ...['curl', 'node'].map(
      (tool) => `command -v ${tool} >/dev/null || { echo 'cannot run: ${tool} is not installed' >&2; exit 2; }`,
    ),
  ];
}

/**
 * An id path parameter's segment: the id it carries, the segment as the run sent it, and a variable written in the
 * same style. A label or matrix segment (`.5`, `;hook_id=5`) holds the id in its style's text (OpenAPI 3.1 section
 * 4.8.12.4). Undefined when the segment is not in its style.
 */
function idSegment(input: ScriptInput, operationId: string, name: string, value: string) {
  const styled = styledPathParam(input, operationId, name);
  if (!styled) return { id: value, sent: encodeURIComponent(value), written: (text: string) => text };
  const id = decodedId(styled, value);
  return (
    id !== undefined && {
      id,
      sent: String(encodeParameter(styled, id)),
      written: (text: string) => String(encodeParameter(styled, text)),
    }
  );
}

/** The path parameter `name` of the operation when it has a style of its own (label, matrix), else undefined. */
function styledPathParam(input: ScriptInput, operationId: string, name: string): ParamModel | undefined {
  const param = input.models
    ?.get(operationId)
    ?.params.find((candidate) => candidate.in === 'path' && candidate.name === name);
  return param && !isPlainParameter(param, param.schema) ? param : undefined;
}

/** The id a styled segment carries, as text (`.5` in label style is 5); undefined when it is not in its style. */
function decodedId(param: ParamModel, segment: string): string | undefined {
  const value = decodeParameter(param, segment);
  return value === undefined || value instanceof MalformedParameter || (value !== null && typeof value === 'object')
    ? undefined
    : String(value);
}

/** A curl that deletes a hook the create `request` made: its collection's URL and credentials, the hook's id. */
function deleteLine(
  create: SentRequest,
  variable: string,
  credentials: readonly CredentialSource[],
  basePath: string,
  variables: ScriptVariables & { placeholder: (name: string) => string },
): string {
  const path = new URL(create.url).pathname.slice(basePath.length).replace(/\/+$/, '');
  return curlLine(
    {
      method: 'DELETE',
      url: `${base}${path}/${variables.placeholder(variable)}`,
      headers: create.headers.filter(([name]) => name.toLowerCase() !== 'content-type'),
    },
    credentials,
    undefined,
    variables,
  ).replace(/^curl (-g )?-sS -i /, '');
}

function bindLines(variable: { name: string; step: number; pointer: string }, source: TrailStep): string[] {
  const get = `${variable.name}=$(value ${variable.step} ${shellQuote(variable.pointer)})`;
  const missing = `[ -n "$${variable.name}" ] || { echo "step ${variable.step}: no id at "${shellQuote(variable.pointer)}" in the answer ($status): the sequence cannot go on" >&2; exit 2; }`;
  // A list read while something shows up in it (a delivery after a ping) is read again until it does.
  if (source.request.method === 'GET')
    return [
      `for try in $(seq 50); do ${get}; [ -n "$${variable.name}" ] && break; sleep 0.1; send ${variable.step} "\${step_${variable.step}[@]}"; done`,
      missing,
    ];
  return [get, missing];
}

/**
 * A later page of a list the walk followed names its place with a value the page before answered (a cursor, RFC 8288
 * aside): that value is read from the script's own answer of the page before, at the same place, so that the pages
 * follow on a target holding other items than the run's. Read as `value` reads ids (safe characters only); an
 * answer without it leaves the parameter empty, a page the target refuses and the judgement passes over.
 */
function nextPageQuery(
  steps: readonly TrailStep[],
  index: number,
  search: string,
  placeholder: (name: string) => string,
): { search: string; lines: string[] } {
  const step = steps[index]!;
  const before = steps[index - 1];
  if ((step.page?.number ?? 1) === 1 || before?.page === undefined || !isRecord(before.json))
    return { search, lines: [] };
  const json = before.json;
  const earlier = new URL(before.request.url).searchParams;
  const lines: string[] = [];
  const pairs = search
    .slice(1)
    .split('&')
    .map((pair) => {
      const [name, value] = [...new URLSearchParams(pair)][0] ?? ['', ''];
      if (value === '' || earlier.get(name) === value) return pair;
      const field = Object.keys(json).find((key) => String(json[key]) === value && typeof json[key] !== 'object');
      if (field === undefined) return pair;
      const variable = `PAGE_${index + 1}`;
      const pointer = `/${field.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      lines.push(`${variable}=$(value ${index} ${shellQuote(pointer)})`);
      return `${pair.slice(0, pair.indexOf('=') + 1)}${placeholder(variable)}`;
    });
  return { search: lines.length === 0 ? search : `?${pairs.join('&')}`, lines };
}

/** The answer (of the steps before) that first held `value` as an id: an object's /id, or a list item's /N/id. */
function firstAnswerWith(steps: readonly TrailStep[], value: string): { step: number; pointer: string } | undefined {
  for (const [index, step] of steps.entries()) {
    const { json } = step;
    if (isRecord(json) && String(json.id) === value) return { step: index + 1, pointer: '/id' };
    if (Array.isArray(json)) {
      const at = json.findIndex((item) => isRecord(item) && String(item.id) === value);
      if (at !== -1) return { step: index + 1, pointer: `/${at}/id` };
    }
  }
  return undefined;
}

/** The tests the last answer must pass for the failure to count as reproduced. */
function reproducedWhen(
  input: ScriptInput,
  steps: readonly TrailStep[],
  variables: Map<string, { name: string }>,
): { tests: string[]; validates: boolean; usesSame: boolean } {
  const { failure, finding } = input;
  const lastStep = steps.length;
  const tests = [`[ "$status" = ${failure.status} ]`];
  let validates = false;
  let usesSame = false;
  if (finding.check === 'secret_masked') {
    tests.push(`grep -qF -- "$SECRET_1" "$dir/${lastStep}"`);
  } else if (exchangeChecks.has(finding.check)) {
    // Judged again by the core, as the run judged it: `contracts validate` exits 1 on a failing answer.
    validates = true;
    tests.push(
      `{ \${CONTRACTS:-npx --no-install contracts} validate --api ${shellQuote(input.api)} --operation ${shellQuote(failure.operation)} --status "$status" --header "content-type: $ctype" --body "$dir/${lastStep}" >&2; [ $? = 1 ]; }`,
    );
  } else if (finding.check === 'ensure_resource_availability' && typeof finding.expected === 'number') {
    const hook = variables.get(`hook_id=${finding.expected}`);
    if (hook) tests.push(`! node -e ${ownProgram(listsIdScript)} "$dir/${lastStep}" "$${hook.name}"`);
  } else if (
    (finding.check === 'listed_after_create' || finding.check === 'paging_consistent') &&
    steps.at(-1)?.page !== undefined
  ) {
    // Judged on every page the script walked, not on the last answer's status: on a target holding other items
    // than the run's, the walk may end a page sooner (the last request then names no next page, and is refused).
    tests.splice(0, tests.length, listTest(finding, steps, variables));
  } else if (finding.instancePath && finding.actual !== undefined && isScalarOrList(finding.actual)) {
    usesSame = true;
    tests.push(`same ${lastStep} ${shellQuote(finding.instancePath)} ${shellQuote(JSON.stringify(finding.actual))}`);
  }
  return { tests, validates, usesSame };
}

/**
 * listed_after_create and paging_consistent judged again on the pages the script walked (the walk's page facts):
 * the id the create gave (its variable) on no page of the last walk; an item on two pages of one walk. A created id
 * the script has no variable for cannot be judged afresh: never "reproduced".
 */
function listTest(finding: Finding, steps: readonly TrailStep[], variables: Map<string, { name: string }>): string {
  const walks: number[][] = [];
  steps.forEach((step, index) => {
    if (step.page === undefined) return;
    if (step.page.number === 1 || walks.length === 0) walks.push([]);
    walks.at(-1)!.push(index + 1);
  });
  const { itemsPointer, idField } = steps.at(-1)!.page!;
  const program = `node -e ${ownProgram(pagesScript)} "$dir" ${shellQuote(itemsPointer)} ${shellQuote(idField)}`;
  if (finding.check === 'paging_consistent')
    return `${program} repeats '' ${walks.map((walk) => walk.join(',')).join(' ')}`;
  const variable = [...variables].find(([key]) => key.endsWith(`=${String(finding.expected)}`))?.[1];
  const source = firstAnswerWith(steps, String(finding.expected));
  const id = variable ? `"$${variable.name}"` : source && `"$(value ${source.step} ${shellQuote(source.pointer)})"`;
  if (!id) return `{ echo 'cannot judge: the id the run listed is not one this script made' >&2; false; }`;
  return `! ${program} listed ${id} ${walks.at(-1)!.join(',')}`;
}

/**
 * Exit 0 when the pages (answers in DIR, by step number; walks as comma-separated step lists) show it: `listed ID`
 * an item with that id; `repeats` an item id on two pages of one walk.
 */
const pagesScript = `const fs = require('fs'); const [dir, pointer, field, mode, id, ...walks] = process.argv.slice(1);
if (mode === 'listed' && id === '') process.exit(0);
const items = (n) => { let v; try { v = JSON.parse(fs.readFileSync(dir + '/' + n, 'utf8')); } catch { return []; }
  for (const s of pointer.split('/').slice(1)) { const k = s.replace(/~1/g, '/').replace(/~0/g, '~'); if (v === null || typeof v !== 'object' || !Object.hasOwn(v, k)) return []; v = v[k]; }
  return Array.isArray(v) ? v.filter((i) => i !== null && typeof i === 'object' && i[field] !== undefined).map((i) => String(i[field])) : []; };
for (const walk of walks) { const seen = new Map(); for (const [page, n] of walk.split(',').entries()) for (const item of items(n)) {
  if (mode === 'listed' && item === id) process.exit(0);
  if (mode === 'repeats' && seen.has(item) && seen.get(item) !== page) process.exit(0); if (!seen.has(item)) seen.set(item, page); } }
process.exit(1);`;

/**
 * Prints an id read from an answer, or nothing: only what is safe as one path segment (a number, or letters, digits
 * and `-._~` not starting with a dot). A target that answers `"id": "../../other"` cannot steer the script's later
 * requests (its DELETE at exit above all) to another resource, with the user's credentials.
 */
const valueScript = `const fs = require('fs'); let v; try { v = JSON.parse(fs.readFileSync(process.argv[1], 'utf8')); } catch { process.exit(0); }
for (const s of process.argv[2].split('/').slice(1)) { const k = s.replace(/~1/g, '/').replace(/~0/g, '~'); if (v === null || typeof v !== 'object' || !Object.hasOwn(v, k)) process.exit(0); v = v[k]; }
const t = typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'string' ? v : '';
if (/^[A-Za-z0-9_~-][A-Za-z0-9._~-]{0,199}$/.test(t)) process.stdout.write(t);`;

const sameScript = `const fs = require('fs'); let v; try { v = JSON.parse(fs.readFileSync(process.argv[1], 'utf8')); } catch { process.exit(1); }
for (const s of process.argv[2].split('/').slice(1)) { const k = s.replace(/~1/g, '/').replace(/~0/g, '~'); if (v === null || typeof v !== 'object' || !Object.hasOwn(v, k)) process.exit(1); v = v[k]; }
const norm = (x) => JSON.stringify(Array.isArray(x) ? x.map((i) => JSON.stringify(i)).sort() : x);
process.exit(norm(v) === norm(JSON.parse(process.argv[3])) ? 0 : 1);`;

/** Exits 0 when the list answer (a JSON array) has an item with the id given. */
const listsIdScript = `const fs = require('fs'); let v; try { v = JSON.parse(fs.readFileSync(process.argv[1], 'utf8')); } catch { process.exit(1); }
process.exit(Array.isArray(v) && v.some((i) => i !== null && typeof i === 'object' && String(i.id) === process.argv[2]) ? 0 : 1);`;

/**
 * Polls (the same GET again while a delivery shows up) leave their last reading only. Any other request sent twice
 * is sent twice: a state change repeated is what conflict_documented judges (an order cancelled twice).
 */
function withoutPolls(steps: readonly TrailStep[]): TrailStep[] {
  return steps.filter(
    (step, index, all) =>
      index === all.length - 1 || step.request.method !== 'GET' || !sameRequest(step.request, all[index + 1]!.request),
  );
}

function sameRequest(a: SentRequest, b: SentRequest): boolean {
  return a.method === b.method && a.url === b.url && a.body === b.body;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isScalarOrList(value: unknown): boolean {
  const scalar = (item: unknown) => item === null || ['string', 'number', 'boolean'].includes(typeof item);
  return scalar(value) || (Array.isArray(value) && value.every(scalar));
}

/**
 * A placeholder prefix no request holds: `__cr` and one `0` more than any run of zeros after a `cr` in their text
 * (found in one linear pass), so a body or a path cannot name a variable of the script.
 */
function markerPrefix(requests: readonly SentRequest[]): string {
  let longest = 0;
  for (const request of requests)
    for (const text of [request.url, request.body ?? '', ...request.headers.flat()])
      for (const match of text.matchAll(/cr(0*)/gi)) longest = Math.max(longest, match[1]!.length);
  return `__cr${'0'.repeat(longest + 1)}_`;
}

/** Splits a text at its placeholders (`${mark}HOOK_0__`): the variables the script sets, as references. */
function placeholdersOf(mark: string): (text: string) => ShellPiece[] {
  const pattern = new RegExp(`${mark}((?:HOOK|DELIVERY|SECRET|RUN|PAGE|ID_[A-Z0-9_]+?)_\\d+)__`, 'g');
  return (text) => {
    const pieces: ShellPiece[] = [];
    let last = 0;
    for (const match of text.matchAll(pattern)) {
      pieces.push(text.slice(last, match.index), { variable: match[1]! });
      last = match.index + match[0].length;
    }
    pieces.push(text.slice(last));
    return pieces;
  };
}

/** One of the script's own node programs as a word: single-quoted over its lines, as written here. */
function ownProgram(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
