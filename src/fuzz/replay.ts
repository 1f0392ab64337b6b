// `contracts fuzz --replay REPORT.json`: re-sends each failing request a JSON report saved, with the values that
// failed (path, query, body), bound afresh only to what this run owns (a new hook instead of the deleted one, the
// credentials from the environment), judges the answer with the same checks, and says whether each failure still
// reproduces. A change to an item of the old run goes to an item the replay creates: that is another request, so
// when it does not fail the failure is "not replayed", never "no longer fails". A stateful walk's failure is sent
// again from a fresh start, every step (replay-sequence.ts). Another failure found in a sequence needs
// its sequence: it is listed, not replayed.
import { readFile } from 'node:fs/promises';
import { specPath, type ApiName, type Project } from '../config/project.js';
import { compileContract } from '../core/compile-contract.js';
import { generationSpec } from '../core/read-write-views.js';
import { ContractsError } from '../core/errors.js';
import { loadSpec, type LoadedSpec } from '../core/load-spec.js';
import { matchOperation } from '../core/operation-index.js';
import { isPlainParameter } from '../core/parameter-style.js';
import type { ApiCredential } from '../http/api-credentials.js';
import { HttpCapture } from '../http/http-capture.js';
import { ResultCollector } from '../reports/results.js';
import type { SentRequest } from './curl-line.js';
import { createFor, deleteCreated, itemOf, type PathValues } from './auth-probes.js';
import { Executor, type ApiTarget, type ExecutorOptions, type SavedSequence, type VariedParam } from './executor.js';
import { replaySequence, sequenceProblem } from './replay-sequence.js';
import { isBoundParam, isPlainObject, phases, type FuzzCase, type Phase } from './fuzz-case.js';
import type { RequestData } from './request-model.js';
import { requestSide } from './request-side.js';
import type { FuzzPlugin } from './fuzz-plugin.js';
import { fuzzCredentials } from './run-fuzz.js';
import { ownValue, setOwn } from '../core/own-key.js';
import { resentDifferences, savedBody, savedHeaders } from './saved-request.js';

export interface SavedFailure {
  id: string;
  api: string;
  operation: string;
  check: string;
  status: number;
  phase: Phase;
  note: string;
  request: SentRequest;
  /** The credential's parameter the case set itself, with its value (Executor's FuzzFailure). */
  varied?: VariedParam;
  /** A stateful walk's failure: its steps, replayed from a fresh start (replay-sequence.ts). */
  sequence?: SavedSequence;
}

export interface ReplayOutcome {
  failure: SavedFailure;
  /** undefined: not replayed (a sequence's failure), with `reason`. */
  reproduced: boolean | undefined;
  status?: number;
  reason?: string;
  /** The whole sequence was sent again from a fresh start: its verdict needs nothing the run had. */
  fromStart?: boolean;
}

