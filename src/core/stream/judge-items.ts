// One item of a sequential media type judged against its ItemContract: the same findings whether the item came in a
// whole body (validate, check) or off a stream as it flows (the proxy). Each message names the item: its index
// (from 0, as the instancePath's first step) and line, and for a server-sent event its data, shortened.
import type { Contract } from '../compile-contract.js';
import type { SchemaError } from '../compile-spec.js';
import { renderValue } from '../render-value.js';
import type { ItemContract } from './item-contract.js';
import type { SequenceItem } from './sequence-items.js';

export interface ItemFinding {
  instancePath: string;
  schemaPath?: string;
  message: string;
}

const noun = (items: ItemContract) => (items.format === 'sse' ? 'event' : 'item');

/** How a message names the item: "item 1 (line 2)", "event 1 (line 5, data {"id":"two"})". */
function itemName(items: ItemContract, item: SequenceItem): string {
  const where = `${noun(items)} ${item.index} (line ${item.line}`;
  if (items.format !== 'sse' || !('value' in item)) return `${where})`;
  const data = (item.value as { data?: unknown }).data;
  return typeof data === 'string' ? `${where}, data ${renderValue(data, 80)})` : `${where})`;
}

function fromError(prefix: string, name: string, error: SchemaError, under = ''): ItemFinding {
  const at = `${prefix}${under}${error.instancePath}`;
  return {
    instancePath: at,
    schemaPath: error.schemaPath,
    message: `${name}: ${under || error.instancePath ? `${under}${error.instancePath} ` : ''}${stripPath(error)}`,
  };
}

/** ajv's message without the instancePath our checks put first (compile-spec.ts writes "PATH must ..."). */
function stripPath(error: SchemaError): string {
  const path = error.instancePath || 'body';
  return error.message.startsWith(`${path} `) ? error.message.slice(path.length + 1) : error.message;
}

export function judgeItem(contract: Contract, items: ItemContract, item: SequenceItem): ItemFinding[] {
  const prefix = `/${item.index}`;
  const name = itemName(items, item);
  if ('error' in item) return [{ instancePath: prefix, message: `${name} ${item.error}` }];
  const findings: ItemFinding[] = [];
  const validate = items.validate;
  if (validate)
    for (const error of contract.check(validate, item.value).errors) findings.push(fromError(prefix, name, error));
  const data = (item.value as { data?: unknown }).data;
  if (items.validateData && typeof data === 'string') {
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      findings.push({ instancePath: `${prefix}/data`, message: `${name}: data is not JSON (its contentMediaType)` });
      return findings;
    }
    for (const error of contract.check(items.validateData, value).errors)
      findings.push(fromError(prefix, name, error, '/data'));
  }
  return findings;
}
