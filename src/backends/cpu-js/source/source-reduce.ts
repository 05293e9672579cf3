// Reductions over generated sources: a fused task whose reduction reads only source blocks
// (random, full, arange, linspace) generates them tile by tile into small per-thread scratch
// buffers and folds each tile at once, so no source block is ever materialized.
//
// The tiles go through ew-reduce's tiledPartial, whose folds add in exactly the order of
// 'reduce-partial' over the whole block: results are bit-identical to the unfused steps.

import {
  type DType,
  isBigDType,
  isComplex,
  type TypedArray,
  typedArrayCtor,
} from '../../../array/dtype.ts';
import { cStrides } from '../../../array/ndarray.ts';
import type { Chunk } from '../../../kernels/types.ts';
import { type EwReduceParams, type TileSource, tiledPartial } from '../elementwise/ew-reduce.ts';
import { TileEvaluator } from '../elementwise/ew-view.ts';
import type { Expr } from '../elementwise/expr.ts';
import type { MonoidOp, MonoidParams } from '../reduce/reduce-monoid.ts';
import type { FusedParams } from '../registry.ts';
import { type TiledSource, tiledSource } from './source-tiles.ts';

const MONOIDS: ReadonlySet<string> = new Set<MonoidOp>([
  'sum',
  'prod',
  'min',
  'max',
  'any',
  'all',
  'mean',
]);

/** This thread's scratch buffers, by operand slot and dtype (reused across tasks). */
const pool = new Map<string, TypedArray>();

function scratch(slot: number, dtype: DType, n: number): TypedArray {
  const key = `${slot}:${dtype}`;
  let s = pool.get(key);
  if (s === undefined || s.length < n) {
    s = new (typedArrayCtor(dtype))(n);
    pool.set(key, s);
  }
  return s;
}

const sameShape = (a: readonly number[], b: readonly number[]): boolean =>
  a.length === b.length && a.every((d, i) => d === b[i]);

/** An expression over sources, evaluated tile by tile: each source fills its scratch first. */
class SourceTiles implements TileSource {
  readonly shape: readonly number[];
  private readonly byTile = new Map<string, { ev: TileEvaluator; bufs: TypedArray[] }>();

  constructor(
    private readonly sources: readonly TiledSource[],
    private readonly expr: Expr,
    readonly dtype: DType,
  ) {
    this.shape = sources[0]!.shape;
  }

  evaluate(out: TypedArray, start: readonly number[], tile: readonly number[]): void {
    const key = tile.join(',');
    let t = this.byTile.get(key);
    if (t === undefined) {
      const n = out.length;
      const strides = cStrides(tile);
      const bufs = this.sources.map((s, k) => scratch(k, s.dtype, n));
      const ops = this.sources.map((s, k) => ({
        data: bufs[k]!,
        dtype: s.dtype,
        shape: tile,
        strides,
      }));
      t = { ev: new TileEvaluator(this.expr, this.dtype, ops), bufs };
      this.byTile.set(key, t);
    }
    const size = out.length;
    for (let k = 0; k < this.sources.length; k++) {
      this.sources[k]!.fill(t.bufs[k]!.subarray(0, size), start, tile);
    }
    t.ev.evaluate(
      out,
      tile.map(() => 0),
      tile,
    );
  }
}

/** A single source reduced as is: it fills the fold's tile directly. */
function identity(src: TiledSource): TileSource {
  return { shape: src.shape, dtype: src.dtype, evaluate: (out, s, t) => src.fill(out, s, t) };
}

/** The sources that steps `refs` (step references, -k - 1) are, or undefined. */
function sourcesOf(
  steps: FusedParams['steps'],
  refs: readonly number[],
): TiledSource[] | undefined {
  const out: TiledSource[] = [];
  for (const r of refs) {
    const k = -r - 1;
    const step = steps[k];
    if (r >= 0 || step === undefined || step.inputs.length > 0) return undefined;
    const src = tiledSource(step.kernel, step.params);
    // int64/uint64 sources (BigInt storage) and complex ones ((re, im) pairs) are reduced
    // by the unfused steps
    if (src === undefined || isBigDType(src.dtype) || isComplex(src.dtype)) return undefined;
    if (out.length > 0 && !sameShape(src.shape, out[0]!.shape)) {
      return undefined;
    }
    out.push(src);
  }
  return out.length > 0 ? out : undefined;
}

/**
 * The value of the fused `steps` when they are sources and one monoid reduction of them
 * (a 'reduce-partial' of one source, or an 'ew-reduce' of an expression over sources),
 * computed without materializing any source block; undefined for any other steps.
 * @example
 * // random.uniform(...).sum(): the partial of one block, 16,384 elements at a time
 * sourceReducePartial(params.steps) ?? runStepByStep(params.steps);
 */
export function sourceReducePartial(steps: FusedParams['steps']): Chunk | undefined {
  const last = steps[steps.length - 1];
  if (last === undefined || (last.kernel !== 'reduce-partial' && last.kernel !== 'ew-reduce')) {
    return undefined;
  }
  // every other step must be a source the reduction reads
  if (steps.length - 1 !== new Set(last.inputs).size) return undefined;
  if (last.kernel === 'reduce-partial') {
    const p = last.params as MonoidParams;
    if (!MONOIDS.has(p.op) || last.inputs.length !== 1) return undefined;
    const src = sourcesOf(steps, last.inputs);
    return src === undefined ? undefined : tiledPartial(identity(src[0]!), p);
  }
  if (last.kernel === 'ew-reduce') {
    const p = last.params as EwReduceParams;
    if (p.views.some((v) => v !== null)) return undefined;
    const src = sourcesOf(steps, last.inputs);
    if (src === undefined) return undefined;
    return tiledPartial(new SourceTiles(src, p.expr, p.dtype ?? src[0]!.dtype), p.reduce);
  }
  return undefined;
}
