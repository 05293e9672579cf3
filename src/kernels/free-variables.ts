// Free variables of a function's source: identifiers it reads but neither declares nor gets
// from the JS/Node globals. A small ESTree scope walk over acorn's AST (no eval, no runtime).

import type { AnyNode, Pattern } from 'acorn';

/** A variable a function uses from its enclosing scope. */
export interface FreeVariable {
  /** The identifier as written in the (possibly transformed) source. */
  readonly name: string;
  /** The name to show the user: the imported binding for bundler import aliases. */
  readonly display: string;
}

interface Scope {
  readonly parent: Scope | null;
  readonly names: Set<string>;
  readonly isFunction: boolean;
}

interface Reference {
  readonly name: string;
  readonly scope: Scope;
  readonly property?: string;
}

// Globals every thread has; `globalThis` membership covers the rest (Node's own globals).
const KNOWN_GLOBALS = new Set([
  ...'Math Number String Boolean Array Object JSON console Infinity NaN undefined Error'.split(' '),
  ...'TypeError RangeError Symbol Map Set WeakMap WeakSet BigInt Date RegExp Promise'.split(' '),
  ...'Float64Array Float32Array Int32Array Int16Array Int8Array Uint32Array Uint16Array'.split(' '),
  ...'Uint8Array Uint8ClampedArray BigInt64Array BigUint64Array ArrayBuffer DataView'.split(' '),
  ...'SharedArrayBuffer Atomics Reflect Proxy globalThis isNaN isFinite parseInt'.split(' '),
  ...'parseFloat structuredClone queueMicrotask TextEncoder TextDecoder performance'.split(' '),
  // esbuild's keepNames helper (tsx); the resolver defines it where sources are compiled.
  '__name',
]);

// Import bindings rewritten by bundlers: vite SSR, vitest, esbuild's CJS interop.
const IMPORT_ALIAS = /^(__vite_ssr_import_\d+__|__vi_import_\d+__|import_[\w$]+)$/;

/** True when `name` resolves to a global on every thread. */
export function isKnownGlobal(name: string): boolean {
  return KNOWN_GLOBALS.has(name) || name in globalThis;
}

/**
 * The free variables of the function node `fn` (in source order, each once).
 * @example
 * freeVariables(parseFunction('(x) => x > threshold').node); // [{ name: 'threshold', … }]
 */
export function freeVariables(fn: AnyNode): FreeVariable[] {
  const refs: Reference[] = [];
  visit(fn, { parent: null, names: new Set(), isFunction: true }, refs);
  const out = new Map<string, FreeVariable>();
  for (const r of refs) {
    if (out.has(r.name) || isDeclared(r.scope, r.name) || isKnownGlobal(r.name)) continue;
    const display = IMPORT_ALIAS.test(r.name) && r.property ? r.property : r.name;
    out.set(r.name, { name: r.name, display });
  }
  return [...out.values()];
}

function isDeclared(scope: Scope | null, name: string): boolean {
  for (let s = scope; s !== null; s = s.parent) if (s.names.has(name)) return true;
  return false;
}

const child = (parent: Scope, isFunction = false): Scope => ({
  parent,
  names: new Set(),
  isFunction,
});

function functionScope(scope: Scope): Scope {
  let s = scope;
  while (!s.isFunction && s.parent !== null) s = s.parent;
  return s;
}

/** Declare the names bound by `pattern` in `target`; default values are read in `scope`. */
function declare(pattern: Pattern, target: Scope, scope: Scope, refs: Reference[]): void {
  switch (pattern.type) {
    case 'Identifier':
      target.names.add(pattern.name);
      return;
    case 'ObjectPattern':
      for (const p of pattern.properties) {
        if (p.type === 'RestElement') declare(p.argument, target, scope, refs);
        else {
          if (p.computed) visit(p.key, scope, refs);
          declare(p.value, target, scope, refs);
        }
      }
      return;
    case 'ArrayPattern':
      for (const e of pattern.elements) if (e) declare(e, target, scope, refs);
      return;
    case 'AssignmentPattern':
      declare(pattern.left, target, scope, refs);
      visit(pattern.right, scope, refs);
      return;
    case 'RestElement':
      declare(pattern.argument, target, scope, refs);
      return;
    default:
      visit(pattern, scope, refs);
  }
}

function visitFunction(
  fn: Extract<AnyNode, { params: Pattern[] }>,
  scope: Scope,
  refs: Reference[],
): void {
  const inner = child(scope, true);
  if (fn.type !== 'ArrowFunctionExpression') inner.names.add('arguments');
  if (fn.type === 'FunctionExpression' && fn.id) inner.names.add(fn.id.name);
  for (const p of fn.params) declare(p, inner, inner, refs);
  visit(fn.body, inner, refs);
}

function visit(node: AnyNode, scope: Scope, refs: Reference[], property?: string): void {
  switch (node.type) {
    case 'Identifier':
      refs.push({ name: node.name, scope, property });
      return;
    case 'FunctionDeclaration':
      if (node.id) scope.names.add(node.id.name);
      visitFunction(node, scope, refs);
      return;
    case 'FunctionExpression':
    case 'ArrowFunctionExpression':
      visitFunction(node, scope, refs);
      return;
    case 'ClassDeclaration':
    case 'ClassExpression': {
      if (node.type === 'ClassDeclaration' && node.id) scope.names.add(node.id.name);
      const inner = child(scope, true);
      if (node.type === 'ClassExpression' && node.id) inner.names.add(node.id.name);
      if (node.superClass) visit(node.superClass, scope, refs);
      visit(node.body, inner, refs);
      return;
    }
    case 'MethodDefinition':
    case 'PropertyDefinition':
    case 'Property':
      if (node.computed) visit(node.key, scope, refs);
      if (node.value) visit(node.value, scope, refs);
      return;
    case 'VariableDeclaration': {
      const target = node.kind === 'var' ? functionScope(scope) : scope;
      for (const d of node.declarations) {
        declare(d.id, target, scope, refs);
        if (d.init) visit(d.init, scope, refs);
      }
      return;
    }
    case 'BlockStatement':
    case 'StaticBlock':
    case 'ForStatement':
    case 'ForInStatement':
    case 'ForOfStatement':
    case 'SwitchStatement':
      visitChildren(node, child(scope), refs);
      return;
    case 'CatchClause': {
      const inner = child(scope);
      if (node.param) declare(node.param, inner, inner, refs);
      visit(node.body, inner, refs);
      return;
    }
    case 'MemberExpression':
      if (
        node.object.type === 'Identifier' &&
        !node.computed &&
        node.property.type === 'Identifier'
      )
        visit(node.object, scope, refs, node.property.name);
      else visit(node.object, scope, refs);
      if (node.computed) visit(node.property, scope, refs);
      return;
    case 'LabeledStatement':
      visit(node.body, scope, refs);
      return;
    case 'BreakStatement':
    case 'ContinueStatement':
    case 'MetaProperty':
    case 'PrivateIdentifier':
    case 'Literal':
    case 'ThisExpression':
    case 'Super':
      return;
    default:
      visitChildren(node, scope, refs);
  }
}

function visitChildren(node: AnyNode, scope: Scope, refs: Reference[]): void {
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' || key === 'start' || key === 'end' || key === 'loc' || key === 'range')
      continue;
    if (Array.isArray(value)) {
      for (const v of value) if (isNode(v)) visit(v, scope, refs);
    } else if (isNode(value)) visit(value, scope, refs);
  }
}

function isNode(v: unknown): v is AnyNode {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string';
}
