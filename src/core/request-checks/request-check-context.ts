// What every request check is given: the request, its operation and what the spec says a request to it carries.
import type { CompiledRequest } from '../compile-request.js';
import type { Contract } from '../compile-contract.js';
import type { CheckName, Finding } from '../finding.js';
import type { OperationSpec } from '../operation-index.js';

/** One request as it went on the wire: what a request check looks at. */
export interface RequestRecord {
  method: string;
  /** The concrete path, without query string. */
  path: string;
  /** The raw query string, without the `?` ('' when none). */
  query: string;
  /** Request headers; names in any case. */
  headers: Record<string, string | undefined>;
  /** The raw body text; '' when there is none. */
  body: string;
  /** Set when the body was over this many bytes and was not kept (`body` is then ''). */
  bodyTooLarge?: number;
  /** Set when the body's bytes were not valid UTF-8. */
  bodyNotUtf8?: boolean;
}

export interface RequestCheckContext {
  contract: Contract;
  request: RequestRecord;
  operationId: string;
  compiled: CompiledRequest;
  /** The operation matched: its template's matcher gives the path parameters as sent. */
  operation: OperationSpec;
  /** Path parameters, percent-decoded. */
  pathParams: Record<string, string>;
  query: URLSearchParams;
}

export interface RequestCheck {
  name: CheckName;
  applies(context: RequestCheckContext): boolean;
  run(context: RequestCheckContext): Finding[];
}

export function requestFinding(
  context: RequestCheckContext,
  check: CheckName,
  fields: Omit<Finding, 'check' | 'operation' | 'severity' | 'instancePath'> &
    Partial<Pick<Finding, 'severity' | 'instancePath'>>,
): Finding {
  return { check, severity: 'error', operation: context.operationId, instancePath: '', ...fields };
}