export async function readSavedFailures(file: string): Promise<SavedFailure[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new ContractsError(
      'INPUT_NOT_READABLE',
      `--replay: cannot read ${file} as a fuzz JSON report: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  const failures = isPlainObject(parsed) ? parsed.failures : undefined;
  if (!Array.isArray(failures))
    throw new ContractsError(
      'INPUT_NOT_READABLE',
      `--replay: ${file} is not a JSON report of contracts fuzz (no "failures" with their requests)`,
    );
  failures.forEach((failure, index) => {
    const problem = savedFailureProblem(failure);
    if (problem)
      throw new ContractsError(
        'INPUT_NOT_READABLE',
        `--replay: ${file}: failures[${index}]${problem}: is it a JSON report of contracts fuzz?`,
      );
  });
  return failures as SavedFailure[];
}

/** What makes a saved failure unusable, as a path and a reason (never a value: it may hold a secret), or undefined. */
function savedFailureProblem(failure: unknown): string | undefined {
  if (!isPlainObject(failure)) return ' is not an object';
  for (const field of ['id', 'api', 'operation', 'check', 'note'])
    if (typeof failure[field] !== 'string') return `.${field} is not a string`;
  if (!(phases as readonly unknown[]).includes(failure.phase)) return `.phase is not one of ${phases.join(', ')}`;
  const problem = requestProblem(failure.request);
  if (problem) return `.request${problem}`;
  if (failure.sequence !== undefined) {
    const wrong = sequenceProblem(failure.sequence, requestProblem);
    if (wrong) return `.sequence${wrong}`;
  }
  const { varied } = failure;
  if (
    varied !== undefined &&
    !(
      isPlainObject(varied) &&
      typeof varied.name === 'string' &&
      (varied.in === 'query' || varied.in === 'header') &&
      (varied.value === undefined || typeof varied.value === 'string')
    )
  )
    return '.varied is not a parameter name, where it goes (query or header) and its value';
  return undefined;
}

/** What makes a saved request unusable (after its path in the report), or undefined. */
function requestProblem(request: unknown): string | undefined {
  if (!isPlainObject(request)) return ' is not an object';
  if (typeof request.method !== 'string' || !/^[A-Z]+$/.test(request.method)) return '.method is not an HTTP method';
  if (typeof request.url !== 'string' || !URL.canParse(request.url) || !/^https?:$/.test(new URL(request.url).protocol))
    return '.url is not an absolute http(s) URL';
  if (
    !Array.isArray(request.headers) ||
    !request.headers.every(
      (header) =>
        Array.isArray(header) && header.length === 2 && typeof header[0] === 'string' && typeof header[1] === 'string',
    )
  )
    return '.headers is not a list of [name, value] pairs';
  // Any text: a negative case's body that is not JSON (not-json-bodies.ts) is sent again as it was.
  if (request.body !== undefined && typeof request.body !== 'string') return '.body is not text';
  return undefined;
}

export async function replayFailures(
  failures: readonly SavedFailure[],
  baseUrl: string,
  options: Omit<ExecutorOptions, 'capture' | 'results' | 'deadline' | 'credentials'> & {
    timeoutMs: number;
    remote?: boolean;
    /** The project whose APIs the failures name (their specs and credentials). */
    project: Project;
  },
): Promise<ReplayOutcome[]> {
  const capture = new HttpCapture({ timeoutMs: options.timeoutMs });
  const executor = new Executor({
    ...options,
    capture,
    results: new ResultCollector(),
    deadline: Infinity,
    credentials: {},
  });
  // Credentials first, for every API the report names: a missing variable is one line before anything is sent.
  const specs = new Map<ApiName, LoadedSpec>();
  const { project } = options;
  for (const api of new Set(failures.map((failure) => failure.api).filter((name) => project.has(name)))) {
    const entry = project.api(api);
    const spec = await loadSpec(specPath(entry));
    specs.set(api, spec);
    executor.options.credentials![api] = fuzzCredentials(entry, compileContract(spec), options);
  }
  const outcomes: ReplayOutcome[] = [];
  const targets = new Map<ApiName, ApiTarget>();
  try {
    for (const failure of failures) {
      if (!project.has(failure.api)) {
        outcomes.push({ failure, reproduced: undefined, reason: `unknown API "${failure.api}"` });
        continue;
      }
      if (failure.sequence !== undefined) {
        const target =
          targets.get(failure.api) ?? (await setUp(failure.api, specs.get(failure.api)!, baseUrl, executor));
        targets.set(failure.api, target);
        const sequence = { ...failure, sequence: failure.sequence };
        outcomes.push({ failure, ...(await replaySequence(executor, target, sequence, options.timeoutMs)) });
        continue;
      }
      if (failure.phase === 'stateful') {
        outcomes.push({
          failure,
          reproduced: undefined,
          reason: `found in a sequence (${failure.note}): run contracts fuzz --seed with the report's seed`,
        });
        continue;
      }
      const target = targets.get(failure.api) ?? (await setUp(failure.api, specs.get(failure.api)!, baseUrl, executor));
      targets.set(failure.api, target);
      const plugin = executor.options.plugins?.(target.api);
      let fuzzCase = caseOf(plugin, target, failure, executor.binder.credentialsOf(target));
      // A change to an item of the old run goes to an item this replay creates, and deletes afterwards.
      const fresh = typeof fuzzCase === 'string' ? await freshItem(executor, target, failure) : undefined;
      if (fresh) fuzzCase = caseOf(plugin, target, failure, executor.binder.credentialsOf(target), fresh.path);
      if (typeof fuzzCase === 'string') {
        outcomes.push({ failure, reproduced: undefined, reason: fuzzCase });
        continue;
      }
      outcomes.push(await replayOne(executor, target, failure, fuzzCase, fresh));
    }
  } finally {
    for (const target of targets.values()) await executor.fixturesOf(target.api)?.cleanup(target, false);
    capture.close();
  }
  return outcomes;
}

