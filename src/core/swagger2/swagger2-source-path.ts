// Where a node of the converted OpenAPI 3.0 document was written in the Swagger 2.0 one, so a finding names the
// user's line (`file:line` of the 2.0 construct). The conversion rules mapped back (Swagger 2.0 and OpenAPI 3.0.3):
// `#/definitions`, `#/parameters`, `#/responses`, `#/securityDefinitions` became `#/components/schemas`,
// `…/parameters`, `…/responses`, `…/securitySchemes`; a parameter's `type`/`items`/… moved into its `schema`; an
// `in: body` parameter became the operation's `requestBody` (its `schema` under each media type), `in: formData`
// parameters the properties of a form `requestBody`; a response's `schema` moved under `content/<media type>`;
// `host`, `basePath` and `schemes` became `servers`.
import { resolvePointer, type JsonPath } from '../source-locator.js';
import { componentKeys, sanitisedName } from './sanitised-names.js';

type Node = Record<string, unknown>;

export function swagger2SourcePath(source: Node, converted: Node): (path: JsonPath) => JsonPath {
  const names = componentKeys(source);
  const map = (steps: string[]): JsonPath => {
    if (steps[0] === 'components') return fromComponent(source, converted, names, steps);
    if (steps[0] === 'servers') return [source.host !== undefined ? 'host' : 'basePath'];
    if (steps[0] === 'paths' && steps.length >= 3) return fromPathItem(source, converted, steps);
    return steps;
  };
  return (path) => withIndexes(source, map(path.map(String)));
}

/** Steps into a list as numbers, as every other path names them. */
function withIndexes(source: Node, path: JsonPath): JsonPath {
  let node: unknown = source;
  return path.map((step) => {
    const list = Array.isArray(node);
    node = node !== null && typeof node === 'object' ? (node as Node)[String(step)] : undefined;
    return list && /^\d+$/.test(String(step)) ? Number(step) : step;
  });
}

function fromComponent(source: Node, converted: Node, names: ReturnType<typeof componentKeys>, steps: string[]) {
  const [, kind, name, ...rest] = steps;
  if (kind === undefined || name === undefined) return sourceSection(kind);
  switch (kind) {
    case 'schemas':
      return ['definitions', sanitisedName(names.definitions, name), ...rest];
    case 'parameters':
      return ['parameters', sanitisedName(names.parameters, name), ...fromParameter(rest)];
    case 'responses':
      return ['responses', sanitisedName(names.responses, name), ...fromResponse(rest)];
    case 'securitySchemes':
      return ['securityDefinitions', sanitisedName(names.securityDefinitions, name), ...fromSecurityScheme(rest)];
    case 'requestBodies':
      return sharedRequestBody(source, converted, name, rest);
    default:
      return [];
  }
}

function sourceSection(kind: string | undefined): JsonPath {
  const sections: Record<string, string> = {
    schemas: 'definitions',
    parameters: 'parameters',
    responses: 'responses',
    securitySchemes: 'securityDefinitions',
  };
  return kind !== undefined && sections[kind] !== undefined ? [sections[kind]] : [];
}

/** A non-body parameter: 3.0 `schema/…` was the parameter's own `type`, `items`…; `style`/`explode` its format. */
function fromParameter(rest: string[]): string[] {
  if (rest[0] === 'schema') return rest.slice(1);
  if (rest[0] === 'style' || rest[0] === 'explode') return ['collectionFormat'];
  return rest;
}

/** A response: `content/<mt>/schema/…` was `schema/…`; `content/<mt>/example` was `examples/<mt>`. */
function fromResponse(rest: string[]): string[] {
  if (rest[0] === 'content') {
    const [, mediaType, key, ...more] = rest;
    if (key === 'schema') return ['schema', ...more];
    if (key === 'example' || key === 'examples')
      return mediaType === undefined ? ['examples'] : ['examples', mediaType];
    return ['schema'];
  }
  if (rest[0] === 'headers' && rest.length >= 3) return ['headers', rest[1]!, ...fromParameter(rest.slice(2))];
  return rest;
}

/** 2.0 has one flow per scheme: `flows/<flow>/scopes` was `scopes`, `…/authorizationUrl` was `authorizationUrl`. */
function fromSecurityScheme(rest: string[]): string[] {
  if (rest[0] === 'flows') return rest.slice(2);
  return rest;
}

function fromPathItem(source: Node, converted: Node, steps: string[]): JsonPath {
  const [, route, second, ...rest] = steps as [string, string, string, ...string[]];
  if (second === 'parameters') return fromParameterList(source, [route], rest);
  const operation = ['paths', route, second];
  const [key, ...more] = rest;
  if (key === 'parameters') return fromParameterList(source, [route, second], more);
  if (key === 'responses' && more.length >= 1)
    return [...operation, 'responses', more[0]!, ...fromResponse(more.slice(1))];
  if (key === 'requestBody') {
    const body = resolvePointer(converted, `/${['paths', route, second, 'requestBody'].map(escape).join('/')}`) as Node;
    if (typeof body?.$ref === 'string') return fromBodyRef(source, converted, body.$ref, more);
    return fromRequestBody(source, route, second, more);
  }
  return steps;
}

