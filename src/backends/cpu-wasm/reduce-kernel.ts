// The cpu-wasm 'reduce-partial' kernel: sum, mean, prod, min and max of float blocks whose
// reduced axes are innermost (long runs fold in WASM); every other case runs on cpu-js.
// Sums and products are bit-identical to cpu-js (same lanes, same order); min and max
// agree except that which of ±0 wins a tie may differ.

import { allocate } from '../../array/dtype.ts';
import { NDArray } from '../../array/ndarray.ts';
import type { Chunk, Kernel, KernelContext } from '../../kernels/types.ts';
import type { ReduceParams } from '../cpu-js/reduce/reduce.ts';
import { reduceKernels } from '../cpu-js/reduce/reduce.ts';
import type { MonoidParams } from '../cpu-js/reduce/reduce-monoid.ts';
import { monoidSetup, reducedShape, scalarBlock } from '../cpu-js/reduce/reduce-monoid.ts';
import { forEachPosition, runLayout } from '../cpu-js/reduce/reduce-runs.ts';
import { type FoldOp, foldModuleBytes, stateOffset } from './reduce-compile.ts';
import { scratchMemory } from './scratch.ts';
import { instantiate } from './wasm-api.ts';

const TILE = 8192;
const SLOT_BYTES = TILE * 8;
/** Runs shorter than this fold on cpu-js: per-run copies and calls cost more than they save. */
export const MIN_RUN = 512;

const FOLDS: Record<string, FoldOp> = {
  sum: 'sum',
  mean: 'sum',
  prod: 'prod',
  min: 'min',
  max: 'max',
};
const folds = new Map<string, (n: number) => void>();

function foldFn(fold: FoldOp, dtype: 'float32' | 'float64'): (n: number) => void {
  const key = `${fold}|${dtype}`;
  let f = folds.get(key);
  if (f === undefined) {
    const mem = scratchMemory(SLOT_BYTES + 48);
    f = instantiate(foldModuleBytes(fold, dtype, SLOT_BYTES, 1), { mem }).fold as (
      n: number,
    ) => void;
    folds.set(key, f);
  }
  return f;
}

/** Fold `n` elements of `src` from `s` into `acc` with cpu-js's lanes and final combination. */
function foldRun(
  fold: FoldOp,
  src: Float32Array | Float64Array,
  s: number,
  n: number,
  acc: number,
): number {
  const run = foldFn(fold, src instanceof Float32Array ? 'float32' : 'float64');
  const buf = scratchMemory(0).buffer;
  const tile =
    src instanceof Float32Array ? new Float32Array(buf, 0, TILE) : new Float64Array(buf, 0, TILE);
  const state = new Float64Array(buf, stateOffset(SLOT_BYTES), 6);
  const init = fold === 'sum' ? 0 : fold === 'prod' ? 1 : acc;
  state.fill(init, 0, 4);
  state.fill(0, 4, 6);
  const main = n - (n % 4);
  for (let o = 0; o < main; o += TILE) {
    const len = Math.min(TILE, main - o);
    tile.set(src.subarray(s + o, s + o + len));
    run(len);
  }
  const lanes = [state[0]!, state[1]!, state[2]!, state[3]!];
  const end = s + n;
  if (fold === 'sum') {
    let a0 = lanes[0]!;
    for (let i = s + main; i < end; i++) a0 += src[i]!;
    return acc + (a0 + lanes[1]! + (lanes[2]! + lanes[3]!));
  }
  if (fold === 'prod') {
    let [p0, p1] = [lanes[0]!, lanes[1]!];
    let i = s + main;
    for (; i + 1 < end; i += 2) {
      p0 *= src[i]!;
      p1 *= src[i + 1]!;
    }
    if (i < end) p0 *= src[i]!;
    return acc * (p0 * p1);
  }
  const sawNaN = new Uint8Array(buf, stateOffset(SLOT_BYTES) + 32, 16).some((b) => b !== 0);
  if (sawNaN) return Number.NaN;
  let m = acc;
  const better =
    fold === 'min'
      ? (x: number) => x < m || Number.isNaN(x)
      : (x: number) => x > m || Number.isNaN(x);
  for (const x of lanes) if (better(x)) m = x;
  for (let i = s + main; i < end; i++) if (better(src[i]!)) m = src[i]!;
  return m;
}

/** `reduce-partial` as cpu-js computes it, folding long innermost runs in WASM. */
export function reducePartialWasm(inputs: Chunk[], p: ReduceParams, ctx: KernelContext): Chunk {
  const x = inputs[0];
  const fold = FOLDS[p.op];
  const cpuJs = (): Chunk =>
    (reduceKernels['reduce-partial'] as Kernel<ReduceParams>)(inputs, p, ctx);
  if (!(x instanceof NDArray) || fold === undefined) return cpuJs();
  if (x.dtype !== 'float32' && x.dtype !== 'float64') return cpuJs();
  const mp = p as MonoidParams;
  const castTo = mp.castTo;
  if (castTo !== undefined && castTo !== x.dtype) return cpuJs();
  const layout = runLayout(x.shape, p.axes);
  if (!layout.reduced || layout.n < MIN_RUN) return cpuJs();
  const { accDtype, identity } = monoidSetup(mp.op, x.dtype, mp.dtype);
  const acc = allocate(accDtype, layout.outSize).fill(identity);
  const src = x.data as Float32Array | Float64Array;
  forEachPosition(layout.outer, (s, o) => {
    acc[o] = foldRun(fold, src, s, layout.n, acc[o]!);
  });
  const { shape, count } = reducedShape(x.shape, p.axes);
  return [new NDArray(acc, shape, accDtype), scalarBlock(count)];
}

/** The reduction kernels of cpu-wasm. */
export const reduceKernelsWasm: Record<string, Kernel<never>> = {
  'reduce-partial': reducePartialWasm as Kernel<never>,
};
