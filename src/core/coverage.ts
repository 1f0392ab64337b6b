// Contract coverage: how much of the documented contract a run exercised. Pure: callers feed it what they saw
// (requests and responses, already matched to operations); it answers with the figures, as data.
import { valueAt } from './checks/payment-method-placement.js';
import type { Contract } from './compile-contract.js';
import { headerValue } from './exchange.js';
import { parseMediaType, selectMediaType } from './media-type.js';
import { responseFor } from './operation-index.js';

export interface OperationCoverage {
  api: string;
  operationId: string;
  /** Requests seen (or responses, when only responses were). */
  calls: number;
  /** Documented status keys ("200", "4XX", "default") and whether a response took each. */
  statuses: Record<string, boolean>;
  /** Documented response media types, per status key, and whether a response used each. */
  mediaTypes: Record<string, Record<string, boolean>>;
  /** Documented parameters (`query per_page`) and whether a request carried each. */
  parameters: Record<string, boolean>;
  /** Requests seen whole (0 when the run saw only responses: `parameters` then says nothing). */
  requestsSeen: number;
  /** Statuses answered that the operation does not document. */
  undocumentedStatuses: number[];
  /** For a response with a placement rule (client-session): how often each branch was taken. */
  placement?: Record<string, number>;
}

export interface CoverageReport {
  operations: { documented: number; exercised: number };
  /** Documented operation × status pairs, and those a response took; `percent` is what --min-coverage compares. */
  statusPairs: { documented: number; seen: number; percent: number };
  perOperation: OperationCoverage[];
}

interface ResponseObservation {
  side: 'response';
  api: string;
  operationId: string;
  /** The call was counted with its request. */
  counted: boolean;
  status: number;
  /** The documented status key the status fell under; absent for an undocumented status. */
  documented?: string;
  /** The media type, when it is one the documented response lists. */
  mediaType?: string;
  placement?: string;
}

/** What one exchange adds to coverage, as plain data (it crosses threads): see Coverage.record. */
export type CoverageObservation =
  | { side: 'request'; api: string; operationId: string; parameters: string[] }
  | ResponseObservation;

export class Coverage {
  private readonly byOperation = new Map<string, OperationCoverage>();
  private readonly contracts: { api: string; contract: Contract }[] = [];

  constructor(contracts: readonly { api: string; contract: Contract }[]) {
    for (const { api, contract } of contracts) this.addContract(api, contract);
  }

  /** Another API's contract, for a run that loads its specs after it starts counting. */
  addContract(api: string, contract: Contract): void {
    this.contracts.push({ api, contract });
    for (const [operationId, operation] of contract.byOperationId) {
      const statuses: Record<string, boolean> = {};
      const mediaTypes: Record<string, Record<string, boolean>> = {};
      for (const response of operation.responses) {
        statuses[response.spec.status] = false;
        if (response.mediaTypes.length > 0)
          mediaTypes[response.spec.status] = Object.fromEntries(
            response.mediaTypes.map((media) => [media.mediaType, false]),
          );
      }
      const parameters = Object.fromEntries(
        (contract.requests.get(operationId)?.params ?? []).map((param) => [
          `${param.model.in} ${param.model.name}`,
          false,
        ]),
      );
      this.byOperation.set(key(api, operationId), {
        api,
        operationId,
        calls: 0,
        statuses,
        mediaTypes,
        parameters,
        requestsSeen: 0,
        undocumentedStatuses: [],
      });
    }
  }

  /**
   * The counts as they stand, without the contracts: a run that judges exchanges elsewhere (worker threads, each
   * with its own compiled contracts) counts their observations here, in the order of the exchanges.
   */
  static counting(perOperation: readonly OperationCoverage[]): Coverage {
    const coverage = new Coverage([]);
    for (const entry of structuredClone(perOperation))
      coverage.byOperation.set(key(entry.api, entry.operationId), entry);
    return coverage;
  }

  /** A request matched to an operation: counts the call and the parameters it carried. */
  recordRequest(
    api: string,
    operationId: string,
    request: { query: string; headers: Record<string, string | undefined> },
  ): void {
    const observation = this.observeRequest(api, operationId, request);
    if (observation) this.record(observation);
  }

  /**
   * A response matched to an operation. `counted`: the request was already recorded (recordRequest), so the call
   * is not counted twice. `json`: the parsed body, when the caller has it (for the placement branch).
   */
  recordResponse(
    api: string,
    operationId: string,
    response: { status: number; headers: Record<string, string | undefined>; json?: unknown },
    counted = false,
  ): void {
    const observation = this.observeResponse(api, operationId, response, counted);
    if (observation) this.record(observation);
  }

  /** What a request adds to the counts, as data (nothing yet counted); undefined for an operation not counted. */
  observeRequest(
    api: string,
    operationId: string,
    request: { query: string; headers: Record<string, string | undefined> },
  ): CoverageObservation | undefined {
    const entry = this.byOperation.get(key(api, operationId));
    if (!entry) return undefined;
    const query = new URLSearchParams(request.query);
    const parameters: string[] = [];
    for (const name of Object.keys(entry.parameters)) {
      const [where, param] = [name.slice(0, name.indexOf(' ')), name.slice(name.indexOf(' ') + 1)];
      if (
        where === 'path' ||
        (where === 'query' && query.has(param)) ||
        (where === 'header' && headerValue(request.headers, param.toLowerCase()) !== undefined)
      )
        parameters.push(name);
    }
    return { side: 'request', api, operationId, parameters };
  }

