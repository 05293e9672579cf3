// Layout kernels: blocks permuted, reshaped, flipped, broadcast or converted, never computed on.
// Reshapes and inserted/removed unit axes are zero-copy views of the input block's data.

import { castData } from '../../../array/cast.ts';
import {
  allocate,
  type DType,
  isComplex,
  realDType,
  type TypedArray,
} from '../../../array/dtype.ts';
import { cStrides, NDArray, shapeSize } from '../../../array/ndarray.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';
import { sliceND } from './slice.ts';

/**
 * Copy `src` read through per-axis `strides` (0 repeats an element) from `base` into a new
 * C-contiguous array of `shape`: the one loop behind transpose and broadcast. Strides and
 * base count elements (complex: pairs of floats, gathered as a trailing axis of 2).
 */
export function gatherStrided(
  src: TypedArray,
  base: number,
  strides: readonly number[],
  shape: readonly number[],
  dtype: DType,
): NDArray {
  if (isComplex(dtype)) {
    const parts = gatherStrided(
      src,
      2 * base,
      [...strides.map((s) => 2 * s), 1],
      [...shape, 2],
      realDType(dtype),
    );
    return new NDArray(parts.data, shape, dtype);
  }
  const total = shapeSize(shape);
  const out = allocate(dtype, total);
  const nd = shape.length;
  if (total === 0) return new NDArray(out, shape, dtype);
  if (nd === 0) {
    out[0] = src[base]!;
    return new NDArray(out, shape, dtype);
  }
  const last = nd - 1;
  const innerN = shape[last]!;
  const innerStep = strides[last]!;
  const idx = new Array<number>(nd).fill(0);
  let off = base;
  let o = 0;
  for (;;) {
    for (let i = 0, s = off; i < innerN; i++, s += innerStep) out[o++] = src[s]!;
    let ax = last - 1;
    for (; ax >= 0; ax--) {
      idx[ax]!++;
      off += strides[ax]!;
      if (idx[ax]! < shape[ax]!) break;
      off -= shape[ax]! * strides[ax]!;
      idx[ax] = 0;
    }
    if (ax < 0) break;
  }
  return new NDArray(out, shape, dtype);
}

/**
 * Permute the axes of a block: output axis i is input axis `axes[i]`.
 * @example
 * permuteBlock(x, [1, 0]); // the transpose of a 2-d block
 */
export function permuteBlock(x: NDArray, axes: readonly number[]): NDArray {
  const st = cStrides(x.shape);
  return gatherStrided(
    x.data,
    0,
    axes.map((a) => st[a]!),
    axes.map((a) => x.shape[a]!),
    x.dtype,
  );
}

/**
 * Broadcast a block to `shape` (right-aligned; size-1 axes repeat).
 * @example
 * broadcastBlock(ndarray([1, 2], [1, 2]), [3, 2]).toNested(); // [[1, 2], [1, 2], [1, 2]]
 */
export function broadcastBlock(x: NDArray, shape: readonly number[]): NDArray {
  const lead = shape.length - x.shape.length;
  const st = cStrides(x.shape);
  const strides = shape.map((n, ax) => {
    const i = ax - lead;
    if (i < 0) return 0;
    return x.shape[i] === 1 && n !== 1 ? 0 : st[i]!;
  });
  return gatherStrided(x.data, 0, strides, shape, x.dtype);
}

/**
 * Reverse a block along `axes`.
 * @example
 * flipBlock(ndarray([1, 2, 3]), [0]).toArray(); // [3, 2, 1]
 */
export function flipBlock(x: NDArray, axes: readonly number[]): NDArray {
  const flipped = new Set(axes);
  return sliceND(x, {
    start: x.shape.map((n, ax) => (flipped.has(ax) ? n - 1 : 0)),
    step: x.shape.map((_, ax) => (flipped.has(ax) ? -1 : 1)),
    count: x.shape,
  });
}

/**
 * The block's data under a new shape (one -1 is inferred): a view, no copy.
 * @example
 * reshapeBlock(ndarray([1, 2, 3, 4]), [2, -1]).shape; // [2, 2]
 */
export function reshapeBlock(x: NDArray, shape: readonly number[]): NDArray {
  const known = shape.reduce((a, s) => (s === -1 ? a : a * s), 1);
  const sh = shape.map((s) => (s === -1 ? (known === 0 ? 0 : x.size / known) : s));
  return new NDArray(x.data, sh, x.dtype);
}

/**
 * The block converted to `dtype` (the block itself when it already has it). Conversion
 * to bool is `x != 0`; to integers it truncates (as a C cast).
 * @example
 * convertBlock(ndarray([0.5, 0]), 'bool').toArray(); // [1, 0]
 */
export function convertBlock(x: NDArray, dtype: DType): NDArray {
  if (x.dtype === dtype) return x;
  return new NDArray(castData(x.data, x.dtype, dtype), x.shape, dtype);
}

/** Layout kernels by name; registered in backends/cpu-js/registry. */
export const layoutKernels: Record<string, Kernel<never>> = {
  /** Permute axes: params `{ axes }`. */
  transpose: ((inputs: Chunk[], p: { axes: number[] }) =>
    permuteBlock(arrayBlock(inputs[0], 'layout kernel'), p.axes)) as Kernel<never>,
  /** View under a new shape: params `{ shape }` (one -1 allowed). */
  reshape: ((inputs: Chunk[], p: { shape: number[] }) =>
    reshapeBlock(arrayBlock(inputs[0], 'layout kernel'), p.shape)) as Kernel<never>,
  /** Insert unit axes at the sorted output positions `axes` (a view). */
  'expand-dims': ((inputs: Chunk[], p: { axes: number[] }) => {
    const x = arrayBlock(inputs[0], 'layout kernel');
    const shape = [...x.shape];
    for (const a of p.axes) shape.splice(a, 0, 1);
    return new NDArray(x.data, shape, x.dtype);
  }) as Kernel<never>,
  /** Remove the unit axes `axes` (a view). */
  squeeze: ((inputs: Chunk[], p: { axes: number[] }) => {
    const x = arrayBlock(inputs[0], 'layout kernel');
    const drop = new Set(p.axes);
    return new NDArray(
      x.data,
      x.shape.filter((_, ax) => !drop.has(ax)),
      x.dtype,
    );
  }) as Kernel<never>,
  /** Reverse along axes: params `{ axes }`. */
  flip: ((inputs: Chunk[], p: { axes: number[] }) =>
    flipBlock(arrayBlock(inputs[0], 'layout kernel'), p.axes)) as Kernel<never>,
  /** Broadcast to a block shape: params `{ shape }`. */
  broadcast: ((inputs: Chunk[], p: { shape: number[] }) =>
    broadcastBlock(arrayBlock(inputs[0], 'layout kernel'), p.shape)) as Kernel<never>,
  /** Convert to a dtype (identity when equal): params `{ dtype }`. */
  convert: ((inputs: Chunk[], p: { dtype: DType }) =>
    convertBlock(arrayBlock(inputs[0], 'layout kernel'), p.dtype)) as Kernel<never>,
};
