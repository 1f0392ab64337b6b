// The resource model as lines a user reads (`contracts fuzz --explain-links`): per resource, its operations by role
// and its pagination; per operation, where each parameter's value comes from, or why nothing gives it. Every name
// from the spec is printed through escapeLine: a spec cannot start a line of its own in the output.
import { escapeLine } from '../escape-line.js';
import type { Binding, BindingSource, ModelOperation, Pagination, Resource, ResourceModel } from './types.js';

export function explainResourceModel(model: ResourceModel): string[] {
  const byId = new Map(model.operations.map((operation) => [operation.operationId, operation]));
  const lines: string[] = [];
  for (const resource of model.resources) lines.push(...explainResource(resource, byId));
  const unowned = model.operations.filter((operation) => operation.resource === undefined);
  if (unowned.length > 0) lines.push(`not on any resource: ${unowned.map((operation) => shown(operation)).join(', ')}`);
  lines.push('');
  for (const operation of model.operations) {
    if (operation.bindings.length === 0) continue;
    lines.push(`${shown(operation)}`);
    for (const binding of operation.bindings) lines.push(`  ${explainBinding(binding)}`);
  }
  for (const problem of model.problems) lines.push(`link not followed: ${problem}`);
  return lines.map(escapeLine);
}

function explainResource(resource: Resource, byId: Map<string, ModelOperation>): string[] {
  const where = [
    resource.collectionPath ? `collection ${resource.collectionPath}` : undefined,
    resource.itemPath ? `item ${resource.itemPath}` : undefined,
  ].filter(Boolean);
  const lines = [
    `resource ${resource.name}${resource.schema && resource.schema !== resource.name ? ` (schema ${resource.schema})` : ''}: ${where.join(', ')}`,
  ];
  if (resource.parent)
    lines.push(`  nested under ${resource.parent.resource}, bound by {${resource.parent.parameter}}`);
  if (resource.id)
    lines.push(
      `  id: {${resource.id.parameter}} ${resource.id.field === undefined ? `matches no body field (${resource.id.rule})` : `= body field ${resource.id.field} (${resource.id.rule})`}`,
    );
  const roles = [
    ['create', resource.create],
    ['read', resource.read],
    ['update', resource.update],
    ['replace', resource.replace],
    ['delete', resource.delete],
    ['list', resource.list],
    ['action', resource.actions],
  ] as const;
  for (const [role, ids] of roles) {
    for (const id of ids) {
      const operation = byId.get(id)!;
      lines.push(`  ${role.padEnd(7)} ${shown(operation)}${operationNotes(role, operation)}`);
    }
  }
  if (roles.every(([, ids]) => ids.length === 0)) lines.push('  no operation');
  return lines;
}

function operationNotes(role: string, operation: ModelOperation): string {
  const notes: string[] = [];
  if (role === 'update' && operation.patchFormats.length > 0) notes.push(`body ${operation.patchFormats.join(' or ')}`);
  if (role === 'create' && operation.location.length > 0) notes.push(`Location on ${operation.location.join(', ')}`);
  if (role === 'list') {
    notes.push(
      operation.pagination.length === 0
        ? 'pages: none declared'
        : `pages: ${operation.pagination.map(explainPagination).join('; ')}`,
    );
    if (operation.itemsPointer !== undefined)
      notes.push(`items at ${operation.itemsPointer === '' ? 'the body' : operation.itemsPointer}`);
  }
  if (operation.conflicts.length > 0) notes.push(`conflicts ${operation.conflicts.join(', ')}`);
  notes.push(operation.secured ? 'secured' : 'no credentials needed');
  return ` · ${notes.join(' · ')}`;
}

function explainPagination(pagination: Pagination): string {
  switch (pagination.kind) {
    case 'link-header':
      return `Link header rel="next" (on ${pagination.status})`;
    case 'cursor':
      return `cursor parameter ${pagination.parameter} from ${pagination.nextField === undefined ? 'no answer field the spec shows' : `the answer's ${pagination.nextField}`}`;
    case 'page':
      return `page numbers in ${pagination.parameter}${pagination.sizeParameter ? ` (size ${pagination.sizeParameter})` : ''}`;
    case 'offset':
      return `offset in ${pagination.parameter}${pagination.sizeParameter ? ` (size ${pagination.sizeParameter})` : ''}`;
  }
}

function explainBinding(binding: Binding): string {
  const head = `${binding.parameter} (${binding.in})`;
  if (binding.sources.length === 0) return `${head}: unbound: ${binding.unbound ?? 'no source'}`;
  return `${head} ← ${binding.sources.map(explainSource).join(' | ')}`;
}

function explainSource(source: BindingSource): string {
  switch (source.kind) {
    case 'link':
      return `link ${source.link} of ${source.operationId} ${source.status}: ${source.expression}`;
    case 'request-path':
      return `inferred: as sent to ${source.operationId}: ${source.expression}`;
    case 'location':
      return `inferred: ${source.operationId} ${source.status} ${source.expression} as ${source.template}`;
    default:
      return `inferred: ${source.operationId} ${source.status} ${source.expression}`;
  }
}

function shown(operation: ModelOperation): string {
  return `${operation.operationId} (${operation.method.toUpperCase()} ${operation.path})`;
}
