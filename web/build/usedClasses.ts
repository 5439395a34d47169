/**
 * Which class names the built JavaScript can put on the page (issue 33; build/cssPurge.ts uses it
 * to drop the Blueprint CSS nothing can use). It reads the output of the build, not the source:
 * what the bundler kept of Blueprint is what the screens can render.
 *
 * Blueprint composes its class names at run time from a namespace (`Classes.BUTTON =
 * `${NS}-button``, `Classes.BUTTON_GROUP = `${BUTTON}-group``, `intentClass(i) =
 * `${NS}-intent-${i}``), so a class counts as used when it is
 * - a word of the JavaScript or HTML (written out: `className: 'bp6-button'`),
 * - a value of a template literal whose pieces resolve, following module-level constants and the
 *   imports between chunks (`${O}-button` where `O = `bp6``), or
 * - a static start of a template literal followed by a word of the code (`${O}-icon-${name}`
 *   counts `bp6-icon-add` only if `add` is a word of the code).
 * A module-level constant counts only if something reads it outside the definitions of constants
 * that do not count: the minifier leaves `` `${BUTTON}`; `` where an unused `${BUTTON}-text` was
 * (a template may call toString, so it is not dropped whole), and those reads are ignored. Local
 * names are told apart from module-level ones by scope, as minified chunks reuse short names.
 */
import { parseSync } from 'vite';

/** What the built code can put in a class attribute. */
export type UsedClasses = {
  /** Class tokens the code can produce whole. */
  exact: Set<string>;
  /** Every identifier-like word of the code and HTML (`[A-Za-z0-9_-]+`). */
  words: Set<string>;
  /** Static starts of class names whose end is computed (`bp6-icon-`, `bp6-intent-`). */
  prefixes: Set<string>;
};

export type CodeFile = { fileName: string; code: string };

const WORD = /[A-Za-z0-9_-]+/g;
/** Values one identifier may hold beyond which it counts as unknown (a guard, never reached by Blueprint). */
const MAX_VALUES = 64;

type Piece = { text: string } | { name: string | null };

type ParsedChunk = {
  /** Identifier → the templates or strings assigned to it anywhere in the chunk. */
  definitions: Map<string, Piece[][]>;
  /** The template literals of the chunk, each with the definition it sits in (null: elsewhere). */
  templates: { pieces: Piece[]; owner: string | null }[];
  /** Identifiers read, each with the definition it sits in (null: elsewhere). */
  references: { name: string; owner: string | null }[];
  /** Local name → [chunk file, exported name]. */
  imports: Map<string, [string, string]>;
  /** Exported name → local name. */
  exports: Map<string, string>;
};

type AnyNode = { type: string; [key: string]: unknown };

const isNode = (value: unknown): value is AnyNode =>
  typeof value === 'object' && value !== null && typeof (value as AnyNode).type === 'string';

function templatePieces(node: AnyNode): Piece[] {
  const quasis = node.quasis as { value: { cooked: string | null; raw: string } }[];
  const expressions = node.expressions as AnyNode[];
  const pieces: Piece[] = [];
  quasis.forEach((quasi, i) => {
    pieces.push({ text: quasi.value.cooked ?? quasi.value.raw });
    const expression = expressions[i];
    if (expression)
      pieces.push({ name: expression.type === 'Identifier' ? (expression.name as string) : null });
  });
  return pieces;
}

function valuePieces(node: unknown): Piece[] | null {
  if (!isNode(node)) return null;
  if (node.type === 'TemplateLiteral') return templatePieces(node);
  if (node.type === 'Literal' && typeof node.value === 'string') return [{ text: node.value }];
  return null;
}

/**
 * A statement whose value is thrown away: what the minifier leaves of an unused constant built
 * from another (`` `${BUTTON}`; `` — a template may call toString, so it is not dropped whole).
 */
function isDiscarded(expression: AnyNode): boolean {
  const parts =
    expression.type === 'SequenceExpression' ? (expression.expressions as AnyNode[]) : [expression];
  return parts.every((p) => p.type === 'TemplateLiteral' || p.type === 'Literal' || p.type === 'Identifier');
}

function relativeChunk(importer: string, source: string): string | null {
  if (!source.startsWith('./') && !source.startsWith('../')) return null;
  const parts = importer.split('/').slice(0, -1);
  for (const part of source.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  return parts.join('/');
}

const nameOf = (node: AnyNode) => String(node.type === 'Identifier' ? node.name : node.value);

/**
 * Scopes, enough to tell a module-level name from a local one of the same name (minified chunks
 * reuse short names: React's own `rt` must not make Blueprint's `rt` count as read).
 */
type Scope = { names: Set<string>; parent: Scope | null };

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);
const BLOCKS = new Set([
  'BlockStatement',
  'StaticBlock',
  'ForStatement',
  'ForInStatement',
  'ForOfStatement',
  'SwitchStatement',
  'CatchClause',
  'ClassExpression',
]);

