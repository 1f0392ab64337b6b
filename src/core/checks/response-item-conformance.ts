// response_schema_conformance for a sequential media type (OpenAPI 3.2 section 4.14.3): each item of the body (a
// JSON Lines line, a JSON text sequence record, a server-sent event) validates against the Media Type Object's
// `itemSchema`; each finding names its item. Its instancePath reads the stream as the array of its items (the OAI
// media type registry's SSE entry: "a complete event stream can be modeled as if it were a JSON array"), so
// `/1/id` is the `id` of the second item. The proxy judges the same items as they flow (stream/judge-items.ts).
import type { Finding } from '../finding.js';
import { sequenceItems } from '../stream/sequence-items.js';
import { judgeItem } from '../stream/judge-items.js';
import { finding, type CheckContext } from './check-context.js';

/** Whether the documented media type is a sequence with an itemSchema, and there is a body to read. */
export const judgesItems = (context: CheckContext) =>
  context.media?.items !== undefined &&
  context.exchange.itemsJudged !== true &&
  context.body.kind !== 'empty' &&
  context.body.kind !== 'too-large';

/** The findings of every item of the body (response_schema_conformance calls this when judgesItems). */
export function itemFindings(context: CheckContext): Finding[] {
  const items = context.media!.items!;
  const findings: Finding[] = [];
  for (const item of sequenceItems(items.format, context.exchange.body))
    for (const judged of judgeItem(context.contract, items, item))
      findings.push(finding(context, 'response_schema_conformance', judged));
  return findings;
}
