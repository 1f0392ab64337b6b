// The failures a fuzz run found, grouped by cause: one group per operation, check, status and kind of value that
// triggered it (value-kind.ts), never per field or per server message (a NUL reaching a database through 40 fields
// is one cause, not 40). Every group keeps its occurrences' count and one complete reproduction (curl line and
// script); a later, smaller reproduction replaces an earlier one. Only the notes of other occurrences are capped.
import type { Finding } from '../core/finding.js';
import { curlLine, type SentRequest } from './curl-line.js';
import type {
  ApiTarget,
  CaseResult,
  ExecutorOptions,
  FuzzFailure,
  SavedSequence,
  Sent,
  VariedParam,
} from './executor.js';
import { answerOf } from './failure-answer.js';
import type { FuzzCase } from './fuzz-case.js';
import { reproScript, type TrailStep } from './repro-script.js';
import type { RequestBinder } from './request-binding.js';
import { caseKind, ordinaryValues } from './value-kind.js';

/** How a run's failures are grouped, as the reports say it. */
export const groupedBy = 'grouped by operation, check, status and value kind';

/** Most notes of other occurrences kept per group (each group keeps its count and one reproduction whatever). */
export const maxNotes = 5;

type CaseFacts = Pick<FuzzCase, 'phase' | 'note' | 'varies' | 'trail' | 'kind' | 'anonymous' | 'page'> & {
  request?: FuzzCase['request'];
};

export class FailureBook {
  readonly failures = new Map<string, FuzzFailure>();

  constructor(
    private readonly options: Pick<ExecutorOptions, 'seed' | 'redact' | 'plugins'>,
    private readonly binder: RequestBinder,
  ) {}

  /** Occurrences per group, counted once per judged request (see count), kept or not yet. */
  private readonly counts = new Map<string, { count: number; notes: string[] }>();

  /** Whether this finding, on this answer to this case, is in a group the run has already. */
  knows(finding: Finding, sent: Sent, fuzzCase: CaseFacts): boolean {
    return this.failures.has(failureKey(finding, sent, fuzzCase));
  }

