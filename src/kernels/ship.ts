// toFnRef: how a user function travels to worker threads — by module reference, by its
// source text (checked for free variables with acorn at graph-build time), or inline.

import { type AnyNode, parse } from 'acorn';
import { KernelError } from '../errors.ts';
import { kernelLocation } from './define-kernels.ts';
import { freeVariables } from './free-variables.ts';
import { registerInlineFn } from './resolve.ts';
import type { FnRef } from './types.ts';

export interface ToFnRefOptions {
  /** Run the function on the main thread, unchecked (closures allowed). */
  readonly inline?: boolean;
}

interface ParsedFunction {
  /** Source that evaluates to the function as an expression. */
  readonly expression: string;
  readonly node: AnyNode;
}

const shipped = new WeakMap<Function, FnRef>();

/**
 * A serialisable reference to a user kernel. defineKernels handles travel by module; other
 * functions by source, rejected with KernelError if they use variables of their enclosing
 * scope; `{ inline: true }` keeps the function on the main thread.
 * @example
 * toFnRef((x: NDArray) => x.data[0]! * 2, 'lazyApply'); // { kind: 'source', … }
 * toFnRef((x: NDArray) => x.data[0]! * k, 'lazyApply'); // KernelError: … uses 'k' …
 */
export function toFnRef(fn: unknown, caller: string, opts: ToFnRefOptions = {}): FnRef {
  if (typeof fn !== 'function') {
    throw new KernelError(`${caller}: kernel must be a function, got ${describe(fn)}`);
  }
  const location = kernelLocation(fn);
  if (location !== undefined) return { kind: 'module', url: location.url, name: location.name };
  if (opts.inline === true) return registerInlineFn(fn);
  let ref = shipped.get(fn);
  if (ref === undefined) {
    ref = sourceRef(fn, caller);
    shipped.set(fn, ref);
  }
  return ref;
}

function sourceRef(fn: Function, caller: string): FnRef {
  const name = fn.name || 'anonymous';
  const source = Function.prototype.toString.call(fn);
  if (/\{\s*\[native code\]\s*\}\s*$/.test(source)) {
    throw new KernelError(
      `${caller}: kernel '${name}' is a native or bound function and has no source to ship; ` +
        'wrap it in an arrow function, or pass { inline: true }',
    );
  }
  const parsed = parseFunction(source);
  if (parsed === undefined) {
    throw new KernelError(
      `${caller}: kernel '${name}' cannot be shipped by source (its source does not parse as a function); ` +
        'export it with defineKernels(import.meta.url, { … }), or pass { inline: true }',
    );
  }
  const free = freeVariables(parsed.node);
  if (free.length > 0) {
    const vars = free.map((v) => `'${v.display}'`).join(', ');
    throw new KernelError(
      `${caller}: kernel '${name}' uses ${vars} from its enclosing scope, which does not travel to workers; ` +
        `data can go through kwargs, but functions and classes cannot: export the kernel with ` +
        'defineKernels(import.meta.url, { … }), or pass { inline: true } to run it on the main thread',
    );
  }
  return { kind: 'source', source: parsed.expression, name };
}

const ACORN = { ecmaVersion: 'latest', sourceType: 'script' } as const;

/**
 * Parse a function's `toString()` into a function expression: arrow functions and
 * function expressions as they are, method shorthand (`foo(a) {}`) rewritten as
 * `function (a) {}`; classes and anything else give undefined.
 * @example
 * parseFunction('async scale(x) { return x * 2 }')!.expression; // 'async function (x) { return x * 2 }'
 */
export function parseFunction(source: string): ParsedFunction | undefined {
  const asExpression = tryParse(`(${source}\n)`);
  if (asExpression !== undefined) {
    if (
      asExpression.type === 'ArrowFunctionExpression' ||
      asExpression.type === 'FunctionExpression'
    )
      return { expression: source, node: asExpression };
    return undefined;
  }
  const asObject = tryParse(`({${source}\n})`);
  if (asObject?.type !== 'ObjectExpression' || asObject.properties.length !== 1) return undefined;
  const prop = asObject.properties[0]!;
  if (prop.type !== 'Property' || prop.value.type !== 'FunctionExpression') return undefined;
  const method = prop.value;
  // acorn starts a method's FunctionExpression at its parameter list; `({` shifts by 2.
  const rest = source.slice(method.start - 2);
  const head = `${method.async ? 'async ' : ''}function${method.generator ? '*' : ''} `;
  const expression = head + rest;
  const reparsed = tryParse(`(${expression}\n)`);
  if (reparsed?.type !== 'FunctionExpression') return undefined;
  return { expression, node: reparsed };
}

function tryParse(wrapped: string): AnyNode | undefined {
  try {
    const program = parse(wrapped, ACORN);
    if (program.body.length !== 1) return undefined;
    const stmt = program.body[0]!;
    return stmt.type === 'ExpressionStatement' ? stmt.expression : undefined;
  } catch {
    return undefined;
  }
}

function describe(x: unknown): string {
  if (x === null) return 'null';
  if (typeof x === 'object') return Array.isArray(x) ? 'an array' : 'an object';
  return `${typeof x} ${JSON.stringify(x) ?? String(x)}`;
}

/**
 * Whether `fn` was declared `async` (its calls return promises): tasks running it are
 * awaited and never fused with their neighbours.
 * @example
 * isAsyncFunction(async (b) => b); // true
 */
export function isAsyncFunction(fn: Function): boolean {
  return fn.constructor.name === 'AsyncFunction';
}