/** Sends one saved failure's case (on `fresh`, an item this replay made, when given) and says what it proved. */
async function replayOne(
  executor: Executor,
  target: ApiTarget,
  failure: SavedFailure,
  fuzzCase: FuzzCase,
  fresh: { template: string; path: PathValues } | undefined,
): Promise<ReplayOutcome> {
  const result = await executor.runCase(target, fuzzCase);
  if (fresh) {
    const document = generationSpec(target.compiled.spec).document;
    await deleteCreated(executor, target, document, [...target.models.values()], fresh.template, fresh.path);
  }
  if (!result)
    return {
      failure,
      reproduced: undefined,
      reason: executor.unsendable ?? 'the saved request no longer is what it was (the spec changed?)',
    };
  const reproduced = result.findings.some((finding) => finding.check === failure.check);
  const status = result.sent.exchange.status;
  if (fresh) return freshOutcome(target, failure, fresh.path, reproduced, status);
  // What the replay binds afresh (hooks, the repository, its own config.url) differs by design; anything else that
  // went out otherwise than saved makes the answer no verdict on the saved request.
  const credentials = executor.binder.credentialsOf(target);
  const differences = bindsAfresh(executor, target, failure)
    ? []
    : resentDifferences(failure.request, result.sent.sent, credentials);
  if (differences.length === 0) {
    // The same request on an item gone since the run: once more on an item this replay makes, and said so.
    if (!reproduced && itemGone(failure, status)) {
      const made = await freshItem(executor, target, failure, true);
      const plugin = executor.options.plugins?.(target.api);
      const onMade = made ? caseOf(plugin, target, failure, credentials, made.path) : undefined;
      if (made && onMade !== undefined && typeof onMade !== 'string')
        return replayOne(executor, target, failure, onMade, made);
    }
    return { failure, reproduced, status };
  }
  const what = `not re-sent unchanged: ${differences.join(', ')} went out otherwise than saved`;
  if (reproduced) return { failure, reproduced, status, reason: what };
  return {
    failure,
    reproduced: undefined,
    status,
    reason: `${what}, so its answer ${status} says nothing of the saved one`,
  };
}

/**
 * The answer says what the saved request names is gone (404, 410; 401 and 403 where a target hides what does not
 * exist, as Directus does), where the run got something else. Not for the checks whose fix is such a refusal.
 */
function itemGone(failure: SavedFailure, status: number): boolean {
  if (failure.check === 'ignored_auth' || failure.check === 'negative_data_rejection' || failure.varied) return false;
  return [401, 403, 404, 410].includes(status) && status !== failure.status;
}

/** Whether the replay binds part of this request afresh by design: what the API's plug-in binds (fuzz-plugin.ts). */
function bindsAfresh(executor: Executor, target: ApiTarget, failure: SavedFailure): boolean {
  const saved = savedOperation(target, failure);
  if (!saved) return false;
  const { model } = saved;
  return (
    model.params.some((param) => isBoundParam(executor.options.plugins?.(target.api), param)) ||
    executor.fixturesOf(target.api)?.bindsBody?.(model.operationId) === true
  );
}

/**
 * The outcome of a failure replayed on an item this replay created in place of the saved one: not the request that
 * failed. Still failing, it still fails (and says where); not failing, it proves nothing of the saved value (a
 * server that breaks on the id `%00` does not break on the id it just made): could not replay, never "no longer fails".
 */
