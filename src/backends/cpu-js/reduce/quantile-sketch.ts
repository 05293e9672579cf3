// Mergeable quantile summaries for quantiles along chunked axes: per output element a sorted
// list of at most `resolution` weighted data values; merging two lists and compressing back
// to `resolution` points moves any value's estimated rank by at most W / (2·resolution).

import { allocate, type NumberArray, numberData } from '../../../array/dtype.ts';
import { NDArray } from '../../../array/ndarray.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';
import { offsetsOver, type QuantileBlockParams } from './quantile.ts';
import { lerp, quantilePick } from './quantile-methods.ts';

/** Params of the sketch steps; the final step also reads the quantile params. */
export interface SketchParams {
  /** Reduced axes of the input block (partial step). */
  readonly axes: readonly number[];
  readonly resolution: number;
}

/**
 * A sketch chunk, K output elements: `values`/`weights` [K, cap] (the first used[k] points
 * of row k, ascending), `used` [K], `nan` [K] (1 when a NaN was seen). Shapes of the
 * keepdims output are carried in `shape`.
 */
type Sketch = [NDArray, NDArray, NDArray, NDArray];

/** A sketch's values, weights and used counts as number storage (float64 blocks). */
interface SketchRows {
  readonly v: NumberArray;
  readonly w: NumberArray;
  readonly used: NumberArray;
  readonly cap: number;
}

/** The rows of each sketch, narrowed once per step rather than per row. */
function rowsOf(parts: readonly Sketch[]): SketchRows[] {
  return parts.map(([v, w, used]) => ({
    v: numberData(v.data, 'quantile'),
    w: numberData(w.data, 'quantile'),
    used: numberData(used.data, 'quantile'),
    cap: v.shape[1]!,
  }));
}

/** Indices of `m` points picked from cumulative weights `cum` (total W) at (j + ½)·W/m. */
function compressPicks(cum: Float64Array, n: number, m: number): Int32Array {
  const picks = new Int32Array(m);
  const total = cum[n - 1]!;
  let i = 0;
  for (let j = 0; j < m; j++) {
    const t = ((j + 0.5) * total) / m;
    while (i < n - 1 && cum[i]! <= t) i++;
    picks[j] = i;
  }
  return picks;
}

/** Write sorted points (vals, wts)[0..n) into row k of a sketch, compressed to cap. */
function writeRow(
  vals: Float64Array,
  wts: Float64Array,
  n: number,
  cap: number,
  out: { v: Float64Array; w: Float64Array; used: Float64Array },
  k: number,
): void {
  const base = k * cap;
  if (n <= cap) {
    out.v.set(vals.subarray(0, n), base);
    out.w.set(wts.subarray(0, n), base);
    out.used[k] = n;
    return;
  }
  const cum = new Float64Array(n);
  let c = 0;
  for (let i = 0; i < n; i++) cum[i] = c += wts[i]!;
  const picks = compressPicks(cum, n, cap);
  for (let j = 0; j < cap; j++) {
    out.v[base + j] = vals[picks[j]!]!;
    out.w[base + j] = c / cap;
  }
  out.used[k] = cap;
}

function sketchOf(K: number, cap: number, shape: readonly number[]) {
  const v = allocate('float64', K * cap) as Float64Array;
  const w = allocate('float64', K * cap) as Float64Array;
  const used = allocate('float64', K) as Float64Array;
  const nan = allocate('float64', K) as Float64Array;
  const pack = (): Sketch => [
    new NDArray(v, [K, cap], 'float64'),
    new NDArray(w, [K, cap], 'float64'),
    new NDArray(used, [...shape], 'float64'),
    new NDArray(nan, [...shape], 'float64'),
  ];
  return { v, w, used, nan, pack };
}

/** One block to a sketch: per output element its non-NaN values sorted, then compressed. */
export function sketchPartial(x: NDArray, p: SketchParams): Chunk {
  const shape = x.shape.map((n, ax) => (p.axes.includes(ax) ? 1 : n));
  const K = shape.reduce((a, b) => a * b, 1);
  const m = K === 0 ? 0 : x.size / K;
  const cap = Math.max(1, Math.min(p.resolution, m));
  const s = sketchOf(K, cap, shape);
  const inner = offsetsOver(x.shape, p.axes);
  const bases = offsetsOver(
    x.shape,
    x.shape.map((_, ax) => ax).filter((ax) => !p.axes.includes(ax)),
  );
  const vals = new Float64Array(m);
  const ones = new Float64Array(m).fill(1);
  const src = numberData(x.data, 'quantile');
  for (let k = 0; k < K; k++) {
    const base = bases[k]!;
    let n = 0;
    for (let i = 0; i < m; i++) {
      const v = src[base + inner[i]!]!;
      if (Number.isNaN(v)) s.nan[k] = 1;
      else vals[n++] = v;
    }
    vals.subarray(0, n).sort();
    writeRow(vals, ones, n, cap, s, k);
  }
  return s.pack();
}