/** Converted parameter `i` is the i-th 2.0 parameter that stayed a parameter (not body, not formData). */
function fromParameterList(source: Node, at: string[], rest: string[]): JsonPath {
  const [index, ...more] = rest;
  const list = ['paths', ...at, 'parameters'];
  if (index === undefined) return list;
  const kept = parametersOf(source, at).filter((p) => !becameBody(p.parameter));
  const found = kept[Number(index)];
  if (found === undefined) return list;
  return [...found.at, ...(isRef(found.raw) ? [] : fromParameter(more))];
}

/** The 2.0 parameter of an operation (then of its path item) a requestBody came from, and the path inside it. */
function fromRequestBody(source: Node, route: string, method: string, rest: string[]): JsonPath {
  const all = [...parametersOf(source, [route, method]), ...parametersOf(source, [route])];
  const body = all.find((p) => p.parameter.in === 'body');
  const [content, , key, ...more] = rest;
  if (body !== undefined) {
    if (content === 'content' && key === 'schema') return [...body.at, 'schema', ...more];
    return body.at;
  }
  const form = all.filter((p) => p.parameter.in === 'formData');
  if (form.length === 0) return ['paths', route, method];
  // `schema/properties/<name>/…` was the formData parameter `<name>` (its `type`, `items`… on the parameter).
  if (content === 'content' && key === 'schema' && more[0] === 'properties' && more[1] !== undefined) {
    const named = form.find((p) => p.parameter.name === more[1]);
    if (named !== undefined) return [...named.at, ...(isRef(named.raw) ? [] : more.slice(2))];
  }
  if (content === 'content' && key === undefined && form.length > 0) {
    const consumes = (resolvePointer(source, `/paths/${escape(route)}/${method}`) as Node)?.consumes;
    if (consumes !== undefined) return ['paths', route, method, 'consumes'];
  }
  return form[0]!.at;
}

/** A requestBody the converter shared under `#/components/requestBodies/<name>`. */
function fromBodyRef(source: Node, converted: Node, ref: string, rest: string[]): JsonPath {
  const name = ref.replace('#/components/requestBodies/', '');
  return sharedRequestBody(source, converted, name, rest);
}

/** A shared requestBody: the `#/parameters/<name>` body parameter, else the first operation that uses it. */
function sharedRequestBody(source: Node, converted: Node, name: string, rest: string[]): JsonPath {
  const parameter = (source.parameters as Node | undefined)?.[name] as Node | undefined;
  if (parameter?.in === 'body') {
    const [content, , key, ...more] = rest;
    return content === 'content' && key === 'schema' ? ['parameters', name, 'schema', ...more] : ['parameters', name];
  }
  const target = `#/components/requestBodies/${name}`;
  for (const [route, item] of Object.entries((converted.paths as Node | undefined) ?? {})) {
    for (const [method, operation] of Object.entries((item as Node) ?? {})) {
      if (((operation as Node)?.requestBody as Node | undefined)?.$ref === target)
        return fromRequestBody(source, route, method, rest);
    }
  }
  return ['parameters'];
}

interface SourceParameter {
  /** Path in the 2.0 document: `paths/<route>[/<method>]/parameters/<i>`, or `parameters/<name>` for a body a
   * `$ref` names (its schema is there). */
  at: string[];
  raw: unknown;
  parameter: Node;
}

/** The parameters listed at `paths/<route>[/<method>]`, each with the parameter a `$ref` names. */
function parametersOf(source: Node, at: string[]): SourceParameter[] {
  const list = resolvePointer(source, `/paths/${at.map(escape).join('/')}/parameters`);
  if (!Array.isArray(list)) return [];
  return list.map((raw, index) => {
    const local = ['paths', ...at, 'parameters', String(index)];
    if (isRef(raw)) {
      const target = resolvePointer(source, (raw as Node).$ref as string);
      const name = /^#\/parameters\/(.+)$/.exec((raw as Node).$ref as string)?.[1];
      const refAt = name !== undefined && (target as Node)?.in === 'body' ? ['parameters', unescape(name)] : local;
      return { at: refAt, raw, parameter: (target as Node) ?? {} };
    }
    return { at: local, raw, parameter: (raw as Node) ?? {} };
  });
}

function becameBody(parameter: Node): boolean {
  return parameter.in === 'body' || parameter.in === 'formData';
}

function isRef(value: unknown): boolean {
  return value !== null && typeof value === 'object' && typeof (value as Node).$ref === 'string';
}

function escape(step: string): string {
  return step.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescape(step: string): string {
  return decodeURIComponent(step).replace(/~1/g, '/').replace(/~0/g, '~');
}
