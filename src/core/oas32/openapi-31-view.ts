// A 3.1 view of an OpenAPI 3.2 document, for the tools that know no 3.2 (Spectral's oas rules, swagger-parser's
// structural validation, openapi-typescript, Prism): the fields 3.2 adds are left out of the copy, so each tool judges
// or uses what 3.1 can say. What the view loses (each tool never sees it; our own code reads the 3.2 document):
// - Path Item `query` and `additionalOperations` (3.2 section 4.10): no types, no Prism route, no Spectral rule;
// - `in: querystring` parameters (section 4.12.2): left out of the operation's parameters;
// - a Media Type's `itemSchema`, `itemEncoding`, `prefixEncoding` (section 4.14): a stream's items are not typed;
// - `$self`, tags' `parent`/`kind`, a Server's `name`, the OAuth `deviceAuthorization` flow, a security scheme's
//   `oauth2MetadataUrl`/`deprecated`, `components.mediaTypes`, a Response's `summary`: annotations, or what 3.1 has
//   no word for. (An Example's `dataValue`/`serializedValue` and a Discriminator's `defaultMapping` stay: lint's
//   swagger-parser reports them as 3.1 would.)
// The copy is new: the caller's document is never changed.

const operationKeys = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => value !== null && typeof value === 'object' && !Array.isArray(value);

/** `value` without the keys named, when it is an object; anything else as it is. */
function without(value: unknown, keys: readonly string[]): unknown {
  if (!isNode(value)) return value;
  const out: Node = {};
  for (const [key, child] of Object.entries(value)) if (!keys.includes(key)) setOwn(out, key, child);
  return out;
}

function setOwn(target: Node, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function mapValues(value: unknown, each: (child: unknown) => unknown): unknown {
  if (!isNode(value)) return value;
  const out: Node = {};
  for (const [key, child] of Object.entries(value)) setOwn(out, key, each(child));
  return out;
}

const mediaTypeMap = (content: unknown) =>
  mapValues(content, (media) => without(media, ['itemSchema', 'itemEncoding', 'prefixEncoding']));

/** Whether a parameter (or a `$ref` to a component one) is a querystring parameter, which 3.1 has no `in` for. */
const isQuerystring = (root: Node, parameter: unknown): boolean => {
  if (!isNode(parameter)) return false;
  if (parameter.in === 'querystring') return true;
  const ref = parameter.$ref;
  const name = typeof ref === 'string' ? /^#\/components\/parameters\/([^/]+)$/.exec(ref)?.[1] : undefined;
  const target = name === undefined ? undefined : (root.components as Node | undefined)?.parameters;
  return isNode(target) && Object.hasOwn(target, name as string) && isNode(target[name as string])
    ? (target[name as string] as Node).in === 'querystring'
    : false;
};

function parameters(root: Node, list: unknown): unknown {
  if (!Array.isArray(list)) return list;
  return list.filter((parameter) => !isQuerystring(root, parameter));
}

function response(value: unknown): unknown {
  if (!isNode(value)) return value;
  const out = without(value, ['summary']) as Node;
  if (out.content !== undefined) out.content = mediaTypeMap(out.content);
  return out;
}

function operation(root: Node, value: unknown): unknown {
  if (!isNode(value)) return value;
  const out = { ...value };
  if (out.parameters !== undefined) out.parameters = parameters(root, out.parameters);
  if (isNode(out.requestBody) && out.requestBody.content !== undefined)
    out.requestBody = { ...out.requestBody, content: mediaTypeMap(out.requestBody.content) };
  if (out.responses !== undefined) out.responses = mapValues(out.responses, response);
  return out;
}

function pathItem(root: Node, value: unknown): unknown {
  if (!isNode(value)) return value;
  const out = without(value, ['query', 'additionalOperations']) as Node;
  for (const key of operationKeys) if (out[key] !== undefined) out[key] = operation(root, out[key]);
  if (out.parameters !== undefined) out.parameters = parameters(root, out.parameters);
  return out;
}

function securityScheme(value: unknown): unknown {
  if (!isNode(value)) return value;
  const out = without(value, ['oauth2MetadataUrl', 'deprecated']) as Node;
  if (isNode(out.flows)) out.flows = without(out.flows, ['deviceAuthorization']);
  return out;
}

function components(root: Node, value: unknown): unknown {
  if (!isNode(value)) return value;
  const out = without(value, ['mediaTypes', 'pathItems']) as Node;
  if (value.pathItems !== undefined) out.pathItems = mapValues(value.pathItems, (item) => pathItem(root, item));
  if (out.responses !== undefined) out.responses = mapValues(out.responses, response);
  if (out.parameters !== undefined)
    out.parameters = Object.fromEntries(
      Object.entries(out.parameters as Node).filter(([, p]) => !(isNode(p) && p.in === 'querystring')),
    );
  if (out.requestBodies !== undefined)
    out.requestBodies = mapValues(out.requestBodies, (body) =>
      isNode(body) && body.content !== undefined ? { ...body, content: mediaTypeMap(body.content) } : body,
    );
  if (out.securitySchemes !== undefined) out.securitySchemes = mapValues(out.securitySchemes, securityScheme);
  return out;
}

/** The document as OpenAPI 3.1.1 says it, without what only 3.2 can say (see the top of this file). */
export function openApi31View(document: Record<string, unknown>): Record<string, unknown> {
  const out = without(document, ['$self']) as Node;
  out.openapi = '3.1.1';
  if (Array.isArray(out.tags)) out.tags = out.tags.map((tag) => without(tag, ['parent', 'kind', 'summary']));
  if (Array.isArray(out.servers)) out.servers = out.servers.map((server) => without(server, ['name']));
  if (out.paths !== undefined) out.paths = mapValues(out.paths, (item) => pathItem(document, item));
  if (out.webhooks !== undefined) out.webhooks = mapValues(out.webhooks, (item) => pathItem(document, item));
  if (out.components !== undefined) out.components = components(document, out.components);
  return out;
}
