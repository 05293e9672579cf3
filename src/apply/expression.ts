// elementwise(expr, { inputs, params, dtype }): a custom kernel written once, as a small
// expression language (arithmetic, comparisons, math functions, where, casts), parsed with
// acorn into tessera's elementwise operations — so it fuses into one loop per block on the
// CPU and one shader per block on the GPU, from the same definition.

import { type Node, parseExpressionAt } from 'acorn';
import { checkDType, type DType } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import { LazyArray } from '../array/lazy-array.ts';
import { formatValue } from '../chunking/format.ts';
import { withCallBackend } from '../dispatch/with-backend.ts';
import { ValueError } from '../errors.ts';
import * as ar from './elementwise-arith.ts';
import * as bw from './elementwise-bitwise.ts';
import * as lg from './elementwise-logic.ts';
import * as mt from './elementwise-math.ts';

/** Options of elementwise(). */
export interface ElementwiseOptions {
  /** The arrays the expression names. */
  readonly inputs: Readonly<Record<string, ArrayLike>>;
  /** Scalars the expression names (weak: they do not upcast float32). */
  readonly params?: Readonly<Record<string, number | boolean>>;
  /** The result's dtype (a cast at the end when the expression gives another). */
  readonly dtype?: DType;
  /** Run on this backend or fail. */
  readonly backend?: string;
}

type Value = LazyArray | number;
const FN = 'elementwise';

/**
 * Functions of one argument: the lazy function, and the JS one that folds a constant argument
 * where it gives the same value (none for round: NumPy rounds half to even; none for tests).
 */
const UNARY: Record<string, readonly [(x: LazyArray) => LazyArray, ((x: number) => number)?]> = {
  sqrt: [ar.sqrt, Math.sqrt],
  exp: [ar.exp, Math.exp],
  expm1: [ar.expm1, Math.expm1],
  log: [ar.log, Math.log],
  log1p: [ar.log1p, Math.log1p],
  sin: [ar.sin, Math.sin],
  cos: [ar.cos, Math.cos],
  tan: [ar.tan, Math.tan],
  tanh: [ar.tanh, Math.tanh],
  abs: [ar.abs, Math.abs],
  sign: [ar.sign, Math.sign],
  floor: [ar.floor, Math.floor],
  ceil: [ar.ceil, Math.ceil],
  round: [ar.round],
  isnan: [lg.isnan],
  isfinite: [lg.isfinite],
  isinf: [lg.isinf],
  signbit: [lg.signbit],
  acos: [mt.acos, Math.acos],
  acosh: [mt.acosh, Math.acosh],
  asin: [mt.asin, Math.asin],
  asinh: [mt.asinh, Math.asinh],
  atan: [mt.atan, Math.atan],
  atanh: [mt.atanh, Math.atanh],
  cosh: [mt.cosh, Math.cosh],
  sinh: [mt.sinh, Math.sinh],
  log2: [mt.log2, Math.log2],
  log10: [mt.log10, Math.log10],
  trunc: [mt.trunc, Math.trunc],
  square: [mt.square, (x) => x * x],
  reciprocal: [mt.reciprocal, (x) => 1 / x],
  positive: [mt.positive, (x) => x],
  bitwiseInvert: [bw.bitwiseInvert],
};
const BINARY: Record<string, (x: Value, y: Value) => LazyArray> = {
  '+': ar.add,
  '-': ar.subtract,
  '*': ar.multiply,
  '/': ar.divide,
  '%': ar.remainder,
  '**': ar.pow,
  '==': lg.equal,
  '===': lg.equal,
  '!=': lg.notEqual,
  '!==': lg.notEqual,
  '<': lg.less,
  '<=': lg.lessEqual,
  '>': lg.greater,
  '>=': lg.greaterEqual,
  '&&': lg.logicalAnd,
  '||': lg.logicalOr,
  maximum: ar.maximum,
  max: ar.maximum,
  minimum: ar.minimum,
  min: ar.minimum,
  pow: ar.pow,
  floorDivide: ar.floorDivide,
  '&': bw.bitwiseAnd,
  '|': bw.bitwiseOr,
  '^': bw.bitwiseXor,
  '<<': bw.bitwiseLeftShift,
  '>>': bw.bitwiseRightShift,
  bitwiseAnd: bw.bitwiseAnd,
  bitwiseOr: bw.bitwiseOr,
  bitwiseXor: bw.bitwiseXor,
  bitwiseLeftShift: bw.bitwiseLeftShift,
  bitwiseRightShift: bw.bitwiseRightShift,
  logicalXor: lg.logicalXor,
  atan2: mt.atan2,
  hypot: mt.hypot,
  copysign: mt.copysign,
  logaddexp: mt.logaddexp,
  nextafter: mt.nextafter,
};
const CASTS: ReadonlySet<string> = new Set([
  'float64',
  'float32',
  'int32',
  'int16',
  'int8',
  'uint32',
  'uint16',
  'uint8',
  'bool',
]);
const CONSTANTS: Record<string, number> = {
  pi: Math.PI,
  e: Math.E,
  inf: Infinity,
  nan: Number.NaN,
};

