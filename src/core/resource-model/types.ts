// The resource model's shape: what build-resource-model.ts infers from a spec and explain-resource-model.ts prints.
// Plain data (JSON-serialisable, no functions), so the stateful walk and the stateful mock read the same value.
import type { HttpMethod } from '../operation-index.js';

/** What an operation does to its resource. */
export type Role = 'create' | 'read' | 'update' | 'replace' | 'delete' | 'list' | 'action';

/** How a PATCH body is read, from its request media type (RFC 7396 merge patch, RFC 6902 JSON Patch, plain JSON). */
export type PatchFormat = 'merge-patch' | 'json-patch' | 'json' | 'other';

/** One way a list declares its next page; a list may declare several (GitHub: a Link header and page numbers). */
export type Pagination =
  /** RFC 8288 `Link` response header, followed by its rel="next" target. */
  | { kind: 'link-header'; status: string }
  /** A cursor query parameter, fed from a field of the answer (undefined when the answer shows none). */
  | { kind: 'cursor'; parameter: string; nextField: string | undefined }
  /** Page numbers: `page` (1, 2, …), with the page size parameter when there is one. */
  | { kind: 'page'; parameter: string; sizeParameter: string | undefined }
  /** Offsets: `offset` advanced by the page size. */
  | { kind: 'offset'; parameter: string; sizeParameter: string | undefined };

/** One place a parameter's value can come from; `expression` is the OpenAPI runtime expression that reads it. */
export type BindingSource =
  /** An OpenAPI Link of the spec (https://spec.openapis.org/oas/v3.1.0#link-object). */
  | { kind: 'link'; operationId: string; status: string; link: string; expression: string }
  /** Inferred: a field of a create's (or a list's) answer body, at a JSON pointer. */
  | { kind: 'response-body' | 'list-item'; operationId: string; status: string; expression: string }
  /** Inferred: the `Location` header a create documents, matched against the resource's item path. */
  | { kind: 'location'; operationId: string; status: string; expression: string; template: string }
  /** Inferred: the value an earlier request was sent with (a PUT-create's own id, a parent id of a nested create). */
  | { kind: 'request-path'; operationId: string; expression: string };

export interface Binding {
  parameter: string;
  in: 'path' | 'query' | 'header';
  /** In the order to try them: links first; inference only for a parameter no link binds. */
  sources: BindingSource[];
  /** Why there is no source (empty `sources` only). */
  unbound?: string;
}

export interface ModelOperation {
  operationId: string;
  method: HttpMethod;
  path: string;
  /** The resource it acts on, and how; undefined when it fits no resource (`GET /search`). */
  resource: string | undefined;
  roles: Role[];
  /** Every alternative of its `security` (or the document's) needs a credential (an empty `{}` makes it optional). */
  secured: boolean;
  /** The documented 409, 410 and 412 responses: a repeated state change must get one of them. */
  conflicts: string[];
  /**
   * The answers documented for a missing resource (404, 410 or 4XX). Without one, use_after_free takes any 4xx after
   * a delete: the spec gives no other way to say "gone", and a 404 there would be undocumented.
   */
  gone: string[];
  /** The documented 2xx statuses. */
  success: string[];
  /** The 2xx statuses that document a `Location` header. */
  location: string[];
  /** PATCH only: how its request body is read, per request media type. */
  patchFormats: PatchFormat[];
  /** Lists only: the declared ways to the next page (empty: one page as far as the spec says). */
  pagination: Pagination[];
  /** Lists only: where the items are in its 2xx JSON answer (`''` the body itself, `/data`). */
  itemsPointer: string | undefined;
  bindings: Binding[];
}

export interface Resource {
  /** Unique in the model: the component schema the item answer `$ref`s, else the collection segment, singular. */
  name: string;
  /** The component schema its answers `$ref`, if any. */
  schema: string | undefined;
  /** `/users/{userId}/posts`, when the spec has that path (the item path without its last segment). */
  collectionPath: string | undefined;
  /** `/users/{userId}/posts/{postId}`; for a singleton (`/hooks/{hook_id}/config`), its own path. */
  itemPath: string | undefined;
  /** The item path's last parameter and the body field that carries the same value (undefined: no field found). */
  id: { parameter: string; field: string | undefined; rule: string } | undefined;
  /** The resource its path nests under, and the path parameter that binds it. */
  parent: { resource: string; parameter: string } | undefined;
  /** operationIds by role, in document order. */
  create: string[];
  read: string[];
  update: string[];
  replace: string[];
  delete: string[];
  list: string[];
  actions: string[];
}

export interface ResourceModel {
  resources: Resource[];
  /** Every operation of `paths`, in document order. */
  operations: ModelOperation[];
  /** Links that cannot be followed (from link-graph.ts), one line each. */
  problems: string[];
}