/** The names a binding pattern declares. */
function patternNames(pattern: unknown, out: string[] = []): string[] {
  if (!isNode(pattern)) return out;
  if (pattern.type === 'Identifier') out.push(pattern.name as string);
  else if (pattern.type === 'ObjectPattern')
    for (const p of pattern.properties as AnyNode[])
      patternNames(p.type === 'RestElement' ? p.argument : p.value, out);
  else if (pattern.type === 'ArrayPattern')
    for (const p of pattern.elements as unknown[]) patternNames(p, out);
  else if (pattern.type === 'RestElement') patternNames(pattern.argument, out);
  else if (pattern.type === 'AssignmentPattern') patternNames(pattern.left, out);
  return out;
}

/** First pass: the scope of every function, block and the program, with the names each declares. */
function declareScopes(program: AnyNode): Map<AnyNode, Scope> {
  const scopes = new Map<AnyNode, Scope>();
  const visit = (value: unknown, scope: Scope, functionScope: Scope): void => {
    if (!isNode(value)) return;
    const node = value;
    let inner = scope;
    let innerFunction = functionScope;
    if (FUNCTIONS.has(node.type)) {
      if (node.type === 'FunctionDeclaration' && isNode(node.id)) scope.names.add(node.id.name as string);
      inner = { names: new Set(), parent: scope };
      innerFunction = inner;
      if (node.type === 'FunctionExpression' && isNode(node.id)) inner.names.add(node.id.name as string);
      for (const param of node.params as unknown[]) for (const n of patternNames(param)) inner.names.add(n);
      scopes.set(node, inner);
      // The body block shares the function's scope.
      const body = node.body as AnyNode;
      if (body.type === 'BlockStatement') {
        scopes.set(body, inner);
        for (const statement of body.body as AnyNode[]) visit(statement, inner, inner);
      } else visit(body, inner, inner);
      for (const param of node.params as unknown[]) visit(param, inner, inner);
      return;
    }
    if (BLOCKS.has(node.type) && !scopes.has(node)) {
      inner = { names: new Set(), parent: scope };
      scopes.set(node, inner);
      if (node.type === 'CatchClause') for (const n of patternNames(node.param)) inner.names.add(n);
      if (node.type === 'ClassExpression' && isNode(node.id)) inner.names.add(node.id.name as string);
    }
    if (node.type === 'ClassDeclaration' && isNode(node.id)) scope.names.add(node.id.name as string);
    if (node.type === 'ImportDeclaration')
      for (const s of node.specifiers as AnyNode[]) scope.names.add((s.local as AnyNode).name as string);
    if (node.type === 'VariableDeclaration') {
      const target = node.kind === 'var' ? functionScope : scope;
      for (const d of node.declarations as AnyNode[]) for (const n of patternNames(d.id)) target.names.add(n);
    }
    for (const key in node) {
      if (key === 'type') continue;
      const child = node[key];
      if (Array.isArray(child)) for (const item of child) visit(item, inner, innerFunction);
      else visit(child, inner, innerFunction);
    }
  };
  const root: Scope = { names: new Set(), parent: null };
  scopes.set(program, root);
  for (const statement of program.body as AnyNode[]) visit(statement, root, root);
  return scopes;
}

