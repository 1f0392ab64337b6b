// A fuzz case bound to what the run owns and built as it goes on the wire: what the API's plug-in fixtures made (ids,
// a URL of the run's own in a body: fuzz-plugin.ts), the config's credentials (on the request, or left out on purpose
// for an anonymous case); then the URL, headers and encoded body. No I/O: the executor sends what this builds.
import { ContractsError } from '../core/errors.js';
import { pathSegmentProblem, refusedSegment } from '../core/path-segment.js';
import type { ApiCredential } from '../http/api-credentials.js';
import { withCredentials } from '../http/api-credentials.js';
import type { SentRequest } from './curl-line.js';
import { encodeBody } from './encode-body.js';
import { mockPlaceholders, withPlaceholders } from './mock-credentials.js';
import type { ApiTarget, ExecutorOptions } from './executor.js';
import { isBoundParam, isPlainObject, type FuzzCase } from './fuzz-case.js';
import type { FuzzFixtures } from './fuzz-plugin.js';
import { styledWire, type OperationModel, type ParamValue, type RequestData } from './request-model.js';
import { queryText } from '../core/parameter-style.js';
import { setOwn } from '../core/own-key.js';

export const placeholderApiKey = 'contracts-fuzz-placeholder-key';

/**
 * A request not built: a path parameter's value is no path segment whatever its encoding (`..`, empty: see
 * core/path-segment.ts). Every request of the fuzzer is built by toSent, so none goes out with such a path.
 */
export class UnsendablePath extends ContractsError {
  constructor(message: string) {
    super('USAGE', message);
    this.name = 'UnsendablePath';
  }
}

/** What the run owns at the moment a case is bound (the executor: its plug-ins' fixtures on each API). */
export interface RunState {
  fixturesOf?(api: string): FuzzFixtures | undefined;
}

export class RequestBinder {
  /** Per API and operation, the placeholders its requests carry to the embedded mock (mock-credentials.ts). */
  private readonly placeholders = new Map<string, ApiCredential[]>();

  constructor(
    private readonly options: Pick<ExecutorOptions, 'credentials' | 'embedded' | 'plugins'>,
    private readonly run: RunState,
  ) {}

  /** Fills in what the run owns: what its fixtures made (`fresh`: the case's own), and the credentials. */
  bind(model: OperationModel, fuzzCase: FuzzCase, fresh?: number): RequestData {
    const credentials = this.options.credentials?.[fuzzCase.api] ?? [];
    // A copy: the case is replayed while shrinking. The bags hold only scalars; only a body needs a deep copy.
    const { path, query, headers, body } = fuzzCase.request;
    const request: RequestData = {
      path: { ...path },
      query: { ...query },
      headers: { ...headers },
      ...(body !== undefined ? { body: structuredClone(body) } : {}),
      ...(fuzzCase.request.styledQuery !== undefined ? { styledQuery: fuzzCase.request.styledQuery } : {}),
      ...(fuzzCase.request.rawBody !== undefined ? { rawBody: fuzzCase.request.rawBody } : {}),
      ...(fuzzCase.request.rawContentType !== undefined ? { rawContentType: fuzzCase.request.rawContentType } : {}),
    };
    const fixtures = this.run.fixturesOf?.(fuzzCase.api);
    const bindings: Record<string, ParamValue | undefined> = fixtures?.bindings(fuzzCase, fresh) ?? {};
    for (const param of model.params) {
      const bag = request[param.in === 'header' ? 'headers' : param.in];
      // A case that varies the parameter itself (a clientToken's edge values) has it as it is, or not at all.
      if (param.name === fuzzCase.varies) continue;
      if (
        Object.hasOwn(bindings, param.name) &&
        isBoundParam(this.options.plugins?.(fuzzCase.api), param) &&
        !Object.hasOwn(bag, param.name) &&
        bindings[param.name] !== undefined
      )
        setOwn(bag, param.name, bindings[param.name]!);
      // A documented query parameter the config feeds (client-session's clientToken) carries the credential, so the
      // validators judge the request as it is sent.
      const fed =
        param.in === 'query'
          ? credentials.find(
              (credential) =>
                credential.in === 'query' && credential.name === param.name && credential.value !== undefined,
            )
          : undefined;
      if (fed) setOwn(request.query, param.name, fed.value!);
    }
    for (const header of model.apiKeyHeaders) {
      if (fuzzCase.anonymous || fuzzCase.omit?.includes(header) || Object.hasOwn(request.headers, header)) continue;
      const fed = credentials.find(
        (credential) =>
          credential.in === 'header' &&
          credential.name.toLowerCase() === header.toLowerCase() &&
          credential.value !== undefined,
      );
      setOwn(request.headers, header, fed?.value ?? placeholderApiKey);
    }
    if (fixtures && isPlainObject(request.body) && !fuzzCase.keepPath) {
      const body = request.body;
      const before = request.rawBody === undefined ? undefined : JSON.stringify(body);
      fixtures.bindBody(model, request, fresh);
      // A replay's saved bytes hold the old run's URL: the body bound afresh goes out encoded from its value.
      if (before !== undefined && JSON.stringify(body) !== before) {
        delete request.rawBody;
        delete request.rawContentType;
      }
    }
    return request;
  }

