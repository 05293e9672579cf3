// 'correlate-nd' and 'rank-filter': N-d window kernels over a block that already holds its
// halos (scipy.ndimage's correlate and rank/median filters); the halos are consumed.

import { allocate, numberData } from '../../../array/dtype.ts';
import { cStrides, NDArray, shapeSize } from '../../../array/ndarray.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';

/** Params of 'correlate-nd': `weights` (C order, shape `size`) correlated with the block. */
export interface CorrelateNdParams {
  readonly size: readonly number[];
  readonly weights: readonly number[];
}

/** Params of 'rank-filter': the `rank`-th smallest of each `size` window (0-based). */
export interface RankFilterParams {
  readonly size: readonly number[];
  readonly rank: number;
}

/** Flat offsets, in the block's strides, of every window position (C order). */
function windowOffsets(size: readonly number[], strides: readonly number[]): Int32Array {
  const out = new Int32Array(shapeSize(size));
  const idx = new Array<number>(size.length).fill(0);
  for (let j = 0; j < out.length; j++) {
    let off = 0;
    for (let ax = 0; ax < size.length; ax++) off += idx[ax]! * strides[ax]!;
    out[j] = off;
    for (let ax = size.length - 1; ax >= 0; ax--) {
      if (++idx[ax]! < size[ax]!) break;
      idx[ax] = 0;
    }
  }
  return out;
}

/** Call `visit(o, base)` for every output element o and its window's first block index. */
function eachWindow(x: NDArray, size: readonly number[], visit: (o: number, base: number) => void) {
  const shape = x.shape.map((s, ax) => s - size[ax]! + 1);
  const strides = cStrides(x.shape);
  const n = shapeSize(shape);
  const idx = new Array<number>(shape.length).fill(0);
  for (let o = 0; o < n; o++) {
    let base = 0;
    for (let ax = 0; ax < shape.length; ax++) base += idx[ax]! * strides[ax]!;
    visit(o, base);
    for (let ax = shape.length - 1; ax >= 0; ax--) {
      if (++idx[ax]! < shape[ax]!) break;
      idx[ax] = 0;
    }
  }
  return shape;
}

function correlateNd(inputs: Chunk[], p: CorrelateNdParams): NDArray {
  const x = arrayBlock(inputs[0], 'window filter');
  const offs = windowOffsets(p.size, cStrides(x.shape));
  const w = Float64Array.from(p.weights);
  const f = numberData(x.data, 'correlate');
  const out = numberData(
    allocate(x.dtype, shapeSize(x.shape.map((s, ax) => s - p.size[ax]! + 1))),
    'correlate',
  );
  const shape = eachWindow(x, p.size, (o, base) => {
    let acc = 0;
    for (let j = 0; j < offs.length; j++) acc += w[j]! * f[base + offs[j]!]!;
    out[o] = acc; // integer dtypes truncate toward zero, as scipy's C casts
  });
  return new NDArray(out, shape, x.dtype);
}

/** The k-th smallest of v[0..n) (Hoare's quickselect; v is reordered). */
export function selectKth(v: Float64Array, n: number, k: number): number {
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const pivot = v[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (v[i]! < pivot) i++;
      while (v[j]! > pivot) j--;
      if (i <= j) {
        const t = v[i]!;
        v[i++] = v[j]!;
        v[j--] = t;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return v[k]!;
  }
  return v[k]!;
}

function rankFilter(inputs: Chunk[], p: RankFilterParams): NDArray {
  const x = arrayBlock(inputs[0], 'window filter');
  const offs = windowOffsets(p.size, cStrides(x.shape));
  const f = numberData(x.data, 'rank filter');
  const win = new Float64Array(offs.length);
  const out = numberData(
    allocate(x.dtype, shapeSize(x.shape.map((s, ax) => s - p.size[ax]! + 1))),
    'rank filter',
  );
  const shape = eachWindow(x, p.size, (o, base) => {
    for (let j = 0; j < offs.length; j++) win[j] = f[base + offs[j]!]!;
    out[o] = selectKth(win, offs.length, p.rank);
  });
  return new NDArray(out, shape, x.dtype);
}

/** N-d window kernels, registered in backends/cpu-js/registry. */
export const windowKernels: Record<string, Kernel<never>> = {
  'correlate-nd': correlateNd as Kernel<never>,
  'rank-filter': rankFilter as Kernel<never>,
};
