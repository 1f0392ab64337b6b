// The distinct failures a fuzz run found: one per check, operation, status and finding (numbers and quoted values
// aside), each with its curl line and reproduction script; a later, smaller reproduction replaces an earlier one; at
// most maxFailures kept, the rest counted.
import type { Finding } from '../core/finding.js';
import { curlLine, type SentRequest } from './curl-line.js';
import type { ApiTarget, CaseResult, ExecutorOptions, FuzzFailure, Sent, VariedParam } from './executor.js';
import { answerOf } from './failure-answer.js';
import type { FuzzCase } from './fuzz-case.js';
import { reproScript } from './repro-script.js';
import type { RequestBinder } from './request-binding.js';

export const maxFailures = 200;

export class FailureBook {
  readonly failures = new Map<string, FuzzFailure>();

  constructor(
    private readonly options: Pick<ExecutorOptions, 'seed' | 'redact'>,
    private readonly binder: RequestBinder,
  ) {}

  /** Whether this finding, on this answer, is a failure the run has already. */
  knows(finding: Finding, sent: Sent): boolean {
    return this.failures.has(failureKey(finding, sent));
  }

  /** The failures of a result not seen before in this run (by check, operation, status and finding). */
  newFailures(target: ApiTarget, result: CaseResult): FuzzFailure[] {
    // Known ones are left out before anything is built: a sequence asks this of every step that broke a rule, and a
    // failure's reproduction script walks the whole trail.
    return result.findings
      .filter((finding) => !this.knows(finding, result.sent))
      .map((finding) => this.failureOf(target, result.case, result.sent, finding));
  }

  failureOf(
    target: ApiTarget,
    fuzzCase: Pick<FuzzCase, 'phase' | 'note' | 'varies' | 'trail'>,
    sent: Sent,
    finding: Finding,
  ): FuzzFailure {
    const key = failureKey(finding, sent);
    const varied = fuzzCase.varies === undefined ? undefined : variedParam(sent.sent, fuzzCase.varies);
    const credentials = this.binder
      .credentialsOf(target)
      .filter((credential) => !(credential.scheme === undefined && credential.name === fuzzCase.varies));
    const id = shortHash(`${this.options.seed}\u0000${key}`);
    const trail = fuzzCase.trail ?? [];
    const script = reproScript({
      api: target.api,
      failure: {
        id,
        check: finding.check,
        operation: finding.operation,
        status: sent.exchange.status,
        seed: this.options.seed,
        message: finding.message,
      },
      finding,
      trail,
      last: { request: sent.sent, status: sent.exchange.status, json: sent.json },
      operations: target.contract.operations,
      models: target.models,
      baseUrl: target.baseUrl,
      credentials,
      ...(varied ? { varied } : {}),
    });
    return {
      id,
      key,
      api: target.api,
      operation: finding.operation,
      check: finding.check,
      status: sent.exchange.status,
      message: finding.message,
      phase: fuzzCase.phase,
      note: fuzzCase.note,
      // A parameter the case varied holds the case's value, not the credential's: shown as it was sent.
      curl: curlLine(sent.sent, credentials, varied),
      seed: this.options.seed,
      request: sent.sent,
      answer: answerOf(sent.exchange, this.options.redact),
      ...(varied ? { varied } : {}),
      script,
      steps: trail.length + 1,
    };
  }

  /** Keeps every failure of a result not seen before in this run. */
  keepNew(target: ApiTarget, result: CaseResult): void {
    for (const failure of this.newFailures(target, result)) this.keep(failure);
  }

  /** Distinct failures left out once `maxFailures` were kept: a hostile target cannot grow the report without end. */
  omitted = 0;

  /** Keeps a failure (a later, smaller reproduction of the same failure replaces an earlier one). */
  keep(failure: FuzzFailure): void {
    if (!this.failures.has(failure.key) && this.failures.size >= maxFailures) {
      this.omitted++;
      return;
    }
    this.failures.set(failure.key, failure);
  }
}

/** What makes a failure distinct: its check, operation, status and finding (numbers and quoted values aside). */
function failureKey(finding: Finding, sent: Sent): string {
  return [finding.check, finding.operation, sent.exchange.status, normalize(finding.message)].join('\u0000');
}

/** A finding's message without the values that vary from case to case, so one bug is one failure. */
function normalize(message: string): string {
  return message.replace(/"[^"]*"/g, '"…"').replace(/\d+/g, 'N');
}

function shortHash(text: string): string {
  // FNV-1a, 32 bits: stable across runs and platforms, enough to tell a run's failures apart.
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

/** Where and as what a request carried the parameter a case varied (none: the case left it out). */
function variedParam(request: SentRequest, name: string): VariedParam {
  const query = new URL(request.url).searchParams.get(name);
  if (query !== null) return { name, in: 'query', value: query };
  const header = request.headers.find(([candidate]) => candidate.toLowerCase() === name.toLowerCase());
  return header ? { name, in: 'header', value: header[1] } : { name, in: 'query' };
}
