// The stateful engine: the stateless engine (answer-request.ts) plus the spec's resource model
// (src/core/resource-model/) and a store (store.ts). Everything a request needs is worked out here, once, at load:
// which resource and role each operation has, each resource's representation schema, its id's schema and the path
// parameters that scope its collection (its parents' ids).
import { compileContract, type Contract } from '../../core/compile-contract.js';
import { resolvePointer } from '../../core/source-locator.js';
import type { LoadedSpec } from '../../core/load-spec.js';
import { buildResourceModel } from '../../core/resource-model/build-resource-model.js';
import type { ModelOperation, Resource, ResourceModel } from '../../core/resource-model/types.js';
import { deref } from '../../core/request-model.js';
import { pathToPointer } from '../../core/source-locator.js';
import type { Engine } from './answer-request.js';
import { compiledResponse } from './documented-answer.js';
import { basePaths } from './route.js';
import { representationOf, type Representation } from './server-fields.js';
import { defaultStoreBounds, ResourceStore, type StoreBounds } from './store.js';
import { successStatus } from './statuses.js';

export interface ResourceFacts {
  resource: Resource;
  representation: Representation;
  /** The one property an answer wraps the resource in (`article`), when it does: see enveloped(). */
  envelope?: string;
  /** The schema of the id: its body field's, else its path parameter's. */
  idSchema: Record<string, unknown> | undefined;
  /** The path parameters that scope its collection (its parents' ids), in path order. */
  scope: string[];
  /** Its item path with the parameters' values (a create's Location), the template split once at load. */
  itemPathOf: ((values: Record<string, string>) => string) | undefined;
}

export interface Stateful {
  engine: Engine;
  model: ResourceModel;
  /** `filtered`: a search of the resource's items (adoptOperations), answered filtered by its query. */
  operations: Map<string, { operation: ModelOperation; resource: ResourceFacts; filtered?: boolean }>;
  resources: Map<string, ResourceFacts>;
  store: ResourceStore;
  /** Ids drawn so far, per collection: the seed of the next (an id is never drawn twice, even after a delete). */
  drawn: Map<string, number>;
  now: () => string;
}

export interface StatefulOptions {
  bounds?: StoreBounds;
  /** Said once when the store first drops an item. */
  onEvict?: (message: string) => void;
  now?: () => string;
}

export function statefulEngine(spec: LoadedSpec, options: StatefulOptions = {}): Stateful {
  const contract = compileContract(spec, { lazy: true, lazyRequests: true });
  const engine: Engine = { contract, bases: basePaths(spec.document), answers: new Map() };
  const model = buildResourceModel(spec.document);
  const resources = new Map<string, ResourceFacts>();
  for (const resource of model.resources) resources.set(resource.name, resourceFacts(contract, resource));
  const operations: Stateful['operations'] = new Map();
  for (const operation of model.operations) {
    const facts = operation.resource === undefined ? undefined : resources.get(operation.resource);
    if (facts && operation.roles.length > 0) operations.set(operation.operationId, { operation, resource: facts });
  }
  adoptOperations(model, resources, operations);
  return {
    engine,
    model,
    operations,
    resources,
    store: new ResourceStore(options.bounds ?? defaultStoreBounds, options.onEvict),
    drawn: new Map(),
    now: options.now ?? clock(),
  };
}

/**
 * Two shapes the mock serves from the store that the model (which fuzz reads too) leaves apart, as Swagger's
 * Petstore has them:
 * - a PUT or PATCH on a collection path whose body names the item by its id field (`PUT /pet` with `{ "id": 10, … }`)
 *   replaces or updates that item (stateful-roles.ts takes the id from the body there);
 * - a list-only resource whose items are another resource's schema, at a literal path below that resource's
 *   collection (`GET /pet/findByStatus`), lists that resource's items, filtered by the query parameters that name
 *   one of their fields (list-page.ts): what a create stored, a search finds.
 */
function adoptOperations(
  model: ResourceModel,
  resources: Map<string, ResourceFacts>,
  operations: Stateful['operations'],
): void {
  for (const operation of model.operations) {
    if (operations.has(operation.operationId) || (operation.method !== 'put' && operation.method !== 'patch')) continue;
    const owner = [...resources.values()].find(
      (facts) => facts.resource.collectionPath === operation.path && facts.resource.id?.field !== undefined,
    );
    if (!owner) continue;
    const roles: ModelOperation['roles'] = [operation.method === 'put' ? 'replace' : 'update'];
    operations.set(operation.operationId, {
      operation: { ...operation, resource: owner.resource.name, roles },
      resource: owner,
    });
  }
  for (const [operationId, entry] of operations) {
    const searched = entry.resource.resource;
    if (!entry.operation.roles.includes('list') || searched.create.length > 0 || searched.itemPath !== undefined)
      continue;
    const owner = [...resources.values()].find(
      (facts) =>
        facts !== entry.resource &&
        facts.resource.schema !== undefined &&
        facts.resource.schema === searched.schema &&
        facts.resource.collectionPath !== undefined &&
        facts.scope.length === 0 &&
        searched.collectionPath?.startsWith(`${facts.resource.collectionPath}/`) === true,
    );
    if (owner)
      operations.set(operationId, {
        operation: { ...entry.operation, resource: owner.resource.name },
        resource: owner,
        filtered: true,
      });
  }
}