  /** What a response adds to the counts, as data (nothing yet counted); undefined for an operation not counted. */
  observeResponse(
    api: string,
    operationId: string,
    response: { status: number; headers: Record<string, string | undefined>; json?: unknown },
    counted = false,
  ): CoverageObservation | undefined {
    const entry = this.byOperation.get(key(api, operationId));
    const operation = this.contractOf(api)?.byOperationId.get(operationId);
    if (!entry || !operation) return undefined;
    const observation: ResponseObservation = { side: 'response', api, operationId, counted, status: response.status };
    const documented = responseFor(operation.spec, response.status);
    if (!documented) return observation;
    observation.documented = documented.status;
    // The documented key the Content-Type selects (media-type.ts), as the media types are counted by key.
    const media = selectMediaType(
      operation.responses.find((candidate) => candidate.spec === documented)?.mediaTypes ?? [],
      parseMediaType(headerValue(response.headers, 'content-type')),
    );
    const types = entry.mediaTypes[documented.status];
    if (types && media && media.mediaType in types) observation.mediaType = media.mediaType;
    if (media?.placement && 'json' in response) {
      const present = media.placement.segments.map((segments) => valueAt(response.json, segments) !== undefined);
      observation.placement = present.every(Boolean)
        ? 'both'
        : present[0]
          ? `${media.placement.accepted[0]} only`
          : present.some(Boolean)
            ? `${media.placement.accepted[present.indexOf(true)]} only`
            : 'neither';
    }
    return observation;
  }

  /** Counts what observeRequest or observeResponse saw (here, or in another thread with the same contracts). */
  record(observation: CoverageObservation): void {
    const entry = this.byOperation.get(key(observation.api, observation.operationId));
    if (!entry) return;
    if (observation.side === 'request') {
      entry.calls++;
      entry.requestsSeen++;
      for (const name of observation.parameters) entry.parameters[name] = true;
      return;
    }
    if (!observation.counted) entry.calls++;
    if (observation.documented === undefined) {
      if (!entry.undocumentedStatuses.includes(observation.status) && entry.undocumentedStatuses.length < 20)
        entry.undocumentedStatuses.push(observation.status);
      return;
    }
    entry.statuses[observation.documented] = true;
    if (observation.mediaType !== undefined) entry.mediaTypes[observation.documented]![observation.mediaType] = true;
    if (observation.placement !== undefined) {
      entry.placement ??= {};
      entry.placement[observation.placement] = (entry.placement[observation.placement] ?? 0) + 1;
    }
  }

  /** Whether a response for this operation's media type carries a placement rule (so the caller parses the body). */
  wantsBody(api: string, operationId: string): boolean {
    const operation = this.contractOf(api)?.byOperationId.get(operationId);
    return (
      operation?.responses.some((response) => response.mediaTypes.some((media) => media.placement !== undefined)) ??
      false
    );
  }

  report(): CoverageReport {
    const perOperation = [...this.byOperation.values()];
    const documented = perOperation.reduce((sum, entry) => sum + Object.keys(entry.statuses).length, 0);
    const seen = perOperation.reduce((sum, entry) => sum + Object.values(entry.statuses).filter(Boolean).length, 0);
    return {
      operations: {
        documented: perOperation.length,
        exercised: perOperation.filter((entry) => entry.calls > 0).length,
      },
      statusPairs: { documented, seen, percent: documented === 0 ? 100 : Math.floor((seen / documented) * 1000) / 10 },
      perOperation: structuredClone(perOperation),
    };
  }

  private contractOf(api: string): Contract | undefined {
    return this.contracts.find((candidate) => candidate.api === api)?.contract;
  }
}

/** The summary a person reads: totals, then one line per operation. */
export function coverageLines(report: CoverageReport): string[] {
  const lines = [
    `coverage: ${report.operations.exercised}/${report.operations.documented} operations exercised; ${report.statusPairs.seen}/${report.statusPairs.documented} documented operation × status pairs seen (${report.statusPairs.percent}%)`,
  ];
  for (const entry of report.perOperation) {
    const statuses = Object.entries(entry.statuses)
      .map(([status, seen]) => `${seen ? '✓' : '·'}${status}`)
      .join(' ');
    const media = Object.entries(entry.mediaTypes).flatMap(([status, types]) =>
      Object.entries(types)
        .filter(([, seen]) => seen)
        .map(([type]) => `${status} ${type}`),
    );
    const params = Object.entries(entry.parameters);
    const placement = entry.placement
      ? `; placement: ${Object.entries(entry.placement)
          .map(([branch, count]) => `${branch} ×${count}`)
          .join(', ')}`
      : '';
    lines.push(
      `  ${entry.calls > 0 ? '✓' : '·'} ${entry.api} ${entry.operationId} (${entry.calls} calls): ${statuses}` +
        (media.length > 0 ? `; media types seen: ${media.join(', ')}` : '') +
        (params.length > 0 && entry.requestsSeen > 0
          ? `; parameters used: ${params.filter(([, used]) => used).length}/${params.length}`
          : '') +
        (entry.undocumentedStatuses.length > 0
          ? `; undocumented statuses: ${entry.undocumentedStatuses.join(', ')}`
          : '') +
        placement,
    );
  }
  return lines;
}

function key(api: string, operationId: string): string {
  return `${api}\u0000${operationId}`;
}
