// Operational faults (the tool could not do its job) as error classes with stable codes.
// A spec or response that breaks a rule is never an exception: it is a finding or a lint problem.

export type ContractsErrorCode =
  | 'SPEC_NOT_FOUND'
  | 'SPEC_NOT_READABLE'
  | 'SPEC_NOT_YAML'
  | 'SPEC_NOT_OPENAPI_31'
  | 'SPEC_BROKEN_REF'
  | 'SPEC_SCHEMA_INVALID'
  | 'UNKNOWN_API'
  | 'PORT_IN_USE'
  | 'MOCK_START_FAILED'
  | 'TARGET_UNREACHABLE'
  | 'TARGET_RATE_LIMITED'
  | 'INTERNAL'
  | 'INTERRUPTED'
  | 'INPUT_NOT_READABLE'
  | 'REPORT_NOT_WRITABLE'
  | 'FILE_NOT_WRITABLE'
  | 'USAGE'
  | 'CONFIG_NOT_FOUND'
  | 'CONFIG_INVALID'
  | 'NO_CHECK_SEQUENCE'
  | 'CREDENTIAL_MISSING'
  | 'INVALID_EXCHANGE';

export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

export class ContractsError extends Error {
  readonly code: ContractsErrorCode;
  readonly location: SourceLocation | undefined;

  constructor(code: ContractsErrorCode, message: string, location?: SourceLocation) {
    super(message);
    this.name = 'ContractsError';
    this.code = code;
    this.location = location;
  }

  /** One line for a person: `file:line:col: message` when the place is known. */
  toLine(): string {
    const where = this.location ? `${this.location.file}:${this.location.line}:${this.location.column}: ` : '';
    return `${where}${this.message}`;
  }
}

/**
 * A stack overflow (V8's RangeError "Maximum call stack size exceeded") as the one line every command gives for a
 * spec nested too deeply, when one got past the load-time check (nesting-depth.ts): never "internal error".
 */
export function nestingTooDeep(error: unknown): ContractsError | undefined {
  if (!(error instanceof RangeError) || !/call stack/i.test(error.message)) return undefined;
  return new ContractsError(
    'SPEC_SCHEMA_INVALID',
    'nesting too deep to follow (the call stack ran out): no command reads a spec nested this deeply',
  );
}