function freshOutcome(
  target: ApiTarget,
  failure: SavedFailure,
  fresh: PathValues,
  reproduced: boolean,
  status: number,
): ReplayOutcome {
  const saved = savedOperation(target, failure)?.match.pathParams ?? {};
  const names = Object.keys(fresh);
  const was = names.map((name) => `${name} ${JSON.stringify(ownValue(saved, name))}`).join(', ');
  const now = names.map((name) => `${name} ${JSON.stringify(ownValue(fresh, name))}`).join(', ');
  // ignored_auth's cause is the credential left out, not the item: its probes act on items the run made itself, so
  // an item this replay made is the same request in every way that matters, and its refusal is a fix.
  if (failure.check === 'ignored_auth') return { failure, reproduced, status };
  if (reproduced)
    return {
      failure,
      reproduced,
      status,
      reason: `not re-sent unchanged: on ${now}, made by this replay in place of ${was}`,
    };
  return {
    failure,
    reproduced: undefined,
    status,
    reason: `could not replay the same request: it ${changingMethods.has(failure.request.method) ? 'changes' : 'reads'} ${was}, which this replay did not create; on ${now}, made by this replay instead, it answered ${status}, which says nothing of the saved value`,
  };
}

async function setUp(api: ApiName, spec: LoadedSpec, baseUrl: string, executor: Executor): Promise<ApiTarget> {
  // Made from the generation view, judged by the request view (request-side.ts), as in a fuzz run.
  const { models, compiled } = requestSide(spec);
  const target: ApiTarget = {
    api,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    contract: compileContract(spec, { strict: executor.options.strict }),
    compiled,
    models: new Map(models.map((model) => [model.operationId, model])),
  };
  const fixtures = executor.fixturesOf(api);
  if (fixtures) {
    const problem = await fixtures.prepare(target);
    if (problem) throw new ContractsError('TARGET_UNREACHABLE', `--replay: ${problem}`);
  }
  return target;
}

const changingMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Path parameters the replay binds itself, whatever the saved value was (`42`, `+1`, `0x2a`: a lenient server reads
 * them all as some hook): the repository it was given, and the hooks and deliveries it creates.
 */
function replayBinds(plugin: FuzzPlugin | undefined, name: string): boolean {
  return isBoundParam(plugin, { name, in: 'path' });
}

/**
 * The saved request as a case: what the old run owned (hook ids, credentials, config.url) is left to bind afresh.
 * A string says why it is not sent: it matches no operation, or it would change a resource the replay did not create.
 */
/** The operation a saved request was sent to, and its path parameters as sent. */
function savedOperation(target: ApiTarget, failure: SavedFailure) {
  const match = matchOperation(
    [...target.models.values()].map((model) => model.spec),
    failure.request.method,
    new URL(failure.request.url).pathname,
  );
  return match && { match, model: target.models.get(match.operation.operationId)! };
}

/**
 * A saved request that changes an item (`DELETE /items/7`) names an item of the old run. The replay makes its own
 * instead, as the run's ignored_auth probes do: the collection's POST (`POST /items`) with its smallest valid request
 * and the credentials. Undefined when the operation has no such collection, or the target made no item.
 */
async function freshItem(
  executor: Executor,
  target: ApiTarget,
  failure: SavedFailure,
  anyMethod = false,
): Promise<{ template: string; path: PathValues } | undefined> {
  const model = savedOperation(target, failure)?.model;
  if (!model || !(anyMethod || changingMethods.has(model.method))) return undefined;
  const item = itemOf(model.pathTemplate);
  if (!item) return undefined;
  const document = generationSpec(target.compiled.spec).document;
  const all = [...target.models.values()];
  const path = await createFor(executor, target, document, all, model.pathTemplate, item.collection);
  return path && { template: model.pathTemplate, path };
}