/**
 * Now as RFC 3339 text (`format: date-time`), made once per millisecond: a create under load asks many times a
 * millisecond, and formatting a Date was a twentieth of its time.
 */
export function clock(): () => string {
  let at = Number.NaN;
  let text = '';
  return () => {
    const time = Date.now();
    if (time !== at) {
      at = time;
      text = new Date(time).toISOString();
    }
    return text;
  };
}

function resourceFacts(contract: Contract, modelled: Resource): ResourceFacts {
  const document = contract.spec.document;
  const schema = answerSchema(contract, [...modelled.read, ...modelled.create, ...modelled.replace]);
  const { representation, envelope, resource } = enveloped(document, representationOf(document, schema), modelled);
  const field = resource.id?.field;
  const template = resource.itemPath ?? resource.collectionPath ?? '';
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  const scope = resource.itemPath && resource.id ? names.filter((name) => name !== resource.id!.parameter) : names;
  return {
    resource,
    representation,
    ...(envelope === undefined ? {} : { envelope }),
    idSchema:
      (field === undefined ? undefined : representation.properties.get(field)) ?? pathSchema(contract, resource),
    scope,
    itemPathOf: resource.itemPath === undefined ? undefined : pathFiller(resource.itemPath),
  };
}

/**
 * A representation wrapped in one property (`{ "article": { "slug": … } }`, as Rails and the RealWorld API answer):
 * the resource is what the property holds, stored unwrapped and wrapped again in every answer (stateful-roles.ts),
 * and its id field is the wrapped object's field of the path parameter's name, which the model (reading the
 * top level) could not find. Only where the model found no id field at the top level.
 */
function enveloped(
  document: unknown,
  representation: Representation,
  resource: Resource,
): { representation: Representation; envelope?: string; resource: Resource } {
  if (representation.properties.size !== 1 || (resource.id !== undefined && resource.id.field !== undefined))
    return { representation, resource };
  const [name, schema] = [...representation.properties][0]!;
  const inner = representationOf(document, schema);
  if (inner.properties.size === 0) return { representation, resource };
  const parameter = resource.id?.parameter;
  const field = parameter !== undefined && inner.properties.has(parameter) ? parameter : undefined;
  return {
    representation: inner,
    envelope: name,
    resource:
      resource.id && field !== undefined
        ? { ...resource, id: { ...resource.id, field, rule: "the wrapped object's field of that name" } }
        : resource,
  };
}

/**
 * `/notes/{noteId}` as a function of its parameters' values, each percent-encoded as a path segment (RFC 3986
 * section 3.3): the template is split here once, not matched again for each create.
 */
export function pathFiller(template: string): (values: Record<string, string>) => string {
  // Even places hold literal text, odd places parameter names: 'a/{x}/b' splits to ['a/', 'x', '/b'].
  const parts = template.split(/\{([^}]+)\}/);
  return (values) => {
    let path = parts[0]!;
    for (let index = 1; index < parts.length; index += 2)
      path += encodeURIComponent(values[parts[index]!] ?? '') + parts[index + 1]!;
    return path;
  };
}

/** The schema of the first of `operationIds`' success answers with a JSON schema. */
function answerSchema(contract: Contract, operationIds: readonly string[]): unknown {
  for (const operationId of operationIds) {
    const compiled = contract.byOperationId.get(operationId);
    const status = compiled && successStatus(compiled.spec);
    const response = compiled && status !== undefined ? compiledResponse(compiled, status) : undefined;
    const media = response?.mediaTypes.find((candidate) => candidate.json && candidate.schemaPath);
    if (media?.schemaPath) return resolvePointer(contract.spec.document, '#' + pathToPointer(media.schemaPath));
  }
  return undefined;
}

function pathSchema(contract: Contract, resource: Resource): Record<string, unknown> | undefined {
  const operationId = resource.read[0] ?? resource.delete[0] ?? resource.update[0];
  const compiled = operationId === undefined ? undefined : contract.byOperationId.get(operationId);
  if (!compiled) return undefined;
  const document = contract.spec.document;
  // OpenAPI 3.1 section 4.8.9: the Path Item's parameters, overridden by the operation's.
  for (const path of [compiled.spec.path, compiled.spec.itemPath]) {
    const parameters = (resolvePointer(document, '#' + pathToPointer(path)) as { parameters?: unknown })?.parameters;
    for (const entry of Array.isArray(parameters) ? parameters : []) {
      const parameter = deref(document, entry) as { name?: unknown; in?: unknown; schema?: unknown } | undefined;
      if (parameter?.in !== 'path' || parameter.name !== resource.id?.parameter) continue;
      const schema = deref(document, parameter.schema);
      return schema !== null && typeof schema === 'object' ? (schema as Record<string, unknown>) : undefined;
    }
  }
  return undefined;
}

/** The collection's key in the store: the resource and its parents' ids. */
export function collectionKey(facts: ResourceFacts, pathParams: Record<string, string>): string {
  return [facts.resource.name, ...facts.scope.map((name) => pathParams[name] ?? '')].join('/');
}
