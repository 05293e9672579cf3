// Dense references for shape manipulation: every output element read by its index.
// Deliberately naive (one multi-index per element) so they share no code with the kernels.

import { type DType, typedArrayCtor } from '../../src/array/dtype.ts';
import { NDArray, shapeSize } from '../../src/array/ndarray.ts';
import { at } from './reference.ts';

/** Build a dense array of `shape` whose element at `idx` is `f(idx)`. */
export function denseFrom(
  shape: readonly number[],
  dtype: DType,
  f: (idx: number[]) => number,
): NDArray {
  const data = new (typedArrayCtor(dtype))(shapeSize(shape));
  const idx = new Array<number>(shape.length).fill(0);
  for (let o = 0; o < data.length; o++) {
    data[o] = f(idx);
    for (let ax = shape.length - 1; ax >= 0; ax--) {
      if (++idx[ax]! < shape[ax]!) break;
      idx[ax] = 0;
    }
  }
  return new NDArray(data, shape, dtype);
}

export function denseTranspose(x: NDArray, axes: readonly number[]): NDArray {
  return denseFrom(
    axes.map((a) => x.shape[a]!),
    x.dtype,
    (idx) => {
      const src = new Array<number>(idx.length);
      axes.forEach((a, i) => {
        src[a] = idx[i]!;
      });
      return at(x, src);
    },
  );
}

export function denseFlip(x: NDArray, axes: readonly number[]): NDArray {
  return denseFrom(x.shape, x.dtype, (idx) =>
    at(
      x,
      idx.map((i, ax) => (axes.includes(ax) ? x.shape[ax]! - 1 - i : i)),
    ),
  );
}

export function denseBroadcast(x: NDArray, shape: readonly number[]): NDArray {
  const lead = shape.length - x.ndim;
  return denseFrom(shape, x.dtype, (idx) =>
    at(
      x,
      x.shape.map((n, k) => (n === 1 ? 0 : idx[k + lead]!)),
    ),
  );
}

/** Concatenate along `axis`, converting values to `dtype` as the library does. */
export function denseConcat(xs: readonly NDArray[], axis: number, dtype: DType): NDArray {
  const shape = [...xs[0]!.shape];
  shape[axis] = xs.reduce((s, x) => s + x.shape[axis]!, 0);
  return denseFrom(shape, dtype, (idx) => {
    let i = idx[axis]!;
    for (const x of xs) {
      if (i < x.shape[axis]!) {
        const v = at(
          x,
          idx.map((j, ax) => (ax === axis ? i : j)),
        );
        return dtype === 'bool' ? Number(v !== 0) : v;
      }
      i -= x.shape[axis]!;
    }
    throw new Error('denseConcat: index out of range');
  });
}
