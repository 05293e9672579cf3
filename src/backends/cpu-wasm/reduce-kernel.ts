// The cpu-wasm 'reduce-partial' kernel: sum, mean, prod, min and max of float blocks whose
// reduced axes are innermost (long runs fold in WASM); every other case runs on cpu-js.
// Sums and products are bit-identical to cpu-js (same lanes, same order); min and max
// agree except that which of ±0 wins a tie may differ.

import { allocate, numberData } from '../../array/dtype.ts';
import { NDArray } from '../../array/ndarray.ts';
import type { Chunk, Kernel, KernelContext } from '../../kernels/types.ts';
import type { ReduceParams } from '../cpu-js/reduce/reduce.ts';
import { reduceKernels } from '../cpu-js/reduce/reduce.ts';
import type { MonoidParams } from '../cpu-js/reduce/reduce-monoid.ts';
import { monoidSetup, reducedShape, scalarBlock } from '../cpu-js/reduce/reduce-monoid.ts';
import { forEachPosition, runLayout } from '../cpu-js/reduce/reduce-runs.ts';
import { type FoldOp, foldModuleBytes } from './reduce-compile.ts';
import { scratchMemory } from './scratch.ts';
import { instantiate } from './wasm-api.ts';

export const TILE = 4096;
const SLOT_BYTES = TILE * 8;
/** Runs shorter than this fold on cpu-js: per-run copies and calls cost more than they save. */
export const MIN_RUN = 512;

export const FOLDS: Record<string, FoldOp> = {
  sum: 'sum',
  mean: 'sum',
  prod: 'prod',
  min: 'min',
  max: 'max',
};
const folds = new Map<string, (n: number) => void>();

/** The fold of `fold` over `dtype` elements at byte `base` (state right after TILE of them). */
export function foldFn(
  fold: FoldOp,
  dtype: 'float32' | 'float64',
  base: number,
): (n: number) => void {
  const key = `${fold}|${dtype}|${base}`;
  let f = folds.get(key);
  if (f === undefined) {
    const st = base + SLOT_BYTES;
    const mem = scratchMemory(st + 48);
    const bytes = foldModuleBytes(fold, dtype, base, st, Math.ceil((st + 48) / 65536));
    f = instantiate(bytes, { mem }).fold as (n: number) => void;
    folds.set(key, f);
  }
  return f;
}

/**
 * Fold a run of `n` values into `acc` with cpu-js's lanes and final combination. `fill(j,
 * len)` puts values [j, j + len) of the run (len ≤ tileLen ≤ TILE, a multiple of 4) at
 * byte `base` of scratch.
 */
export function foldRun(
  fold: FoldOp,
  dtype: 'float32' | 'float64',
  base: number,
  n: number,
  acc: number,
  fill: (j: number, len: number) => void,
  tileLen = TILE,
): number {
  const run = foldFn(fold, dtype, base);
  const buf = scratchMemory(0).buffer;
  const tile =
    dtype === 'float32' ? new Float32Array(buf, base, TILE) : new Float64Array(buf, base, TILE);
  const state = new Float64Array(buf, base + SLOT_BYTES, 6);
  state.fill(fold === 'sum' ? 0 : fold === 'prod' ? 1 : acc, 0, 4);
  state.fill(0, 4, 6);
  const main = n - (n % 4);
  for (let j = 0; j < n; j += tileLen) {
    const len = Math.min(tileLen, n - j);
    fill(j, len);
    if (main > j) run(Math.min(len, main - j));
  }
  // the n % 4 tail sits at the end of the last tile (tiles are whole multiples of 4)
  const tail = n % 4;
  const lanes = [state[0]!, state[1]!, state[2]!, state[3]!];
  const tailStart = (n - tail) % tileLen;
  const rest = Array.from(tile.subarray(tailStart, tailStart + tail));
  return combine(fold, lanes, rest, acc, new Uint8Array(buf, base + SLOT_BYTES + 32, 16));
}

/** cpu-js's final steps: lanes combined, the tail (`rest`) folded in as its loops do. */
function combine(
  fold: FoldOp,
  lanes: number[],
  rest: number[],
  acc: number,
  nanFlags: Uint8Array,
): number {
  if (fold === 'sum') {
    let a0 = lanes[0]!;
    for (const x of rest) a0 += x;
    return acc + (a0 + lanes[1]! + (lanes[2]! + lanes[3]!));
  }
  if (fold === 'prod') {
    let [p0, p1] = [lanes[0]!, lanes[1]!];
    let i = 0;
    for (; i + 1 < rest.length; i += 2) {
      p0 *= rest[i]!;
      p1 *= rest[i + 1]!;
    }
    if (i < rest.length) p0 *= rest[i]!;
    return acc * (p0 * p1);
  }
  if (nanFlags.some((b) => b !== 0)) return Number.NaN;
  let m = acc;
  const better =
    fold === 'min'
      ? (x: number) => x < m || Number.isNaN(x)
      : (x: number) => x > m || Number.isNaN(x);
  for (const x of lanes) if (better(x)) m = x;
  for (const x of rest) if (better(x)) m = x;
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
  const acc = numberData(allocate(accDtype, layout.outSize), mp.op).fill(identity);
  const src = x.data as Float32Array | Float64Array;
  const dtype = x.dtype;
  foldFn(fold, dtype, 0); // compiled (and scratch grown) before views of it are taken
  const buf = scratchMemory(0).buffer;
  const tile =
    dtype === 'float32' ? new Float32Array(buf, 0, TILE) : new Float64Array(buf, 0, TILE);
  forEachPosition(layout.outer, (s, o) => {
    acc[o] = foldRun(fold, dtype, 0, layout.n, acc[o]!, (j, len) => {
      tile.set(src.subarray(s + j, s + j + len));
    });
  });
  const { shape, count } = reducedShape(x.shape, p.axes);
  return [new NDArray(acc, shape, accDtype), scalarBlock(count)];
}

/** The reduction kernels of cpu-wasm. */
export const reduceKernelsWasm: Record<string, Kernel<never>> = {
  'reduce-partial': reducePartialWasm as Kernel<never>,
};