  /** The failures of a result in no group seen before in this run. */
  newFailures(target: ApiTarget, result: CaseResult): FuzzFailure[] {
    // Known ones are left out before anything is built: a sequence asks this of every step that broke a rule, and a
    // failure's reproduction script walks the whole trail.
    const seen = new Set<string>();
    return result.findings
      .filter((finding) => {
        const key = failureKey(finding, result.sent, result.case);
        if (this.failures.has(key) || seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      .map((finding) => this.failureOf(target, result.case, result.sent, finding));
  }

  /** Counts a judged request once in each group its findings fall in (the executor calls it once per judgement). */
  count(result: CaseResult): void {
    const keys = new Set(result.findings.map((finding) => failureKey(finding, result.sent, result.case)));
    for (const key of keys) {
      const tally = this.counts.get(key) ?? { count: 0, notes: [] };
      tally.count++;
      if (tally.notes.length < maxNotes && !tally.notes.includes(result.case.note)) tally.notes.push(result.case.note);
      this.counts.set(key, tally);
    }
  }

  /**
   * The kept failures, each with its group's count (at least 1: a sequence's own findings are not judged apart). A
   * kind's group is folded into the group of ordinary values of its operation, check and status when there is one:
   * a failure that ordinary values meet too was not triggered by the kind (a delete that always answers 200).
   */
  all(): FuzzFailure[] {
    const groups = new Map<string, { failure: FuzzFailure; count: number; notes: string[] }>();
    for (const failure of this.failures.values()) {
      const tally = this.counts.get(failure.key) ?? { count: 1, notes: [] };
      const ordinary = this.failures.get(ordinaryKey(failure));
      const into = ordinary?.key ?? failure.key;
      const group = groups.get(into) ?? { failure: ordinary ?? failure, count: 0, notes: [] };
      group.count += Math.max(tally.count, 1);
      for (const note of [failure.note, ...tally.notes])
        if (group.notes.length < maxNotes && !group.notes.includes(note)) group.notes.push(note);
      groups.set(into, group);
    }
    return [...groups.values()].map(({ failure, count, notes }) => {
      const others = notes.filter((note) => note !== failure.note);
      return { ...failure, count, ...(others.length > 0 ? { others } : {}) };
    });
  }

  failureOf(target: ApiTarget, fuzzCase: CaseFacts, sent: Sent, finding: Finding): FuzzFailure {
    const key = failureKey(finding, sent, fuzzCase);
    const kind = caseKind(fuzzCase, finding.check);
    const varied = fuzzCase.varies === undefined ? undefined : variedParam(sent.sent, fuzzCase.varies);
    const credentials = this.binder
      .credentialsOf(target)
      .filter((credential) => !(credential.scheme === undefined && credential.name === fuzzCase.varies));
    const id = shortHash(`${this.options.seed}\u0000${key}`);
    const trail = fuzzCase.trail ?? [];
    const ids = this.options.plugins?.(target.api)?.scriptIds;
    const script = reproScript({
      api: target.api,
      ...(ids ? { ids } : {}),
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
      last: {
        request: sent.sent,
        status: sent.exchange.status,
        json: sent.json,
        ...(fuzzCase.page ? { page: fuzzCase.page } : {}),
      },
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
      kind,
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

  /**
   * The stateful walk's keepNew: an ignored_auth failure on an instance it made, with the create first, replaces one
   * of the same group kept without it (a probe on an item another phase made): only the former reproduces from a
   * fresh start, where that item does not exist.
   */
  keepNewWithTrail(target: ApiTarget, result: CaseResult): void {
    const trail = result.case.trail ?? [];
    const replayable = (failure: FuzzFailure, finding: Finding): FuzzFailure =>
      trail.length === 0 ? failure : { ...failure, sequence: sequenceOf(trail, result, finding) };
    const fresh = this.newFailures(target, result);
    for (const failure of fresh)
      this.keep(
        replayable(
          failure,
          result.findings.find(
            (finding) => finding.check === failure.check && finding.operation === failure.operation,
          )!,
        ),
      );
    if (trail.length === 0) return;
    for (const finding of result.findings) {
      if (finding.check !== 'ignored_auth') continue;
      const kept = this.failures.get(failureKey(finding, result.sent, result.case));
      if (kept !== undefined && (kept.steps ?? 1) <= 1)
        this.keep(replayable(this.failureOf(target, result.case, result.sent, finding), finding));
    }
  }

  /**
   * Keeps a failure (a later, smaller reproduction of the same group replaces an earlier one). Groups are not capped:
   * there are at most operations × checks × statuses × kinds, linear in the spec, and each needs its reproduction.
   */
  keep(failure: FuzzFailure): void {
    this.failures.set(failure.key, failure);
  }
}

/** What --replay sends again from a fresh start (replay-sequence.ts): every step, the failing one last. */
function sequenceOf(trail: readonly TrailStep[], result: CaseResult, finding: Finding): SavedSequence {
  const { sent } = result;
  const page = result.case.page;
  const last: TrailStep = {
    request: sent.sent,
    status: sent.exchange.status,
    json: sent.json,
    ...(page ? { page } : {}),
  };
  return { steps: [...trail, last], finding };
}

/**
 * A failure's group: its operation, check, status and value kind. Never a field's name nor the finding's message
 * (both vary per field: one NUL bug was 2,244 "distinct failures" for about 25 causes).
 */
function failureKey(finding: Finding, sent: Sent, fuzzCase: CaseFacts): string {
  return [finding.operation, finding.check, sent.exchange.status, caseKind(fuzzCase, finding.check)].join('\u0000');
}

/** The key of the group of ordinary values of a failure's operation, check and status. */
function ordinaryKey(failure: FuzzFailure): string {
  return [failure.operation, failure.check, failure.status, ordinaryValues].join('\u0000');
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
