// diff and gradient along chunked axes (NumPy's np.diff and np.gradient with unit spacing):
// each block gets its neighbours' edge elements through overlap, then one stencil kernel.

import { full } from '../array/creation.ts';
import { isBigDType, isFloat, resultType } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import { LazyArray } from '../array/lazy-array.ts';
import type { DiffAxisParams, GradientAxisParams } from '../backends/cpu-js/stencil/difference.ts';
import { formatValue } from '../chunking/format.ts';
import type { Size } from '../chunking/types.ts';
import { ChunkError, DTypeError, ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import { normalizeAxes, normalizeAxis } from './axis-args.ts';
import { concat } from './concat.ts';
import { astype } from './elementwise-logic.ts';
import { overlapFor } from './overlap.ts';
import { rechunk } from './rechunk.ts';

/** Options of diff. */
export interface DiffOptions {
  /** The axis to difference along (default -1, as NumPy's). */
  readonly axis?: number;
  /** How many times to difference (default 1). */
  readonly n?: number;
  /** Values joined before x along the axis first: an array (x's shape but that axis) or a number. */
  readonly prepend?: ArrayLike | number;
  /** Values joined after x along the axis first, as `prepend`. */
  readonly append?: ArrayLike | number;
}

/** `x` with `prepend` and `append` joined along `axis` (a number is one slice of it). */
function withEnds(x: LazyArray, axis: number, opts: DiffOptions): LazyArray {
  if (opts.prepend === undefined && opts.append === undefined) return x;
  const end = (v: ArrayLike | number): LazyArray => {
    if (typeof v !== 'number') return asLazy(v, 'diff');
    const shape = x.shape.map((s, ax) => (ax === axis ? 1 : s));
    if (shape.some((s) => s === null)) {
      throw new ChunkError('diff: x has unknown sizes; call computeChunkSizes(x) first');
    }
    return full(shape as number[], v, { dtype: resultType(x.dtype, v) });
  };
  const parts = [
    ...(opts.prepend === undefined ? [] : [end(opts.prepend)]),
    x,
    ...(opts.append === undefined ? [] : [end(opts.append)]),
  ];
  return concat(parts, { axis });
}

/** The known size of `axis`, or a ChunkError pointing at computeChunkSizes. */
function knownSize(fn: string, x: LazyArray, axis: number): number {
  const n = x.shape[axis];
  if (n === null || n === undefined) {
    throw new ChunkError(
      `${fn}: axis ${axis} has unknown chunk sizes; call computeChunkSizes(x) first`,
    );
  }
  return n;
}

/**
 * The n-th discrete difference along `axis`: `out[i] = x[i + 1] - x[i]`, applied `n` times,
 * so the axis gets `n` shorter (NumPy's `diff`; bool arrays give not-equal), after joining
 * `prepend` and `append` along the axis (the Array API's signature). Blocks read the first
 * `n` elements of the next block only.
 * @example
 * diff(fromArray([1, 4, 9, 16], { chunks: 2 })).compute().toNested(); // [3, 5, 7]
 */
export function diff<
  X extends ArrayLike,
  P extends ArrayLike | number = never,
  E extends ArrayLike | number = never,
>(
  x: X,
  opts: DiffOptions & { readonly prepend?: P; readonly append?: E } = {},
): LazyArray<KnownIn<[X, P, E]>> {
  const a = asLazy(x);
  if (a.ndim === 0) throw new ValueError('diff: needs an array of at least one dimension');
  const axis = normalizeAxis('diff', opts.axis ?? -1, a.ndim);
  const n = opts.n ?? 1;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
    throw new ValueError(`diff: n ${formatValue(n)} is not a non-negative integer`);
  }
  if (n === 0) return withEnds(a, axis, opts) as LazyArray<KnownIn<[X, P, E]>>;
  return diffOf(withEnds(a, axis, opts), axis, n) as LazyArray<KnownIn<[X, P, E]>>;
}