/** JavaScript's value of a binary operator on two numbers (constant folding). */
function foldBinary(op: string, x: number, y: number): number {
  const f: Record<string, (a: number, b: number) => number> = {
    '+': (a, b) => a + b,
    '-': (a, b) => a - b,
    '*': (a, b) => a * b,
    '/': (a, b) => a / b,
    '**': (a, b) => a ** b,
    pow: (a, b) => a ** b,
    maximum: Math.max,
    max: Math.max,
    minimum: Math.min,
    min: Math.min,
    atan2: Math.atan2,
    hypot: Math.hypot,
  };
  const g = f[op];
  if (g === undefined) throw new ValueError(`${FN}: '${op}' needs an array operand`);
  return g(x, y);
}

class Evaluator {
  constructor(
    private readonly src: string,
    private readonly inputs: Map<string, LazyArray>,
    private readonly params: Readonly<Record<string, number | boolean>>,
  ) {}

  private fail(node: Node, why: string): never {
    const text = this.src.slice(node.start, node.end);
    throw new ValueError(`${FN}: ${why} at ${JSON.stringify(text)} (column ${node.start + 1})`);
  }

  eval(node: Node): Value {
    const n = node as Node & Record<string, unknown>;
    switch (node.type) {
      case 'Literal':
        if (typeof n.value === 'number') return n.value;
        if (typeof n.value === 'boolean') return n.value ? 1 : 0;
        return this.fail(node, 'only number and boolean literals are allowed');
      case 'Identifier':
        return this.name(node, n.name as string);
      case 'UnaryExpression': {
        const x = this.eval(n.argument as Node);
        if (n.operator === '-') return typeof x === 'number' ? -x : ar.negative(x);
        if (n.operator === '+') return x;
        if (n.operator === '!') return typeof x === 'number' ? Number(x === 0) : lg.logicalNot(x);
        if (n.operator === '~') return typeof x === 'number' ? ~x : bw.bitwiseInvert(x);
        return this.fail(node, `unary '${n.operator}' is not part of the language`);
      }
      case 'BinaryExpression':
      case 'LogicalExpression':
        return this.binary(node, n.operator as string, n.left as Node, n.right as Node);
      case 'ConditionalExpression':
        return this.where([n.test, n.consequent, n.alternate] as Node[]);
      case 'CallExpression':
        return this.call(node, n.callee as Node, n.arguments as Node[]);
      default:
        return this.fail(node, `${node.type} is not part of the language`);
    }
  }

  private name(node: Node, name: string): Value {
    const a = this.inputs.get(name);
    if (a !== undefined) return a;
    const p = this.params[name];
    if (typeof p === 'number') return p;
    if (typeof p === 'boolean') return p ? 1 : 0;
    if (name in CONSTANTS) return CONSTANTS[name]!;
    return this.fail(node, `'${name}' is not an input, a param or a constant (pi, e, inf, nan)`);
  }

  private binary(node: Node, op: string, l: Node, r: Node): Value {
    const f = BINARY[op];
    if (f === undefined) return this.fail(node, `operator '${op}' is not part of the language`);
    const x = this.eval(l);
    const y = this.eval(r);
    if (typeof x === 'number' && typeof y === 'number') return foldBinary(op, x, y);
    return f(x, y);
  }

