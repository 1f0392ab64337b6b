// hook_addressable: a created webhook is addressed by owner, repository and hook_id (webhooks seed: "What the
// service does", endpoints 7 and 8): the 201 body carries an integer id, and reading that id answers 200 with it.
import type { Finding } from '../../../core/finding.js';
import { behaviourFinding } from './behaviour-finding.js';
import { idOf } from './ids.js';

export function hookAddressable(operation: string, createdId: number, readStatus: number, read: unknown): Finding[] {
  if (readStatus !== 200)
    return [
      behaviourFinding(
        'hook_addressable',
        operation,
        `reading the hook just created (id ${createdId}) answered ${readStatus}, not 200`,
        { expected: 200, actual: readStatus },
      ),
    ];
  const id = idOf(read);
  if (id === createdId) return [];
  return [
    behaviourFinding(
      'hook_addressable',
      operation,
      `reading hook ${createdId} returned a webhook with id ${id ?? 'none'}`,
      { instancePath: '/id', expected: createdId, actual: id ?? null },
    ),
  ];
}