function parseChunk(file: CodeFile): ParsedChunk {
  const chunk: ParsedChunk = {
    definitions: new Map(),
    templates: [],
    references: [],
    imports: new Map(),
    exports: new Map(),
  };
  const define = (name: string, pieces: Piece[]) => {
    const list = chunk.definitions.get(name) ?? [];
    list.push(pieces);
    chunk.definitions.set(name, list);
  };
  const parsed = parseSync(file.fileName, file.code);
  if (parsed.errors.length > 0)
    throw new Error(`cssPurge: cannot parse ${file.fileName}: ${parsed.errors[0]?.message}`);
  const program = parsed.program as unknown as AnyNode;
  const scopes = declareScopes(program);
  const root = scopes.get(program) as Scope;
  /** True when the name, read in this scope, is the module's own (or a global). */
  const isModuleLevel = (name: string, scope: Scope): boolean => {
    for (let s: Scope | null = scope; s; s = s.parent) if (s.names.has(name)) return s === root;
    return true;
  };

  // Second pass: definitions, templates and reads, each with the module-level definition it sits in.
  const walkChildren = (node: AnyNode, scope: Scope, owner: string | null, skip: readonly string[] = []) => {
    for (const key in node) {
      if (key === 'type' || skip.includes(key)) continue;
      const value = node[key];
      if (Array.isArray(value)) for (const item of value) walk(item, scope, owner);
      else walk(value, scope, owner);
    }
  };
  /** A binding pattern: its names are not reads, its defaults and computed keys are. */
  const walkPattern = (pattern: unknown, scope: Scope, owner: string | null): void => {
    if (!isNode(pattern) || pattern.type === 'Identifier') return;
    if (pattern.type === 'AssignmentPattern') {
      walkPattern(pattern.left, scope, owner);
      walk(pattern.right, scope, owner);
    } else if (pattern.type === 'ObjectPattern') {
      for (const p of pattern.properties as AnyNode[]) {
        if (p.type === 'RestElement') walkPattern(p.argument, scope, owner);
        else {
          if (p.computed) walk(p.key, scope, owner);
          walkPattern(p.value, scope, owner);
        }
      }
    } else if (pattern.type === 'ArrayPattern') {
      for (const p of pattern.elements as unknown[]) walkPattern(p, scope, owner);
    } else if (pattern.type === 'RestElement') walkPattern(pattern.argument, scope, owner);
    else walk(pattern, scope, owner); // a member expression as an assignment target
  };
  const walk = (value: unknown, outer: Scope, owner: string | null): void => {
    if (!isNode(value)) return;
    const node = value;
    const scope = scopes.get(node) ?? outer;
    switch (node.type) {
      case 'ImportDeclaration': {
        const from = relativeChunk(file.fileName, String((node.source as AnyNode).value));
        for (const specifier of node.specifiers as AnyNode[]) {
          if (from && specifier.type === 'ImportSpecifier')
            chunk.imports.set(nameOf(specifier.local as AnyNode), [
              from,
              nameOf(specifier.imported as AnyNode),
            ]);
        }
        return;
      }
      case 'ExportNamedDeclaration':
        for (const specifier of node.specifiers as AnyNode[]) {
          const local = nameOf(specifier.local as AnyNode);
          chunk.exports.set(nameOf(specifier.exported as AnyNode), local);
          chunk.references.push({ name: local, owner: null });
        }
        walk(node.declaration, scope, owner);
        return;
      case 'ExpressionStatement':
        if (!isDiscarded(node.expression as AnyNode)) walk(node.expression, scope, owner);
        return;
      case 'FunctionDeclaration':
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
        for (const param of node.params as unknown[]) walkPattern(param, scope, owner);
        walk(node.body, scope, owner);
        return;
      case 'ClassDeclaration':
      case 'ClassExpression':
        walkChildren(node, scope, owner, ['id']);
        return;
      case 'CatchClause':
        walkPattern(node.param, scope, owner);
        walk(node.body, scope, owner);
        return;
      case 'LabeledStatement':
        walk(node.body, scope, owner);
        return;
      case 'BreakStatement':
      case 'ContinueStatement':
        return;
      case 'VariableDeclarator': {
        const id = node.id as AnyNode;
        const pieces = id.type === 'Identifier' ? valuePieces(node.init) : null;
        if (pieces) define(id.name as string, pieces);
        walkPattern(id, scope, owner);
        const moduleLevel = pieces !== null && isModuleLevel(id.name as string, scope);
        walk(node.init, scope, moduleLevel ? (id.name as string) : owner);
        return;
      }
      case 'AssignmentExpression': {
        const left = node.left as AnyNode;
        const pieces = left.type === 'Identifier' && node.operator === '=' ? valuePieces(node.right) : null;
        if (pieces) define(left.name as string, pieces);
        if (left.type === 'Identifier') {
          if (node.operator !== '=' && isModuleLevel(left.name as string, scope))
            chunk.references.push({ name: left.name as string, owner });
        } else walkPattern(left, scope, owner);
        const moduleLevel = pieces !== null && isModuleLevel(left.name as string, scope);
        walk(node.right, scope, moduleLevel ? (left.name as string) : owner);
        return;
      }
      case 'TemplateLiteral':
        chunk.templates.push({ pieces: templatePieces(node), owner });
        walkChildren(node, scope, owner);
        return;
      case 'Identifier':
        if (isModuleLevel(node.name as string, scope))
          chunk.references.push({ name: node.name as string, owner });
        return;
      case 'MemberExpression':
        walkChildren(node, scope, owner, node.computed ? [] : ['property']);
        return;
      case 'Property':
      case 'PropertyDefinition':
      case 'MethodDefinition':
        walkChildren(node, scope, owner, node.computed ? [] : ['key']);
        return;
      default:
        walkChildren(node, scope, owner);
    }
  };
  for (const statement of program.body as AnyNode[]) walk(statement, root, null);
  return chunk;
}

