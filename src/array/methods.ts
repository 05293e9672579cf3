// Method forms on LazyArray (x.add(y), x.sum(), x.T, x.get('1:5'), …): each delegates to
// the functional form with `this` as its first argument. Imported once by index.ts.

import { flatten, ravel } from '../aliases.ts';
import * as ax from '../apply/axes.ts';
import * as cx from '../apply/complex-parts.ts';
import { cumsum } from '../apply/cumsum.ts';
import * as ar from '../apply/elementwise-arith.ts';
import * as bw from '../apply/elementwise-bitwise.ts';
import * as lg from '../apply/elementwise-logic.ts';
import * as mt from '../apply/elementwise-math.ts';
import { getIndex, mask, setIndex } from '../apply/indexing.ts';
import { matmul, tensordot } from '../apply/linalg.ts';
import { rechunk } from '../apply/rechunk.ts';
import * as red from '../apply/reductions.ts';
import { reshape } from '../apply/reshape.ts';
import { nonzero, searchsorted } from '../apply/searching.ts';
import { argsort, sort } from '../apply/sort.ts';
import { take } from '../apply/take.ts';
import { repeat } from '../apply/tiling.ts';
import { argtopk, topk } from '../apply/topk.ts';
import * as tr from '../apply/transpose.ts';
import { type ComputeOptions, compute } from './compute.ts';
import { LazyArray } from './lazy-array.ts';
import './method-docs.ts';
import type { NDArray } from './ndarray.ts';
import { persist } from './persist.ts';
import {
  type DotOptions,
  type RenderedOptions,
  type VisualizeOptions,
  visualize,
} from './visualize.ts';

// biome-ignore lint/suspicious/noExplicitAny: matches any function signature
type Fn = (...args: any[]) => unknown;
/** The parameters of `F` after its first (the array the method is called on). */
type Rest<F extends Fn> = F extends (x: never, ...rest: infer R) => unknown ? R : never;
/** The method form of function `F`: its parameters after the array, the same result. */
export type Method<F extends Fn> = (...args: Rest<F>) => ReturnType<F>;

/** `T` with a LazyArray (of any shape) narrowed to one whose sizes are known. */
type KnownArg<T> = T extends LazyArray ? LazyArray<true> : T;
/** `T` without LazyArrays, at any depth of its arrays (an index holding no lazy array). */
type StaticArg<T> = T extends LazyArray
  ? never
  : T extends readonly (infer E)[]
    ? LazyArray extends E
      ? readonly StaticArg<E>[]
      : T
    : T;

/**
 * The method form of an operation whose output sizes follow from its inputs' sizes
 * (elementwise, reductions, matmul, rechunk, reshape, …): on a `LazyArray<Known>` whose array
 * arguments all have known shapes it gives a `LazyArray<Known>`, otherwise a `LazyArray`.
 */
export interface KeepsShape<F extends Fn, Known extends boolean> {
  (...args: { [I in keyof Rest<F>]: KnownArg<Rest<F>[I]> }): LazyArray<Known>;
  (...args: Rest<F>): LazyArray;
}

/**
 * The method form of indexing (`x.get`): a `LazyArray<Known>` for an index with no lazy array
 * in it (text, integers, slices, `null`, `'...'`, eager integer or bool arrays), otherwise a
 * `LazyArray` (a lazy bool array selects a count known only once computed).
 */
export interface IndexMethod<F extends Fn, Known extends boolean> {
  (...args: { [I in keyof Rest<F>]: StaticArg<Rest<F>[I]> }): LazyArray<Known>;
  (...args: Rest<F>): LazyArray;
}

