// Every rule `contracts diff` applies, as one table (after oasdiff's checker/rules.go): id, level, the side of the
// exchange it concerns, and what it means for clients. `contracts diff --help` prints it; tests hold both to it.

export type DiffLevel = 'error' | 'warning' | 'info';
export type DiffDirection = 'request' | 'response' | 'api';

export interface DiffRule {
  id: string;
  level: DiffLevel;
  direction: DiffDirection;
  description: string;
}

export const diffRules = [
  { id: 'path-removed', level: 'error', direction: 'api', description: 'A path and every operation on it removed' },
  {
    id: 'operation-removed',
    level: 'error',
    direction: 'api',
    description: 'An operation removed from a path that remains',
  },
  { id: 'operation-added', level: 'info', direction: 'api', description: 'A new operation (or path)' },
  {
    id: 'webhook-removed',
    level: 'error',
    direction: 'api',
    description: 'A webhook (or one of its methods) removed: receivers stop getting what they handle',
  },
  { id: 'webhook-added', level: 'info', direction: 'api', description: 'A new webhook' },
  {
    id: 'operation-id-changed',
    level: 'warning',
    direction: 'api',
    description: 'operationId changed: generated client methods are renamed',
  },
  {
    id: 'request-security-added',
    level: 'error',
    direction: 'request',
    description: 'A security requirement a client did not have to meet before',
  },
  {
    id: 'request-security-removed',
    level: 'info',
    direction: 'request',
    description: 'A security requirement dropped or made an alternative',
  },
  {
    id: 'request-required-parameter-added',
    level: 'error',
    direction: 'request',
    description: 'A new required parameter or header',
  },
  {
    id: 'request-optional-parameter-added',
    level: 'info',
    direction: 'request',
    description: 'A new optional parameter or header',
  },
  {
    id: 'request-parameter-became-required',
    level: 'error',
    direction: 'request',
    description: 'An optional parameter or header became required',
  },
  {
    id: 'request-parameter-removed',
    level: 'warning',
    direction: 'request',
    description: 'A parameter is no longer documented: the server may ignore or refuse it',
  },
  {
    id: 'request-parameter-moved',
    level: 'error',
    direction: 'request',
    description: 'A parameter moved (its `in` changed, e.g. query to header)',
  },
  {
    id: 'request-body-became-required',
    level: 'error',
    direction: 'request',
    description: 'A request body became required, or a required body was added',
  },
  {
    id: 'request-body-removed',
    level: 'error',
    direction: 'request',
    description: 'The request body is no longer documented: a client that sends one may be refused',
  },
  {
    id: 'request-media-type-removed',
    level: 'error',
    direction: 'request',
    description: 'A request body media type is no longer accepted',
  },
  { id: 'request-media-type-added', level: 'info', direction: 'request', description: 'A new request body media type' },
  {
    id: 'request-property-required-added',
    level: 'error',
    direction: 'request',
    description: 'A body field became required (new or existing)',
  },
  { id: 'request-property-added', level: 'info', direction: 'request', description: 'A new optional body field' },
  {
    id: 'request-property-rejected',
    level: 'error',
    direction: 'request',
    description: 'A body field clients could send is now refused (additionalProperties: false)',
  },
  {
    id: 'request-property-undocumented',
    level: 'warning',
    direction: 'request',
    description: 'A body field is no longer documented: the server may ignore it',
  },
  {
    id: 'request-type-narrowed',
    level: 'error',
    direction: 'request',
    description: 'A request value accepts fewer types',
  },
  {
    id: 'request-enum-value-removed',
    level: 'error',
    direction: 'request',
    description: 'A request enum lost a value',
  },
  {
    id: 'request-max-lowered',
    level: 'error',
    direction: 'request',
    description: 'maximum, maxLength, maxItems or maxProperties lowered or added in a request',
  },
  {
    id: 'request-min-raised',
    level: 'error',
    direction: 'request',
    description: 'minimum, minLength, minItems or minProperties raised or added in a request',
  },
  {
    id: 'request-pattern-added',
    level: 'error',
    direction: 'request',
    description: 'A pattern added to or changed on a request string',
  },
  {
    id: 'request-constraint-added',
    level: 'error',
    direction: 'request',
    description: 'Another request constraint added (format, multipleOf, uniqueItems, const)',
  },
  {
    id: 'request-default-changed',
    level: 'warning',
    direction: 'request',
    description: 'The default of a parameter or body field changed: omitting it means something else',
  },
  {
    id: 'request-constraint-relaxed',
    level: 'info',
    direction: 'request',
    description: 'A request value accepts more (type, enum value, bound, pattern relaxed)',
  },
  {
    id: 'request-composition-narrowed',
    level: 'error',
    direction: 'request',
    description: 'An allOf/anyOf/oneOf change makes the request accept fewer instances',
  },
  {
    id: 'request-composition-widened',
    level: 'info',
    direction: 'request',
    description: 'An allOf/anyOf/oneOf change makes the request accept more instances',
  },
  {
    id: 'response-status-removed',
    level: 'error',
    direction: 'response',
    description: 'A documented response status removed',
  },
  { id: 'response-status-added', level: 'info', direction: 'response', description: 'A new response status' },
  {
    id: 'response-header-removed',
    level: 'error',
    direction: 'response',
    description: 'A required response header is no longer documented: a client that reads it breaks',
  },
  {
    id: 'response-optional-header-removed',
    level: 'warning',
    direction: 'response',
    description: 'An optional response header is no longer documented',
  },
  {
    id: 'response-header-became-optional',
    level: 'error',
    direction: 'response',
    description: 'A required response header became optional: a client that reads it may not get it',
  },
  { id: 'response-header-added', level: 'info', direction: 'response', description: 'A new response header' },
  {
    id: 'response-media-type-removed',
    level: 'error',
    direction: 'response',
    description: 'A response media type removed',
  },
  { id: 'response-media-type-added', level: 'info', direction: 'response', description: 'A new response media type' },
  {
    id: 'response-property-removed',
    level: 'error',
    direction: 'response',
    description: 'A required response field removed',
  },
  {
    id: 'response-optional-property-removed',
    level: 'warning',
    direction: 'response',
    description: 'An optional response field removed',
  },
  {
    id: 'response-property-became-optional',
    level: 'error',
    direction: 'response',
    description: 'A response field that was required may now be absent',
  },
  {
    id: 'response-property-became-nullable',
    level: 'error',
    direction: 'response',
    description: 'A response value that was never null may now be null',
  },
  {
    id: 'response-type-changed',
    level: 'error',
    direction: 'response',
    description: 'A response value may now have a type it never had',
  },
  {
    id: 'response-enum-value-added',
    level: 'warning',
    direction: 'response',
    description: 'A response enum gained a value clients have not seen',
  },
  {
    id: 'response-constraint-relaxed',
    level: 'warning',
    direction: 'response',
    description: 'A response bound, pattern or format relaxed: clients may meet values they never saw',
  },
  {
    id: 'response-guarantee-removed',
    level: 'error',
    direction: 'response',
    description:
      'A response no longer promises a structure clients read by: contains, dependentRequired, dependentSchemas, if/then/else, propertyNames, unevaluated*, prefixItems, patternProperties, a const',
  },
  { id: 'response-property-added', level: 'info', direction: 'response', description: 'A new response field' },
  {
    id: 'response-constraint-tightened',
    level: 'info',
    direction: 'response',
    description: 'A response accepts fewer values (enum value removed, bound tightened)',
  },
  {
    id: 'response-composition-widened',
    level: 'warning',
    direction: 'response',
    description: 'An allOf/anyOf/oneOf change lets the response take shapes clients never saw',
  },
  {
    id: 'response-composition-narrowed',
    level: 'info',
    direction: 'response',
    description: 'An allOf/anyOf/oneOf change makes the response take fewer shapes',
  },
  {
    id: 'schema-change-undecided',
    level: 'warning',
    direction: 'api',
    description: 'A schema change (oneOf with overlapping branches, not, if/then, …) whose effect could not be decided',
  },
] as const satisfies readonly DiffRule[];

export type DiffRuleId = (typeof diffRules)[number]['id'];

const byId = new Map<string, DiffRule>(diffRules.map((rule) => [rule.id, rule]));

export function diffRule(id: DiffRuleId): DiffRule {
  return byId.get(id)!;
}

export function isDiffRuleId(id: string): id is DiffRuleId {
  return byId.has(id);
}