/** All strings the pieces can make, given each identifier's known values; null if one is unknown. */
function evaluate(pieces: Piece[], valuesOf: (name: string) => Set<string> | undefined): string[] | null {
  let results = [''];
  for (const piece of pieces) {
    if ('text' in piece) {
      results = results.map((r) => r + piece.text);
      continue;
    }
    const values = piece.name === null ? undefined : valuesOf(piece.name);
    if (!values || values.size === 0) return null;
    results = results.flatMap((r) => [...values].map((v) => r + v));
    if (results.length > MAX_VALUES) return null;
  }
  return results;
}

/** Reads the built chunks (and HTML) for the class names they can produce. */
export function collectUsedClasses(chunks: CodeFile[], otherTexts: string[] = []): UsedClasses {
  const words = new Set<string>();
  for (const text of [...chunks.map((c) => c.code), ...otherTexts]) {
    for (const [word] of text.matchAll(WORD)) words.add(word);
  }
  const parsed = new Map(chunks.map((c) => [c.fileName, parseChunk(c)]));
  const values = new Map<string, Map<string, Set<string>>>(chunks.map((c) => [c.fileName, new Map()]));

  const lookup = (fileName: string, name: string, seen = 0): Set<string> | undefined => {
    const own = values.get(fileName)?.get(name);
    if (own) return own;
    const imported = parsed.get(fileName)?.imports.get(name);
    if (!imported || seen > 20) return undefined;
    const [from, exportedName] = imported;
    const local = parsed.get(from)?.exports.get(exportedName);
    return local === undefined ? undefined : lookup(from, local, seen + 1);
  };

  // Resolve definitions to a fixed point (a constant may be built from one defined later or elsewhere).
  for (let changed = true; changed; ) {
    changed = false;
    for (const [fileName, chunk] of parsed) {
      const own = values.get(fileName) as Map<string, Set<string>>;
      for (const [name, definitions] of chunk.definitions) {
        for (const pieces of definitions) {
          const results = evaluate(pieces, (n) => lookup(fileName, n));
          if (!results) continue;
          const set = own.get(name) ?? new Set<string>();
          const before = set.size;
          for (const r of results) if (set.size < MAX_VALUES) set.add(r);
          own.set(name, set);
          if (set.size !== before) changed = true;
        }
      }
    }
  }

  const exact = new Set<string>();
  const prefixes = new Set<string>();
  for (const [fileName, chunk] of parsed) {
    // A definition counts once something outside the definitions, or a counted definition, reads it.
    const live = new Set<string>();
    const byOwner = new Map<string | null, string[]>();
    for (const { name, owner } of chunk.references) {
      const list = byOwner.get(owner) ?? [];
      list.push(name);
      byOwner.set(owner, list);
    }
    const pending = [...(byOwner.get(null) ?? [])];
    while (pending.length > 0) {
      const name = pending.pop() as string;
      if (live.has(name)) continue;
      live.add(name);
      pending.push(...(byOwner.get(name) ?? []));
    }
    const valuesOf = (n: string) => lookup(fileName, n);
    for (const { pieces, owner } of chunk.templates) {
      if (owner !== null && !live.has(owner)) continue;
      for (const value of evaluate(pieces, valuesOf) ?? []) {
        for (const token of value.split(/\s+/)) if (token) exact.add(token);
      }
      // Each computed piece may be unknown (a parameter, a call): what precedes it is a prefix.
      pieces.forEach((piece, i) => {
        if ('text' in piece) return;
        for (const start of evaluate(pieces.slice(0, i), valuesOf) ?? []) {
          const last = start.split(/\s+/).pop();
          if (last) prefixes.add(last);
        }
      });
    }
  }
  return { exact, words, prefixes };
}

export function isUsedClass(used: UsedClasses, name: string): boolean {
  if (used.exact.has(name) || used.words.has(name)) return true;
  for (const prefix of used.prefixes) {
    if (name.length > prefix.length && name.startsWith(prefix) && used.words.has(name.slice(prefix.length)))
      return true;
  }
  return false;
}