const methods = {
  add: ar.add,
  subtract: ar.subtract,
  multiply: ar.multiply,
  divide: ar.divide,
  floorDivide: ar.floorDivide,
  remainder: ar.remainder,
  pow: ar.pow,
  maximum: ar.maximum,
  minimum: ar.minimum,
  negative: ar.negative,
  abs: ar.abs,
  sign: ar.sign,
  sqrt: ar.sqrt,
  exp: ar.exp,
  expm1: ar.expm1,
  log: ar.log,
  log1p: ar.log1p,
  sin: ar.sin,
  cos: ar.cos,
  tan: ar.tan,
  tanh: ar.tanh,
  floor: ar.floor,
  ceil: ar.ceil,
  round: ar.round,
  equal: lg.equal,
  notEqual: lg.notEqual,
  less: lg.less,
  lessEqual: lg.lessEqual,
  greater: lg.greater,
  greaterEqual: lg.greaterEqual,
  logicalAnd: lg.logicalAnd,
  logicalOr: lg.logicalOr,
  logicalNot: lg.logicalNot,
  isnan: lg.isnan,
  isfinite: lg.isfinite,
  clip: lg.clip,
  astype: lg.astype,
  logicalXor: lg.logicalXor,
  isinf: lg.isinf,
  signbit: lg.signbit,
  acos: mt.acos,
  acosh: mt.acosh,
  asin: mt.asin,
  asinh: mt.asinh,
  atan: mt.atan,
  atan2: mt.atan2,
  atanh: mt.atanh,
  cosh: mt.cosh,
  sinh: mt.sinh,
  log2: mt.log2,
  log10: mt.log10,
  logaddexp: mt.logaddexp,
  hypot: mt.hypot,
  copysign: mt.copysign,
  nextafter: mt.nextafter,
  positive: mt.positive,
  square: mt.square,
  reciprocal: mt.reciprocal,
  trunc: mt.trunc,
  bitwiseAnd: bw.bitwiseAnd,
  bitwiseOr: bw.bitwiseOr,
  bitwiseXor: bw.bitwiseXor,
  bitwiseInvert: bw.bitwiseInvert,
  bitwiseLeftShift: bw.bitwiseLeftShift,
  bitwiseRightShift: bw.bitwiseRightShift,
  conj: cx.conj,
  sum: red.sum,
  prod: red.prod,
  mean: red.mean,
  min: red.min,
  max: red.max,
  std: red.std,
  var: red.variance,
  argmin: red.argmin,
  argmax: red.argmax,
  any: red.any,
  all: red.all,
  cumsum,
  topk,
  argtopk,
  reshape,
  permuteDims: tr.permuteDims,
  transpose: tr.transpose,
  swapaxes: tr.swapaxes,
  moveaxis: tr.moveaxis,
  expandDims: ax.expandDims,
  squeeze: ax.squeeze,
  flip: ax.flip,
  broadcastTo: ax.broadcastTo,
  rechunk,
  take,
  matmul,
  tensordot,
  sort,
  argsort,
  searchsorted,
  repeat,
  ravel,
  flatten,
  set: setIndex,
} as const;

/** Indexing: its result's sizes are known when the array's are and the index is static. */
const indexMethods = { get: getIndex } as const;

/** Methods whose results have sizes known only once computed (boolean masks, nonzero). */
const sizeMethods = { mask, nonzero } as const;

/** Short aliases people reach for in chained expressions. */
const aliases = { mul: ar.multiply, sub: ar.subtract, div: ar.divide } as const;

declare module './lazy-array.ts' {
  interface LazyArray<out Known extends boolean = boolean> {
    /**
     * All axes reversed (the transpose of a matrix).
     * @example
     * ones([2, 3]).T.shape; // [3, 2]
     */
    readonly T: LazyArray<Known>;
    /**
     * Compute this array into an NDArray (`compute(x, opts)`).
     * @example
     * const total = await ones([4, 4], { chunks: 2 }).sum().compute(); // total.item() === 16
     */
    compute(opts?: ComputeOptions): Promise<NDArray>;
    /**
     * Compute and keep the blocks in memory (`persist(x, opts)`, one array).
     * @example
     * const y = await x.mul(2).persist();
     * await y.sum().compute(); // starts from the held blocks of x * 2
     */
    persist(opts?: ComputeOptions): Promise<LazyArray<true>>;
    /**
     * A picture of this array's graph (`visualize(x, opts)`): DOT text at once, or SVG / HTML
     * rendered in-process (a promise); with `file`, the path written.
     * @example
     * writeFileSync('graph.dot', ones([4], { chunks: 2 }).add(1).visualize());
     * const svg = await ones([4], { chunks: 2 }).add(1).visualize({ format: 'svg' });
     */
    visualize(opts?: DotOptions): string;
    /**
     * This array's graph rendered in-process (`visualize(x, opts)`): SVG text or an HTML page,
     * or with `file` the path written.
     * @example
     * const svg = await ones([4], { chunks: 2 }).add(1).visualize({ format: 'svg' });
     */
    visualize(opts: RenderedOptions): Promise<string>;
    /**
     * This array's graph (`visualize(x, opts)`) when the format is known only at run time.
     * @example
     * const picture = await ones([4], { chunks: 2 }).visualize({ format: userFormat });
     */
    visualize(opts?: VisualizeOptions): string | Promise<string>;
  }
}

for (const [name, fn] of Object.entries({
  ...methods,
  ...aliases,
  ...indexMethods,
  ...sizeMethods,
})) {
  Object.defineProperty(LazyArray.prototype, name, {
    value: function (this: LazyArray, ...args: unknown[]) {
      return (fn as Fn)(this, ...args);
    },
    writable: true,
    configurable: true,
  });
}

Object.defineProperties(LazyArray.prototype, {
  T: {
    get(this: LazyArray) {
      return tr.transpose(this);
    },
    configurable: true,
  },
  compute: {
    value(this: LazyArray, opts?: ComputeOptions) {
      return compute(this, opts);
    },
    configurable: true,
  },
  persist: {
    async value(this: LazyArray, opts?: ComputeOptions) {
      const [y] = await (opts ? persist(this, opts) : persist(this));
      return y;
    },
    configurable: true,
  },
  visualize: {
    value(this: LazyArray, opts?: VisualizeOptions) {
      return visualize(this, opts);
    },
    configurable: true,
  },
});