/** All points of row k over `parts` (each sorted), merged by value; weights follow. */
function gatherRow(parts: readonly SketchRows[], k: number): { v: Float64Array; w: Float64Array } {
  let n = 0;
  for (const { used } of parts) n += used[k]!;
  let v = new Float64Array(n);
  let w = new Float64Array(n);
  let tv = new Float64Array(n);
  let tw = new Float64Array(n);
  let len = 0;
  for (const { v: pv, w: pw, used, cap } of parts) {
    const m = used[k]!;
    const off = k * cap;
    // two-way merge of v[0..len) with this part's row into tv, then swap
    let i = 0;
    let j = 0;
    let o = 0;
    while (i < len && j < m) {
      if (pv[off + j]! < v[i]!) {
        tv[o] = pv[off + j]!;
        tw[o++] = pw[off + j++]!;
      } else {
        tv[o] = v[i]!;
        tw[o++] = w[i++]!;
      }
    }
    for (; i < len; i++, o++) {
      tv[o] = v[i]!;
      tw[o] = w[i]!;
    }
    for (; j < m; j++, o++) {
      tv[o] = pv[off + j]!;
      tw[o] = pw[off + j]!;
    }
    [v, tv] = [tv, v];
    [w, tw] = [tw, w];
    len = o;
  }
  return { v, w };
}

/** Merge sketches in order and compress each row back to `resolution` points. */
export function sketchMerge(chunks: readonly Chunk[], p: SketchParams): Chunk {
  const parts = chunks as Sketch[];
  const shape = parts[0]![2].shape;
  const K = parts[0]![2].size;
  const total = parts.reduce((n, s) => n + s[0].shape[1]!, 0);
  const cap = Math.max(1, Math.min(p.resolution, total));
  const s = sketchOf(K, cap, shape);
  const rows = rowsOf(parts);
  for (let k = 0; k < K; k++) {
    const { v, w } = gatherRow(rows, k);
    writeRow(v, w, v.length, cap, s, k);
    for (const part of parts) if (part[3].data[k]) s.nan[k] = 1;
  }
  return s.pack();
}

/** The q-quantile of a row: exact (method) while every weight is 1, else the point at q·W. */
function rowQuantile(v: Float64Array, w: Float64Array, q: number, p: QuantileBlockParams): number {
  const n = v.length;
  let W = 0;
  for (let i = 0; i < n; i++) W += w[i]!;
  if (W === n) {
    const k = quantilePick(p.method, n, q);
    return k.prev === k.next ? v[k.prev]! : lerp(v[k.prev]!, v[k.next]!, k.gamma);
  }
  const t = q * W;
  let c = 0;
  for (let i = 0; i < n; i++) {
    c += w[i]!;
    if (t < c) return v[i]!;
  }
  return v[n - 1]!;
}

/** Merge the last level and read the quantiles: [nq?] + the kept shape (keepdims or not). */
export function sketchFinal(chunks: readonly Chunk[], p: QuantileBlockParams): NDArray {
  const parts = chunks as Sketch[];
  const keep = parts[0]![2].shape;
  const K = parts[0]![2].size;
  const out = numberData(allocate(p.dtype, K * p.qs.length), 'quantile');
  const rows = rowsOf(parts);
  for (let k = 0; k < K; k++) {
    const { v, w } = gatherRow(rows, k);
    const nan = parts.some((s) => s[3].data[k]);
    p.qs.forEach((q, i) => {
      out[i * K + k] = (nan && !p.skipNaN) || v.length === 0 ? Number.NaN : rowQuantile(v, w, q, p);
    });
  }
  const kept = keep.filter((_, ax) => p.keepdims || !p.axes.includes(ax));
  return new NDArray(out, p.qAxis ? [p.qs.length, ...kept] : kept, p.dtype);
}

/** Kernels by name; registered in backends/cpu-js/registry. */
export const quantileSketchKernels: Record<string, Kernel<never>> = {
  'quantile-sketch': ((inputs: Chunk[], p: SketchParams) =>
    sketchPartial(inputs[0] as NDArray, p)) as Kernel<never>,
  'quantile-sketch-merge': ((inputs: Chunk[], p: SketchParams) =>
    sketchMerge(inputs, p)) as Kernel<never>,
  'quantile-sketch-final': ((inputs: Chunk[], p: QuantileBlockParams) =>
    sketchFinal(inputs, p)) as Kernel<never>,
};