function diffOf(a: LazyArray, axis: number, n: number): LazyArray {
  const size = knownSize('diff', a, axis);
  // n ≥ size leaves nothing: one whole block whose difference is empty
  const y =
    n >= size ? rechunk(a, { [axis]: -1 }) : overlapFor('diff', a, { [axis]: [0, n] }, 'none');
  const chunks = y.chunks.map((c, ax) =>
    ax === axis ? c.map((s) => Math.max(0, s! - n)) : [...c],
  ) as Size[][];
  const params: DiffAxisParams = { axis, n };
  const layer = defineLayer({
    op: 'diff',
    token: [axis, n],
    deps: [y.layer],
    chunks,
    dtype: a.dtype,
    fusable: true,
    task: (b) => ({ kernel: 'diff-axis', inputs: [[0, b]], params }),
  });
  return new LazyArray(layer);
}

/** The gradient along one axis: halos of one element, then 'gradient-axis'. */
function gradientAlong(a: LazyArray, axis: number): LazyArray {
  const size = knownSize('gradient', a, axis);
  if (size < 2) {
    throw new ValueError(
      `gradient: axis ${axis} has ${size} element(s); at least 2 are needed (edge_order 1)`,
    );
  }
  const dtype = isFloat(a.dtype) ? a.dtype : 'float64';
  // NumPy's gradient converts int64/uint64 to float64 first (rounded past 2^53)
  const y = overlapFor(
    'gradient',
    isBigDType(a.dtype) ? astype(a, 'float64') : a,
    { [axis]: 1 },
    'none',
  );
  const last = y.chunks[axis]!.length - 1;
  const halo = (k: number) => ({ before: k > 0 ? 1 : 0, after: k < last ? 1 : 0 });
  const chunks = y.chunks.map((c, ax) =>
    ax === axis
      ? c.map((s, k) => {
          const h = halo(k);
          return s! - h.before - h.after;
        })
      : [...c],
  ) as Size[][];
  const layer = defineLayer({
    op: 'gradient',
    token: [axis],
    deps: [y.layer],
    chunks,
    dtype,
    fusable: true,
    task: (b) => {
      const params: GradientAxisParams = { axis, dtype, ...halo(b[axis]!) };
      return { kernel: 'gradient-axis', inputs: [[0, b]], params };
    },
  });
  return new LazyArray(layer);
}

/**
 * The gradient of `x` with unit spacing (NumPy's `gradient`, edge_order 1): central
 * differences `(x[i + 1] - x[i - 1]) / 2` inside, one-sided ones at the two ends, the shape
 * of `x`. One axis gives one array; several axes (default: all) give one array per axis.
 * Integer inputs give float64.
 * @example
 * gradient(fromArray([1, 2, 4, 7, 11], { chunks: 2 }), { axis: 0 }).compute().toNested();
 * // [1, 1.5, 2.5, 3.5, 4]
 */
export function gradient<X extends ArrayLike>(
  x: X,
  opts: { axis: number },
): LazyArray<KnownIn<[X]>>;
export function gradient<X extends ArrayLike>(
  x: X,
  opts?: { axis?: readonly number[] },
): LazyArray<KnownIn<[X]>>[];
export function gradient(
  x: ArrayLike,
  opts: { axis?: number | readonly number[] } = {},
): LazyArray | LazyArray[] {
  const a = asLazy(x);
  if (a.dtype === 'bool') {
    throw new DTypeError("gradient: dtype 'bool' has no subtraction; cast with astype first");
  }
  if (typeof opts.axis === 'number') {
    return gradientAlong(a, normalizeAxis('gradient', opts.axis, a.ndim));
  }
  const axes =
    opts.axis === undefined
      ? [...Array(a.ndim).keys()]
      : normalizeAxes('gradient', opts.axis, a.ndim);
  return axes.map((ax) => gradientAlong(a, ax));
}
