// Which of an API's documented statuses (OpenAPI 3.1 section 4.8.16, Responses Object: "200", "4XX", "default") the
// generic conformance pass saw answered, for the one line it prints at its end. A range counts when an answer falls
// in it; `default` when an answer matched no other key of the operation.
import { statusMatches } from '../../core/link-graph.js';

export interface StatusCount {
  documented: number;
  seen: number;
  /** `operationId status` of each documented status not seen, in document order. */
  notSeen: string[];
}

export class StatusTally {
  private readonly seen = new Map<string, Set<number>>();

  constructor(private readonly documented: ReadonlyMap<string, readonly string[]>) {}

  record(operationId: string, status: number): void {
    let statuses = this.seen.get(operationId);
    if (statuses === undefined) this.seen.set(operationId, (statuses = new Set()));
    statuses.add(status);
  }

  count(): StatusCount {
    const result: StatusCount = { documented: 0, seen: 0, notSeen: [] };
    for (const [operationId, keys] of this.documented) {
      const answers = [...(this.seen.get(operationId) ?? [])];
      for (const key of keys) {
        result.documented++;
        const hit =
          key === 'default'
            ? answers.some((status) => !keys.some((other) => other !== 'default' && statusMatches(other, status)))
            : answers.some((status) => statusMatches(key, status));
        if (hit) result.seen++;
        else result.notSeen.push(`${operationId} ${key}`);
      }
    }
    return result;
  }
}

/** The line for the user: how many documented statuses were seen, and the first few that were not. */
export function statusLine(count: StatusCount, shown = 8): string {
  const head = `documented statuses seen: ${count.seen} of ${count.documented}`;
  if (count.notSeen.length === 0) return head;
  const more = count.notSeen.length > shown ? ` and ${count.notSeen.length - shown} more` : '';
  return `${head}; not seen: ${count.notSeen.slice(0, shown).join(', ')}${more}`;
}