  /** `varied`: a parameter the case sets itself; no credential is put there. */
  toSent(
    target: ApiTarget,
    model: OperationModel,
    request: RequestData,
    anonymous = false,
    varied?: string,
  ): SentRequest {
    // A parameter with a style of its own (OpenAPI 3.1 section 4.8.12.4) goes out in it (styledWire); the others
    // as their text, as they always did.
    const styled = (where: 'path' | 'query' | 'header', name: string, value: ParamValue) => {
      const param = model.params.find(
        (candidate) =>
          candidate.in === where &&
          (where === 'header' ? candidate.name.toLowerCase() === name.toLowerCase() : candidate.name === name),
      );
      return param && styledWire(param, value);
    };
    const path = model.pathTemplate.replace(/\{([^}]+)\}/g, (_match, name: string) => {
      const value = request.path[name] ?? '';
      const wire = value === '' ? undefined : styled('path', name, value);
      if (pathSegmentProblem(typeof wire === 'string' ? wire : value) !== undefined)
        throw new UnsendablePath(refusedSegment(`${model.operationId}'s ${name}`, value));
      return typeof wire === 'string' ? wire : encodeURIComponent(String(value));
    });
    // Styled query parameters' pairs, percent-encoded already: appended as they are.
    const styledPairs: [string, string][] = [];
    const plainQuery: [string, string][] = [];
    for (const name in request.query) {
      const wire = styled('query', name, request.query[name]!);
      if (Array.isArray(wire)) styledPairs.push(...wire);
      else plainQuery.push([name, String(request.query[name])]);
    }
    // A replay's styled pairs, as the saved request sent them (RequestData.styledQuery).
    const extra = [queryText(styledPairs), request.styledQuery ?? ''].filter((part) => part !== '').join('&');
    // The URL parser's, with the query appended; a base and a path it would leave as they are are joined as strings.
    let url: string;
    if (isHref(target.baseUrl) && hrefPath.test(path) && !dotSegment.test(path)) {
      const query = new URLSearchParams(plainQuery).toString();
      const search = [query, extra].filter((part) => part !== '').join('&');
      url = search !== '' ? `${target.baseUrl}${path}?${search}` : `${target.baseUrl}${path}`;
    } else {
      const parsed = new URL(target.baseUrl + path);
      for (const [name, value] of plainQuery) parsed.searchParams.append(name, value);
      if (extra !== '') parsed.search = parsed.search === '' ? extra : `${parsed.search.slice(1)}&${extra}`;
      url = parsed.toString();
    }
    const headers: [string, string][] = [];
    for (const name in request.headers) {
      const wire = styled('header', name, request.headers[name]!);
      headers.push([name, typeof wire === 'string' ? wire : String(request.headers[name])]);
    }
    const encoded =
      request.rawBody !== undefined
        ? {
            contentType: request.rawContentType ?? model.body?.contentType ?? 'application/json',
            body: request.rawBody,
          }
        : request.body === undefined
          ? undefined
          : encodeBody(model.body?.contentType ?? 'application/json', request.body, model.body?.form);
    if (encoded) headers.push(['content-type', encoded.contentType]);
    // The other credentials (a bearer token, a query or cookie key); the apiKey headers were bound, or left out on purpose.
    // Anonymous (ignored_auth): none of them, except one that feeds a documented parameter (a clientToken).
    const rest = this.credentialsOf(target).filter(
      (credential) =>
        credential.value !== undefined &&
        !(
          credential.in === 'header' &&
          model.apiKeyHeaders.some((header) => header.toLowerCase() === credential.name.toLowerCase())
        ) &&
        (!anonymous || feedsParameter(model, credential)) &&
        !(varied !== undefined && credential.scheme === undefined && credential.name === varied),
    );
    const placed = rest.length === 0 ? { url, headers } : withCredentials({ url, headers }, rest, target.baseUrl);
    const placeholders = anonymous ? [] : this.placeholdersFor(target, model);
    if (placeholders.length > 0) Object.assign(placed, withPlaceholders(placed, placeholders));
    return {
      method: model.method,
      url: placed.url,
      headers: placed.headers,
      ...(encoded ? { body: encoded.body } : {}),
    };
  }

  /** What an anonymous request leaves out, for a finding's message: the apiKey headers, else the schemes' names. */
  credentialNames(target: ApiTarget, model: OperationModel): string {
    if (model.apiKeyHeaders.length > 0) return model.apiKeyHeaders.join(', ');
    const schemes = [
      ...new Set(
        this.credentialsOf(target).flatMap((credential) =>
          credential.scheme !== undefined && !feedsParameter(model, credential) ? [credential.scheme] : [],
        ),
      ),
    ];
    return schemes.length > 0 ? `credentials (${schemes.join(', ')})` : 'credentials';
  }

  /** Only for the run's own mock or sandbox: a --base-url gets no credential the user did not set. */
  private placeholdersFor(target: ApiTarget, model: OperationModel): ApiCredential[] {
    if (this.options.embedded !== true) return [];
    const key = `${target.api}\u0000${model.operationId}`;
    let found = this.placeholders.get(key);
    if (found === undefined) {
      const security = target.contract.requests.get(model.operationId)?.security ?? [];
      // Not what the case itself decides: the apiKey headers bind() sets (or leaves out on purpose), and credentials
      // that are documented parameters, which the generators fill (or drop, in a negative case).
      const same = (a: string, b: string, where: string) =>
        where === 'query' ? a === b : a.toLowerCase() === b.toLowerCase();
      found = mockPlaceholders(security, this.credentialsOf(target)).filter(
        (credential) =>
          !(
            credential.in === 'header' && model.apiKeyHeaders.some((header) => same(header, credential.name, 'header'))
          ) &&
          !model.checkedParams.some(
            (param) => param.in === credential.in && same(param.name, credential.name, param.in),
          ),
      );
      this.placeholders.set(key, found);
    }
    return found;
  }

  credentialsOf(target: ApiTarget): ApiCredential[] {
    return this.options.credentials?.[target.api] ?? [];
  }
}

/** A credential that is a documented parameter of the operation (client-session's clientToken), not a scheme's. */
function feedsParameter(model: OperationModel, credential: ApiCredential): boolean {
  return (
    credential.scheme === undefined &&
    model.params.some(
      (param) => param.in === credential.in && param.name.toLowerCase() === credential.name.toLowerCase(),
    )
  );
}

const hrefs = new Map<string, boolean>();
/** A path the URL parser leaves as it is: no character it would percent-encode, no `.` or `..` segment to resolve. */
const hrefPath = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/;
const dotSegment = /\/(?:\.|%2e){1,2}(?:\/|$)/i;

/**
 * Whether a base URL (no trailing slash) is already what the URL parser makes of it, a path following it included:
 * then joining strings gives new URL(base + path).href, without parsing each request's URL.
 */
function isHref(base: string): boolean {
  let known = hrefs.get(base);
  if (known === undefined) {
    const probe = '/contracts-probe';
    // A `?` or `#` in the base (an empty query or fragment survives --base-url's checks) would swallow the path.
    known =
      !base.includes('?') &&
      !base.includes('#') &&
      URL.canParse(base + probe) &&
      new URL(base + probe).href === base + probe;
    hrefs.set(base, known);
  }
  return known;
}
