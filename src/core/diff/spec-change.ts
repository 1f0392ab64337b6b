// One classified difference between two versions of a spec: data, like a lint problem or a finding.
import type { JsonPath } from '../source-locator.js';
import type { DiffLevel, DiffRuleId } from './diff-rules.js';

export interface SpecChange {
  rule: DiffRuleId;
  level: DiffLevel;
  /** What changed, for a person: `/currencyCode: enum gained "XTS2"`. */
  message: string;
  /** The exchanges it touches: `GET /client-session response 200 application/json`. */
  operations: string[];
  /** HEAD for what is there now, BASE for what was removed. */
  side: 'base' | 'head';
  file: string;
  line: number;
  column: number;
  /** JSON path in that side's document. */
  path: JsonPath;
}
