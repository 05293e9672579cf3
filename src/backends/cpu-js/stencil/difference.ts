// Finite differences along one axis of a block that already holds its halos:
// 'diff-axis' (NumPy's diff, n times) and 'gradient-axis' (np.gradient, unit spacing).

import {
  allocate,
  type BigIntArray,
  type DType,
  isBigIntArray,
  numberData,
} from '../../../array/dtype.ts';
import { NDArray, shapeSize } from '../../../array/ndarray.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';

/** Params of 'diff-axis': difference `n` times along `axis` (bool: not-equal, as NumPy). */
export interface DiffAxisParams {
  readonly axis: number;
  readonly n: number;
}

/**
 * Params of 'gradient-axis': the block holds `before`/`after` halo elements (0 or 1) along
 * `axis`; a missing one means the array's edge, where the difference is one-sided.
 */
export interface GradientAxisParams {
  readonly axis: number;
  readonly before: number;
  readonly after: number;
  readonly dtype: DType;
}

/** Outer, axis and inner extents of a C-contiguous shape around `axis`. */
function split(shape: readonly number[], axis: number) {
  return {
    outer: shapeSize(shape.slice(0, axis)),
    len: shape[axis]!,
    inner: shapeSize(shape.slice(axis + 1)),
  };
}

function diffAxis(inputs: Chunk[], p: DiffAxisParams): NDArray {
  const x = arrayBlock(inputs[0], 'difference');
  const { outer, len, inner } = split(x.shape, p.axis);
  const m = Math.max(0, len - p.n);
  if (isBigIntArray(x.data)) return bigDiffAxis(x, x.data, p, outer, len, inner, m);
  // passes in the input's own type, so integers wrap and float32 rounds as NumPy's do
  const work = numberData(x.data, 'diff').slice();
  const isBool = x.dtype === 'bool';
  // each pass keeps the layout [outer, len, inner] and shortens the live part by one
  for (let pass = 0; pass < p.n; pass++) {
    const live = len - pass - 1;
    for (let o = 0; o < outer; o++) {
      for (let i = 0; i < live; i++) {
        const at = (o * len + i) * inner;
        for (let k = 0; k < inner; k++) {
          const a = work[at + k]!;
          const b = work[at + inner + k]!;
          work[at + k] = isBool ? (a !== b ? 1 : 0) : b - a;
        }
      }
    }
  }
  const shape = x.shape.map((s, ax) => (ax === p.axis ? m : s));
  const out = numberData(allocate(x.dtype, shapeSize(shape)), 'diff');
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < m; i++) {
      for (let k = 0; k < inner; k++)
        out[(o * m + i) * inner + k] = work[(o * len + i) * inner + k]!;
    }
  }
  return new NDArray(out, shape, x.dtype);
}

/** {@link diffAxis} of an int64/uint64 block: BigInt differences, stored modulo 2^64. */
function bigDiffAxis(
  x: NDArray,
  data: BigIntArray,
  p: DiffAxisParams,
  outer: number,
  len: number,
  inner: number,
  m: number,
): NDArray {
  const work = data.slice();
  for (let pass = 0; pass < p.n; pass++) {
    const live = len - pass - 1;
    for (let o = 0; o < outer; o++) {
      for (let i = 0; i < live; i++) {
        const at = (o * len + i) * inner;
        for (let k = 0; k < inner; k++) work[at + k] = work[at + inner + k]! - work[at + k]!;
      }
    }
  }
  const shape = x.shape.map((s, ax) => (ax === p.axis ? m : s));
  const out = allocate(x.dtype, shapeSize(shape)) as BigIntArray;
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < m; i++) {
      const from = (o * len + i) * inner;
      out.set(work.subarray(from, from + inner), (o * m + i) * inner);
    }
  }
  return new NDArray(out, shape, x.dtype);
}

function gradientAxis(inputs: Chunk[], p: GradientAxisParams): NDArray {
  const x = arrayBlock(inputs[0], 'difference');
  const { outer, len, inner } = split(x.shape, p.axis);
  const m = len - p.before - p.after;
  const shape = x.shape.map((s, ax) => (ax === p.axis ? m : s));
  const out = numberData(allocate(p.dtype, shapeSize(shape)), 'gradient');
  const f = numberData(x.data, 'gradient');
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < m; i++) {
      const e = i + p.before;
      const lo = e > 0 ? e - 1 : e;
      const hi = e < len - 1 ? e + 1 : e;
      const scale = hi - lo === 2 ? 0.5 : 1;
      const a = (o * len + lo) * inner;
      const b = (o * len + hi) * inner;
      const d = (o * m + i) * inner;
      for (let k = 0; k < inner; k++) out[d + k] = (f[b + k]! - f[a + k]!) * scale;
    }
  }
  return new NDArray(out, shape, p.dtype);
}

/** Difference kernels, registered in backends/cpu-js/registry. */
export const differenceKernels: Record<string, Kernel<never>> = {
  /** NumPy's diff along one axis, n times (output n shorter). */
  'diff-axis': diffAxis as Kernel<never>,
  /** np.gradient along one axis: central inside, one-sided at the array's edges. */
  'gradient-axis': gradientAxis as Kernel<never>,
};
