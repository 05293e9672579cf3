// Histograms of generated sources: a fused task whose 'histogram-block' reads one source
// block (random, full, arange, linspace, npy-read) generates it tile by tile into a small
// per-thread scratch buffer and counts each tile, so the block is never materialized.
// Counts are whole numbers added one at a time, so they equal the unfused kernel's exactly.

import {
  type DType,
  isBigDType,
  isComplex,
  type TypedArray,
  typedArrayCtor,
} from '../../../array/dtype.ts';
import { NDArray, shapeSize } from '../../../array/ndarray.ts';
import { countValues, type HistogramBlockParams } from '../reduce/histogram.ts';
import type { FusedParams } from '../registry.ts';
import { tiledSource } from './source-tiles.ts';

/** Elements generated and counted at a time (256 KiB of float32: stays in cache). */
const TILE = 65536;

/** This thread's tile buffer per dtype (reused across tasks). */
const pool = new Map<DType, TypedArray>();

function scratch(dtype: DType, n: number): TypedArray {
  let s = pool.get(dtype);
  if (s === undefined || s.length < n) {
    s = new (typedArrayCtor(dtype))(n);
    pool.set(dtype, s);
  }
  return s.subarray(0, n);
}

/**
 * The value of the fused `steps` when they are one source and an unweighted
 * 'histogram-block' of it with known edges, counted slab by slab along axis 0; undefined
 * for any other steps (or a slab too large for a tile).
 * @example
 * // histogram(random.uniform([1e9], { chunks: 2 ** 24 }), { bins: 100, range: [0, 1] })
 * sourceCountPartial(params.steps) ?? runStepByStep(params.steps);
 */
export function sourceCountPartial(steps: FusedParams['steps']): NDArray | undefined {
  if (steps.length !== 2) return undefined;
  const [source, count] = steps as [FusedParams['steps'][0], FusedParams['steps'][0]];
  if (count.kernel !== 'histogram-block' || source.inputs.length > 0) return undefined;
  if (count.inputs.length !== 1 || count.inputs[0] !== -1) return undefined;
  const p = count.params as HistogramBlockParams;
  if (p.weighted || p.edges === null) return undefined;
  const src = tiledSource(source.kernel, source.params);
  // int64/uint64 sources (BigInt storage) run step by step, where the dtype gate applies
  if (src === undefined || isBigDType(src.dtype) || isComplex(src.dtype)) return undefined;
  const shape = src.shape;
  const counts = new Float64Array(p.bins);
  const edges = Float64Array.from(p.edges);
  if (shapeSize(shape) > 0) {
    const rows = shape.length === 0 ? 1 : shape[0]!;
    const row = shapeSize(shape.slice(1));
    if (row > TILE) return undefined;
    const step = Math.max(1, Math.floor(TILE / row));
    const rest = shape.slice(1).map(() => 0);
    for (let r = 0; r < rows; r += step) {
      const k = Math.min(step, rows - r);
      const tile = shape.length === 0 ? [] : [k, ...shape.slice(1)];
      const buf = scratch(src.dtype, k * row);
      src.fill(buf, shape.length === 0 ? [] : [r, ...rest], tile);
      countValues(buf, edges, p.uniform, counts);
    }
  }
  return new NDArray(counts, [p.bins], 'float64');
}