  private where(args: Node[]): Value {
    const [c, a, b] = args.map((x) => this.eval(x));
    if (typeof c === 'number') return c !== 0 ? a! : b!;
    return lg.where(c!, a!, b!);
  }

  private call(node: Node, callee: Node, args: Node[]): Value {
    if (callee.type !== 'Identifier') return this.fail(node, 'only named functions can be called');
    const name = (callee as Node & { name: string }).name;
    const arity = (k: number): void => {
      if (args.length !== k)
        this.fail(node, `${name} takes ${k} argument${k === 1 ? '' : 's'}, got ${args.length}`);
    };
    if (name === 'where') {
      arity(3);
      return this.where(args);
    }
    if (CASTS.has(name)) {
      arity(1);
      const x = this.eval(args[0]!);
      return typeof x === 'number' ? x : lg.astype(x, name as DType);
    }
    if (name === 'clip') {
      arity(3);
      const [x, lo, hi] = args.map((a) => this.eval(a));
      if (typeof x === 'number') return Math.min(Math.max(x, Number(lo)), Number(hi));
      return lg.clip(x!, lo, hi);
    }
    const u = UNARY[name];
    if (u !== undefined) {
      arity(1);
      const x = this.eval(args[0]!);
      if (typeof x !== 'number') return u[0](x);
      const js = u[1];
      return js === undefined ? this.fail(node, `${name} of a constant`) : js(x);
    }
    if (BINARY[name] !== undefined) {
      arity(2);
      return this.binary(node, name, args[0]!, args[1]!);
    }
    return this.fail(node, `unknown function '${name}'`);
  }
}

/**
 * A custom elementwise kernel written once: `expr` in a small expression language over the
 * named `inputs` and `params` — `+ - * / % **`, comparisons, `&& || !`, `& | ^ ~ << >>`,
 * `c ? a : b`, where, maximum/minimum, clip, pow, the unary and binary math functions of
 * tessera by name (sqrt exp log log2 sin acos sinh trunc isinf atan2 hypot copysign
 * logaddexp nextafter logicalXor …), casts (`float32(x)`, `int32(x)`, …), pi e inf nan. It
 * builds tessera's elementwise operations, so it fuses into one compiled loop per block on
 * the CPU and one shader per block on the GPU, with NumPy's broadcasting and dtypes.
 * @example
 * const y = elementwise('where(x > t, a * x + b, 0)', { inputs: { x }, params: { a: 2, b: 1, t: 0.5 } });
 */
export function elementwise(expr: string, opts: ElementwiseOptions): LazyArray {
  if (typeof expr !== 'string')
    throw new ValueError(`${FN}: expr must be a string, got ${formatValue(expr)}`);
  if (
    opts === null ||
    typeof opts !== 'object' ||
    opts.inputs === null ||
    typeof opts.inputs !== 'object'
  ) {
    throw new ValueError(`${FN}: options need 'inputs', a record of named arrays`);
  }
  const dtype = opts.dtype === undefined ? undefined : checkDType(FN, opts.dtype);
  const inputs = new Map(
    Object.entries(opts.inputs).map(([k, v]) => [k, asLazy(v, 'elementwise')] as const),
  );
  let ast: Node;
  try {
    ast = parseExpressionAt(expr, 0, { ecmaVersion: 2022 });
  } catch (e) {
    throw new ValueError(`${FN}: cannot parse ${JSON.stringify(expr)}: ${(e as Error).message}`);
  }
  if (ast.end < expr.trimEnd().length) {
    throw new ValueError(
      `${FN}: unexpected ${JSON.stringify(expr.slice(ast.end).trim())} after the expression`,
    );
  }
  return withCallBackend(FN, opts.backend, () => {
    const v = new Evaluator(expr, inputs, opts.params ?? {}).eval(ast);
    if (!(v instanceof LazyArray)) {
      throw new ValueError(`${FN}: ${JSON.stringify(expr)} reads no input array`);
    }
    return dtype === undefined || v.dtype === dtype ? v : lg.astype(v, dtype);
  });
}
