// 'topk-block': the k largest (k < 0: smallest) elements along one axis of its inputs, sorted
// (dask.array.topk's chunk and aggregate steps); with `arg`, their global indices travel along.
// int64 and uint64 blocks compare as BigInts, exactly.

import { allocate, type DType, isBigDType } from '../../../array/dtype.ts';
import { NDArray, shapeSize } from '../../../array/ndarray.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';

/**
 * Params of 'topk-block'. Inputs are raw blocks (the first step; `offsets` gives each one's
 * global start along `axis`) or earlier steps' results: values, or `[values, indices]`
 * tuples when `arg`. `last` returns the indices alone (argtopk's output).
 */
export interface TopkParams {
  readonly axis: number;
  readonly k: number;
  readonly arg: boolean;
  readonly last: boolean;
  readonly offsets?: readonly number[];
}

/**
 * Whether a comes before b: larger first for k > 0 (NaN largest, as NumPy sorts), smaller
 * first for k < 0; ties by the lower index. BigInts (int64, uint64) compare exactly.
 */
function before(
  desc: boolean,
  va: number | bigint,
  ia: number,
  vb: number | bigint,
  ib: number,
): boolean {
  const na = Number.isNaN(va);
  const nb = Number.isNaN(vb);
  if (na || nb) {
    if (na && nb) return ia < ib;
    return desc ? na : nb;
  }
  if (va !== vb) return desc ? va > vb : va < vb;
  return ia < ib;
}

/** Storage read and written element by element, numbers or BigInts alike. */
type Slots = { [i: number]: number | bigint };

interface Part {
  values: NDArray;
  data: Slots;
  indices: Int32Array | null;
  offset: number;
}

function partsOf(inputs: Chunk[], p: TopkParams): Part[] {
  return inputs.map((c, i) => {
    if (c instanceof NDArray) {
      return { values: c, data: c.data as Slots, indices: null, offset: p.offsets?.[i] ?? 0 };
    }
    const [values, indices] = c as [NDArray, NDArray];
    return { values, data: values.data as Slots, indices: indices.data as Int32Array, offset: 0 };
  });
}

function topkBlock(inputs: Chunk[], p: TopkParams): Chunk {
  const parts = partsOf(inputs, p);
  const shape0 = parts[0]!.values.shape;
  const outer = shapeSize(shape0.slice(0, p.axis));
  const inner = shapeSize(shape0.slice(p.axis + 1));
  const total = parts.reduce((n, q) => n + q.values.shape[p.axis]!, 0);
  const m = Math.min(Math.abs(p.k), total);
  const desc = p.k > 0;
  const dtype: DType = parts[0]!.values.dtype;
  const outShape = shape0.map((s, ax) => (ax === p.axis ? m : s));
  const out = allocate(dtype, shapeSize(outShape));
  const outV = out as Slots;
  const outI = new Int32Array(out.length);
  // the best m so far: float64 holds every number dtype's values; BigInts keep their own
  const bufV = (isBigDType(dtype) ? allocate(dtype, m) : new Float64Array(m)) as Slots;
  const bufI = new Float64Array(m);
  for (let o = 0; o < outer; o++) {
    for (let r = 0; r < inner; r++) {
      let filled = 0;
      for (const q of parts) {
        const len = q.values.shape[p.axis]!;
        const d = q.data;
        for (let j = 0; j < len; j++) {
          const at = (o * len + j) * inner + r;
          const v = d[at]!;
          const idx = q.indices === null ? q.offset + j : q.indices[at]!;
          if (filled === m && !before(desc, v, idx, bufV[m - 1]!, bufI[m - 1]!)) continue;
          // insertion into the sorted buffer of the best m so far
          let s = filled === m ? m - 1 : filled++;
          while (s > 0 && before(desc, v, idx, bufV[s - 1]!, bufI[s - 1]!)) {
            bufV[s] = bufV[s - 1]!;
            bufI[s] = bufI[s - 1]!;
            s--;
          }
          bufV[s] = v;
          bufI[s] = idx;
        }
      }
      for (let j = 0; j < m; j++) {
        const at = (o * m + j) * inner + r;
        outV[at] = bufV[j]!;
        outI[at] = bufI[j]!;
      }
    }
  }
  const values = new NDArray(out, outShape, dtype);
  const indices = new NDArray(outI, outShape, 'int32');
  if (!p.arg) return values;
  return p.last ? indices : [values, indices];
}

/** Top-k kernels, registered in backends/cpu-js/registry. */
export const topkKernels: Record<string, Kernel<never>> = {
  'topk-block': topkBlock as Kernel<never>,
};
