// The config is read once into a frozen Project (src/config/project.ts) that the commands pass down: no module keeps
// the config in state of its own, and nothing changes a Project or an ApiEntry after it is read. (It was a global,
// mutable registry, config/apis.ts, that useConfig() emptied and refilled with splice and delete.)
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { readProject } from '../../src/config/project.js';
import { root } from '../helpers/paths.js';

const src = path.join(root, 'src');

/**
 * Module-level variables that hold a Project, each with why it may: read once in a process that has no command to
 * pass it down. Shrink-only.
 */
const projectCaches: Record<string, string> = {
  'matchers/contract-cache.ts': "the test process's project, read on the first assertion (the matchers take no io)",
};

/** Methods that change the object they are called on. */
const mutators = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin']);
const mapMutators = new Set(['set', 'delete', 'clear', 'add']);

function program(): ts.Program {
  const configFile = ts.findConfigFile(root, ts.sys.fileExists, 'tsconfig.json')!;
  const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root);
  const files = parsed.fileNames.filter((file) => file.startsWith(src + path.sep));
  return ts.createProgram(files, { ...parsed.options, noEmit: true });
}

/** The expression under casts, parentheses and `!`: `(apis as Record<string, ApiEntry>)` → `apis`. */
function uncast(node: ts.Expression): ts.Expression {
  let inner = node;
  while (
    ts.isParenthesizedExpression(inner) ||
    ts.isAsExpression(inner) ||
    ts.isTypeAssertionExpression(inner) ||
    ts.isNonNullExpression(inner) ||
    ts.isSatisfiesExpression(inner)
  )
    inner = inner.expression;
  return inner;
}

/** The object a write to `target` changes (`a.b = …`, `a[b] = …`, `delete a.b` change `a`). */
function writtenObject(target: ts.Expression): ts.Expression | undefined {
  const inner = uncast(target);
  return ts.isPropertyAccessExpression(inner) || ts.isElementAccessExpression(inner) ? inner.expression : undefined;
}

/** The objects each statement of a file changes: assignments, ++/--, delete, mutating calls, Object.assign. */
function changedObjects(file: ts.SourceFile): ts.Expression[] {
  const changed: ts.Expression[] = [];
  const write = (target: ts.Expression) => {
    const object = writtenObject(target);
    if (object) changed.push(object);
  };
  const visit = (node: ts.Node): void => {
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
      node.operatorToken.kind <= ts.SyntaxKind.LastAssignment
    )
      write(node.left);
    else if (
      (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
      (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)
    )
      write(node.operand);
    else if (ts.isDeleteExpression(node)) write(node.expression);
    else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(uncast(node.expression))) {
      const callee = uncast(node.expression) as ts.PropertyAccessExpression;
      const method = callee.name.text;
      const receiver = callee.expression.getText(file);
      if (mutators.has(method) || mapMutators.has(method)) changed.push(callee.expression);
      else if (/^(Object|Reflect)$/.test(receiver) && /^(assign|defineProperty|set|setPrototypeOf)$/.test(method))
        changed.push(...node.arguments.slice(0, 1));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return changed;
}

/** Whether a type is a Project, an ApiEntry, or a collection or record of them. */
function isProjectData(type: ts.Type, checker: ts.TypeChecker): boolean {
  return /\b(Project|ApiEntry)\b/.test(checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation));
}

const relative = (file: ts.SourceFile) => path.relative(src, file.fileName).split(path.sep).join('/');
const at = (file: ts.SourceFile, node: ts.Node) =>
  `${relative(file)}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}: ${node.getText(file)}`;

/** Every change to a Project or an ApiEntry (or a list or record of them) in src/, by place. */
function projectWrites(checked: ts.Program): string[] {
  const checker = checked.getTypeChecker();
  return checked
    .getSourceFiles()
    .filter((file) => file.fileName.startsWith(src + path.sep))
    .flatMap((file) =>
      changedObjects(file)
        .filter((object) => isProjectData(checker.getTypeAtLocation(uncast(object)), checker))
        .map((object) => at(file, object.parent)),
    );
}

