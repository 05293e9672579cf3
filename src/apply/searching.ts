// nonzero, searchsorted and takeAlongAxis (Array API searching/indexing functions).
// nonzero masks coordinate arrays (unknown sizes, C order); searchsorted counts per chunk
// of the sorted array and sums the counts, so neither input is gathered into one block.

import { checkOptions } from '../array/check-options.ts';
import { arange } from '../array/creation.ts';
import { isBigDType, isInteger, promoteTypes } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import { LazyArray } from '../array/lazy-array.ts';
import { broadcastShapes } from '../chunking/broadcast.ts';
import { formatValue } from '../chunking/format.ts';
import type { Chunks, Size } from '../chunking/types.ts';
import { ChunkError, DTypeError, IndexError, ShapeError, ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import { broadcastTo } from './axes.ts';
import { normalizeAxis } from './axis-args.ts';
import { astype, notEqual } from './elementwise-logic.ts';
import { mask } from './indexing.ts';
import { rechunk } from './rechunk.ts';
import { sum } from './reductions.ts';
import { reshape } from './reshape.ts';
import { take } from './take.ts';

function knownShape(fn: string, x: LazyArray): number[] {
  if (x.shape.some((s) => s === null)) {
    throw new ChunkError(
      `${fn}: x of shape ${formatValue(x.shape)} has unknown sizes; call computeChunkSizes(x) first`,
    );
  }
  return x.shape as number[];
}

/**
 * The indices of the nonzero (true) elements, one int32 array per axis, in C order; each
 * of unknown length. A 0-d array is a ValueError (as the standard says).
 * @example
 * const [rows, cols] = nonzero(fromArray([[0, 1], [2, 0]])); // [0, 1] and [1, 0]
 */
export function nonzero(x: ArrayLike): LazyArray[] {
  const a = asLazy(x, 'nonzero');
  if (a.ndim === 0) throw new ValueError('nonzero: x must have at least one axis, got a 0-d array');
  const shape = knownShape('nonzero', a);
  const m = a.dtype === 'bool' ? a : notEqual(a, 0);
  return shape.map((n, ax) => {
    const line = arange(n, { chunks: [[...(a.chunks[ax] as number[])]] as Chunks, dtype: 'int32' });
    const coord = reshape(
      line,
      shape.map((s, j) => (j === ax ? s : 1)),
    );
    return mask(broadcastTo(coord, shape), m);
  });
}

/** Options of searchsorted. */
export interface SearchsortedOptions {
  /** 'left' (default): the first index where x2 could go; 'right': the last. */
  side?: 'left' | 'right';
  /** Indices that sort x1 (it is then read through them), as argsort gives. */
  sorter?: ArrayLike;
}

/**
 * Where the elements of x2 would be inserted into the sorted 1-D x1 to keep it sorted
 * (int32, x2's shape). Each chunk of x1 counts its elements before each x2 value and the
 * counts are summed, so x1 stays chunked. NaN sorts last. With int64 or uint64 on either
 * side both are cast to their common dtype first, as NumPy does: int64 with int32 compares
 * exactly as BigInts; with float64 (or int64 with uint64) both compare as float64.
 * @example
 * searchsorted(fromArray([1, 2, 2, 3], { chunks: 2 }), fromArray([2, 5]), { side: 'right' }); // [3, 4]
 */
export function searchsorted<X1 extends ArrayLike, X2 extends ArrayLike>(
  x1: X1,
  x2: X2,
  opts?: SearchsortedOptions,
): LazyArray<KnownIn<[X1, X2]>> {
  const o = checkOptions('searchsorted', opts);
  let a: LazyArray = asLazy(x1, 'searchsorted');
  let v: LazyArray = asLazy(x2, 'searchsorted');
  if (a.ndim !== 1) {
    throw new ShapeError(`searchsorted: x1 must be 1-D, got shape ${formatValue(a.shape)}`);
  }
  const side = o.side ?? 'left';
  if (side !== 'left' && side !== 'right') {
    throw new ValueError(`searchsorted: side ${formatValue(side)} is not 'left' or 'right'`);
  }
  if (o.sorter !== undefined) a = take(a, asLazy(o.sorter, 'searchsorted'));
  knownShape('searchsorted', a);
  if (isBigDType(a.dtype) || isBigDType(v.dtype)) {
    // the kernel's BigInt path compares blocks of one dtype (casts keep x1 sorted)
    const common = promoteTypes(a.dtype, v.dtype);
    if (a.dtype !== common) a = astype(a, common);
    if (v.dtype !== common) v = astype(v, common);
  }
  const counts = defineLayer({
    op: 'searchsorted-count',
    token: [side],
    deps: [a.layer, v.layer],
    chunks: [a.chunks[0]!.map(() => 1), ...v.chunks],
    dtype: 'int32',
    task: (b) => ({
      kernel: 'searchsorted-count',
      inputs: [
        [0, [b[0]!]],
        [1, b.slice(1)],
      ],
      params: { right: side === 'right' },
    }),
  });
  return sum(new LazyArray(counts), { axis: 0, dtype: 'int32' }) as LazyArray<KnownIn<[X1, X2]>>;
}

/**
 * Elements of x at `indices` along `axis` (default -1): x and indices have the same number
 * of axes and broadcast on the others (NumPy's take_along_axis), as argsort's output does.
 * @example
 * const x = fromArray([[3, 1, 2]]);
 * takeAlongAxis(x, argsort(x), { axis: 1 }); // [[1, 2, 3]]
 */
export function takeAlongAxis<X extends ArrayLike, I extends ArrayLike>(
  x: X,
  indices: I,
  opts?: { axis?: number },
): LazyArray<KnownIn<[X, I]>> {
  const o = checkOptions('takeAlongAxis', opts);
  const a = asLazy(x, 'takeAlongAxis');
  const idx = asLazy(indices, 'takeAlongAxis');
  if (!isInteger(idx.dtype)) {
    throw new DTypeError(`takeAlongAxis: indices must be integers, got dtype '${idx.dtype}'`);
  }
  if (a.ndim !== idx.ndim) {
    throw new ShapeError(
      `takeAlongAxis: x has ${a.ndim} axes and indices ${idx.ndim}; they must have the same number`,
    );
  }
  const axis = normalizeAxis('takeAlongAxis', o.axis ?? -1, a.ndim);
  const xs = knownShape('takeAlongAxis', a);
  const is = knownShape('takeAlongAxis', idx);
  const others = broadcastShapes(
    'takeAlongAxis',
    xs.map((s, ax) => (ax === axis ? 1 : s)),
    is.map((s, ax) => (ax === axis ? 1 : s)),
  ) as number[];
  const bx = broadcastTo(
    a,
    others.map((s, ax) => (ax === axis ? xs[axis]! : s)),
  );
  const bi = broadcastTo(
    idx,
    others.map((s, ax) => (ax === axis ? is[axis]! : s)),
  );
  if (xs[axis] === 0 && is[axis]! > 0) {
    throw new IndexError('takeAlongAxis: cannot take from an empty axis');
  }
  const whole = (c: readonly Size[], ax: number, from: LazyArray): Size[] =>
    ax === axis ? [from.shape[axis]!] : [...c];
  const xr = rechunk(bx, bx.chunks.map((c, ax) => whole(c, ax, bx)) as Chunks);
  const ir = rechunk(bi, xr.chunks.map((c, ax) => whole(c, ax, bi)) as Chunks);
  const layer = defineLayer({
    op: 'take-along-axis',
    token: [axis],
    deps: [xr.layer, ir.layer],
    chunks: ir.chunks,
    dtype: a.dtype,
    task: (b) => ({
      kernel: 'take-along-axis',
      inputs: [
        [0, b],
        [1, b],
      ],
      params: { axis },
    }),
  });
  return new LazyArray(layer);
}
