// Whether each operation got at least one valid request, and if not, why. An operation whose every generated request
// broke the spec (a `format: date` field filled with "a", before formats were generated) was judged on its negative
// cases alone, and its positive checks were settled as "the sequence never reached it": the user could not tell that
// nothing valid was ever sent. A check that was not exercised has not passed, and the user is told what was missing.
import type { FuzzCase } from './fuzz-case.js';
import type { Violation } from './request-model.js';

export class ValidRequests {
  private readonly valid = new Set<string>();
  /** Per operation, the first way a case meant to be valid broke the spec. */
  private readonly broken = new Map<string, string>();

  /** A case the validators judged before sending: one meant to be valid that broke the spec says why. */
  judged(api: string, operation: string, fuzzCase: FuzzCase, valid: boolean, broken: readonly Violation[]): void {
    const id = `${api}\u0000${operation}`;
    if (valid || fuzzCase.intent === 'negative' || fuzzCase.anonymous || this.broken.has(id)) return;
    const first = broken[0];
    if (first === undefined) return;
    // A body's violation is a pointer into it (`/dueDate must match format "date"`), a parameter's names it.
    const what = first.message.startsWith('/') ? `${first.where}${first.message}` : `${first.where}: ${first.message}`;
    this.broken.set(id, `${what}, in ${fuzzCase.note}`);
  }

  /** A valid request was sent to the operation and answered. */
  sent(api: string, operation: string): void {
    this.valid.add(`${api}\u0000${operation}`);
  }

  /** Why no valid request reached `operation`, or undefined when one did. */
  missing(api: string, operation: string): string | undefined {
    const id = `${api}\u0000${operation}`;
    if (this.valid.has(id)) return undefined;
    const why = this.broken.get(id);
    return `no valid request to ${operation} could be generated${why === undefined ? '' : ` (${why})`}: not tested`;
  }
}
