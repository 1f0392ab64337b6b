// Where the walk reads an instance's id: the model's bindings (src/core/resource-model/bind-parameters.ts) for the
// id parameter of an operation on the item, in their order (link > response-body > list-item > location >
// request-path), restricted to sources on the create that made the instance: the walk never acts on an id it did
// not make. OpenAPI 3.1 §4.8.20.4 runtime expressions: `$response.body#/pointer`, `$request.path.name`,
// `$response.header.Location`.
import type { Binding, BindingSource } from '../../core/resource-model/types.js';
import { isPlainObject } from '../fuzz-case.js';
import type { ParamValue } from '../request-model.js';

/** What a create sent and got, as the expressions read it. */
export interface CreateEvidence {
  operationId: string;
  path: Readonly<Record<string, ParamValue>>;
  json: unknown;
  location: string | undefined;
}

/** The value at a JSON pointer (RFC 6901), or undefined. */
export function atPointer(value: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '#') return value;
  let node = value;
  for (const raw of pointer.replace(/^#/, '').split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(node) && /^\d+$/.test(key)) node = node[Number(key)];
    else if (isPlainObject(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/** The parameter's value a `Location` gives, matched against the item template's last segments. */
export function fromLocation(location: string, template: string, parameter: string): string | undefined {
  let pathname: string;
  try {
    pathname = new URL(location, 'http://base.invalid').pathname;
  } catch {
    return undefined;
  }
  const names: string[] = [];
  const pattern = template
    .split('/')
    .map((segment) => {
      const name = /^\{([^}]+)\}$/.exec(segment)?.[1];
      if (name === undefined) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(name);
      return '([^/]+)';
    })
    .join('/');
  const match = new RegExp(`${pattern}/?$`).exec(pathname);
  const at = names.indexOf(parameter);
  if (!match || at === -1) return undefined;
  try {
    return decodeURIComponent(match[at + 1]!);
  } catch {
    return match[at + 1];
  }
}

function evaluate(source: BindingSource, parameter: string, create: CreateEvidence): unknown {
  const { expression } = source;
  if (source.kind === 'location')
    return create.location === undefined ? undefined : fromLocation(create.location, source.template, parameter);
  const body = /^\$response\.body(#.*)?$/.exec(expression);
  if (body) return atPointer(create.json, body[1] ?? '');
  const path = /^\$request\.path\.(.+)$/.exec(expression);
  if (path) return create.path[path[1]!];
  return undefined;
}

/** The first scalar a binding's sources on `create` give, or undefined with nothing usable. */
export function boundValue(binding: Binding, create: CreateEvidence): ParamValue | undefined {
  for (const source of binding.sources) {
    if (source.operationId !== create.operationId) continue;
    const value = evaluate(source, binding.parameter, create);
    if ((typeof value === 'string' && value !== '' && value.length <= 256) || typeof value === 'number') return value;
  }
  return undefined;
}