/**
 * Module-level state: a top-level `let` or `var` in src/config (what a command reads must come from the Project it
 * is given), an exported `let` or `var` anywhere, and a top-level variable of src/ that holds a Project or ApiEntry
 * (except projectCaches).
 */
function moduleState(checked: ts.Program): string[] {
  const checker = checked.getTypeChecker();
  const found: string[] = [];
  for (const file of checked.getSourceFiles()) {
    if (!file.fileName.startsWith(src + path.sep)) continue;
    const name = relative(file);
    for (const statement of file.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      const mutable = !(statement.declarationList.flags & ts.NodeFlags.Const);
      const exported = statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
      for (const declaration of statement.declarationList.declarations) {
        const holdsProject = isProjectData(checker.getTypeAtLocation(declaration.name), checker);
        const configState = name.startsWith('config/') && mutable && !name.endsWith('.generated.ts');
        if ((mutable && exported) || configState || (mutable && holdsProject && !(name in projectCaches)))
          found.push(at(file, declaration));
      }
    }
  }
  return found;
}

/** Every object reachable from `value` that is not frozen, by its path. */
function unfrozen(value: unknown, where = 'project', seen = new Set<object>()): string[] {
  if (typeof value !== 'object' || value === null || seen.has(value)) return [];
  seen.add(value);
  return [
    ...(Object.isFrozen(value) ? [] : [where]),
    ...Reflect.ownKeys(value).flatMap((key) =>
      unfrozen((value as Record<PropertyKey, unknown>)[key], `${where}.${String(key)}`, seen),
    ),
  ];
}

// Type-checking src/ takes seconds, more on a busy machine: done once, with room.
const typeCheckMs = 180_000;

describe('no global registry: the config is one frozen Project, passed down', () => {
  const checked = program();

  it(
    'no module keeps module-level config state (a top-level let/var in src/config, an exported let/var)',
    () => {
      expect(moduleState(checked)).toEqual([]);
    },
    typeCheckMs,
  );

  it(
    'nothing in src/ assigns to, deletes from or splices a Project or an ApiEntry after it is read',
    () => {
      expect(projectWrites(checked)).toEqual([]);
    },
    typeCheckMs,
  );

  it('each listed project cache is still a module-level variable holding a Project', () => {
    for (const file of Object.keys(projectCaches))
      expect(checked.getSourceFile(path.join(src, file))?.text ?? '', file).toMatch(/^let \w+: Project\b/m);
  });

  it('readProject gives a value frozen all the way down, with a config and without one', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'contracts-frozen-'));
    try {
      await writeFile(path.join(dir, 'a.yaml'), 'openapi: 3.1.0\ninfo: { title: a, version: "1" }\npaths: {}\n');
      await writeFile(
        path.join(dir, 'contracts.config.yaml'),
        [
          'refs: { roots: [.] }',
          'lint: { rules: { operation-tags: off } }',
          'apis:',
          '  - name: a',
          '    spec: a.yaml',
          '    credentials: [{ env: A_TOKEN, header: Authorization, prefix: "Bearer " }]',
          '    fuzz: { exclude-path: [/admin] }',
          '    webhooks:',
          '      eventHeader: X-Event',
          '      signature: [{ scheme: hmac, header: X-Sig, prefix: "sha256=", algorithm: sha256, secretEnv: A_SECRET }]',
          '    sandbox: { hooks: hooks.ts }',
        ].join('\n'),
      );
      const configured = readProject({ cwd: dir });
      expect(configured.names).toEqual(['a']);
      expect(configured.api('a').webhooks?.signatures).toHaveLength(1);
      expect(unfrozen(configured)).toEqual([]);
      const bare = readProject({ cwd: tmpdir(), file: undefined, specs: [{ api: undefined, file: 'x.yaml' }] });
      expect(unfrozen(bare)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