function caseOf(
  plugin: FuzzPlugin | undefined,
  target: ApiTarget,
  failure: SavedFailure,
  credentials: readonly ApiCredential[],
  fresh: PathValues = {},
): FuzzCase | string {
  const url = new URL(failure.request.url);
  const saved = savedOperation(target, failure);
  if (!saved) return `${failure.request.method} ${url.pathname} matches no operation of the spec`;
  const { model, match } = saved;
  const request: RequestData = { path: {}, query: {}, headers: {} };
  const { varied } = failure;
  for (const [name, value] of Object.entries(match.pathParams))
    if (!replayBinds(plugin, name)) setOwn(request.path, name, ownValue(fresh, name) ?? value);
  const named = Object.keys(request.path).filter((name) => !Object.hasOwn(fresh, name));
  if (changingMethods.has(model.method) && named.length > 0)
    return `${model.method} ${model.pathTemplate} would change a resource this replay did not create (${named.join(', ')}): a replay changes only what it creates`;
  // A credential in the query was saved redacted: this run sends its own.
  const secretQuery = new Set(
    credentials.filter((credential) => credential.in === 'query').map((credential) => credential.name),
  );
  // A styled parameter's pairs go back byte for byte (`ids=1,2` is two items; re-encoded, `ids=1%2C2` would be one:
  // OpenAPI 3.1 section 4.8.12.4); so do the pairs of names no plain parameter takes (an exploded object's, a
  // deepObject's `filter[a]`). The plain parameters' values are bound as before.
  const styled = model.params.some((param) => param.in === 'query' && !isPlainParameter(param, param.schema));
  const recorded: string[] = [];
  for (const pair of url.search.slice(1).split('&')) {
    if (pair === '') continue;
    const [name, value] = [...new URLSearchParams(pair)][0] ?? [pair, ''];
    if (isBoundParam(plugin, { name, in: 'query' }) || secretQuery.has(name) || name === varied?.name) continue;
    const param = model.params.find((candidate) => candidate.in === 'query' && candidate.name === name);
    if (styled && !(param && isPlainParameter(param, param.schema))) recorded.push(pair);
    else setOwn(request.query, name, value);
  }
  if (recorded.length > 0) request.styledQuery = recorded.join('&');
  const sentHeaders = new Map(failure.request.headers.map(([name, value]) => [name.toLowerCase(), value]));
  // Every saved header but the credentials goes again as it was, under its parameter's name when it has one.
  for (const [name, value] of savedHeaders(failure.request, credentials)) {
    const param = model.params.find(
      (candidate) => candidate.in === 'header' && candidate.name.toLowerCase() === name.toLowerCase(),
    );
    setOwn(request.headers, param?.name ?? name, value);
  }
  // The value the case put in a credential's parameter (the saved URL has it redacted), or none.
  if (varied) {
    const bag = varied.in === 'query' ? request.query : request.headers;
    delete bag[varied.name];
    if (varied.value !== undefined) setOwn(bag, varied.name, varied.value);
  }
  // The body's bytes go again under the Content-Type they went with, judged as the value they decode to.
  Object.assign(request, savedBody(model, failure.request));
  const configUrl = isPlainObject(request.body)
    ? isPlainObject(request.body.config)
      ? request.body.config.url
      : request.body.url
    : undefined;
  const ownUrl = typeof configUrl === 'string' && configUrl.includes('contracts-fuzz=');
  return {
    api: target.api,
    operationId: model.operationId,
    phase: failure.phase,
    note: failure.note,
    intent: 'derive',
    request,
    omit: model.apiKeyHeaders.filter((header) => !sentHeaders.has(header.toLowerCase())),
    ...(failure.check === 'ignored_auth' && model.secured ? { anonymous: true } : {}),
    ...(configUrl !== undefined && !ownUrl
      ? { keepPath: isPlainObject((request.body as Record<string, unknown>).config) ? '/config/url' : '/url' }
      : {}),
    ...(model.params.some((param) => param.name === 'hook_id') && request.path.hook_id === undefined
      ? { hook: model.method === 'DELETE' ? 'fresh' : 'shared' }
      : {}),
    ...(url.searchParams.has('cursor') ? { cursor: true } : {}),
    ...(varied ? { varies: varied.name } : {}),
  };
}
