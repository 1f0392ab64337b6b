// read_after_write: what a PATCH or PUT answered 2xx for shows in the next read of the same resource (RFC 9110
// §9.3.4 PUT: the state is replaced by the enclosed representation; RFC 5789 §2 PATCH: the changes are applied
// atomically; RFC 7396 merge patch). No false positive by construction: only top-level fields the request set are
// compared; the resource's id field (the path names the item: a server may ignore a body's id or rename), a field
// the spec marks readOnly or writeOnly (OpenAPI 3.1 §4.8.24 Schema Object, JSON Schema validation §9.4), a null (a merge patch's removal), and a field the write's own answer shows with another value or
// leaves out (the server changed or hid it) are never judged.
import { isDeepStrictEqual } from 'node:util';
import { isPlainObject } from '../../fuzz-case.js';
import { described, lifecycleFinding, type LifecycleRule } from '../lifecycle-rule.js';

export const readAfterWrite: LifecycleRule = {
  name: 'read_after_write',
  statement:
    'The top-level fields a PATCH or PUT answered 2xx for set (and its answer, if it has one, shows with the same value) have that value in the next read of the same resource; the id field, readOnly, writeOnly and null fields excepted.',
  plan: ({ resource, unaddressable }) =>
    [...new Set([...resource.update, ...resource.replace])].map((operationId) => ({
      operationId,
      ...(resource.read.length === 0
        ? {
            missing: `no operation reads a ${resource.name} by its id: add a GET on ${resource.itemPath ?? 'its item path'}`,
          }
        : unaddressable
          ? { missing: unaddressable }
          : {}),
    })),
};

export interface WriteEvidence {
  write: string;
  read: string;
  path: Readonly<Record<string, unknown>>;
  idParameter: string | undefined;
  /** The body the write sent. */
  sent: unknown;
  /** The write's answer parsed as JSON (undefined: no JSON body, a 204). */
  answered: unknown;
  /** The read's answer parsed as JSON. */
  read_: unknown;
  /** Fields never judged: the schema's readOnly and writeOnly properties. */
  excepted: ReadonlySet<string>;
}

/** The fields the rule can judge: what the write set and its answer (if any) confirms. */
export function judgedFields(evidence: Pick<WriteEvidence, 'sent' | 'answered' | 'excepted'>): string[] {
  const { sent, answered, excepted } = evidence;
  if (!isPlainObject(sent)) return [];
  return Object.keys(sent).filter((field) => {
    if (excepted.has(field) || sent[field] === null || sent[field] === undefined) return false;
    if (!isPlainObject(answered)) return answered === undefined;
    return Object.hasOwn(answered, field) && isDeepStrictEqual(answered[field], sent[field]);
  });
}

export function judgeReadAfterWrite(evidence: WriteEvidence) {
  const { write, read, path, idParameter, sent, read_ } = evidence;
  const fields = judgedFields(evidence);
  const body = sent as Record<string, unknown>;
  const shown = isPlainObject(read_) ? read_ : {};
  return (
    fields
      .filter((field) => !(Object.hasOwn(shown, field) && isDeepStrictEqual(shown[field], body[field])))
      // A value of another JSON type (`"5"` for 5) breaks the read's schema: response_schema_conformance's finding.
      .filter((field) => !Object.hasOwn(shown, field) || jsonType(shown[field]) === jsonType(body[field]))
      .map((field) =>
        lifecycleFinding(
          'read_after_write',
          write,
          `${write} on ${described(path, idParameter)} set ${field} to ${short(body[field])} and answered 2xx, but the next ${read} shows ${Object.hasOwn(shown, field) ? short(shown[field]) : 'no such field'}`,
          {
            instancePath: `/${field.replaceAll('~', '~0').replaceAll('/', '~1')}`,
            expected: body[field],
            actual: shown[field] ?? null,
          },
        ),
      )
  );
}

function jsonType(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
