// The cpu-wasm 'ew-reduce' kernel (the fused (x*2+1).sum() partial): each tile of the
// expression is computed by the 'ew' WASM loop into scratch and folded there by the WASM
// fold, with cpu-js's lanes, so results equal cpu-js's. Casts, reversed or strided rows,
// short runs and reductions other than sum/mean run on cpu-js.

import { allocate, type DType, type NumberArray, numberData } from '../../array/dtype.ts';
import { NDArray } from '../../array/ndarray.ts';
import type { Chunk, Kernel, KernelContext } from '../../kernels/types.ts';
import { type EwReduceParams, ewReduceKernels } from '../cpu-js/elementwise/ew-reduce.ts';
import { viewEvaluator } from '../cpu-js/elementwise/ew-view.ts';
import { monoidSetup, reducedShape, scalarBlock } from '../cpu-js/reduce/reduce-monoid.ts';
import { forEachPosition, runLayout } from '../cpu-js/reduce/reduce-runs.ts';
import { TILE as EW_TILE, slotView, wasmLoop } from './ew-kernel.ts';
import { FOLDS, foldFn, foldRun, MIN_RUN } from './reduce-kernel.ts';

const isFloat = (d: DType | undefined): d is 'float32' | 'float64' =>
  d === 'float32' || d === 'float64';

/** An operand as the tiles read it: its data, strides over the output, scratch view. */
interface Moving {
  readonly data: NumberArray;
  readonly strides: readonly number[];
  readonly tile: NumberArray;
}

/** Copy output elements [f, f + len) of each operand, row piece by row piece, then run. */
function fillTile(
  moving: readonly Moving[],
  shape: readonly number[],
  f: number,
  len: number,
): void {
  const nd = shape.length;
  const inner = shape[nd - 1]!;
  for (let t = 0; t < len; ) {
    let r = Math.floor(f / inner);
    const c = f - r * inner;
    const seg = Math.min(inner - c, len - t);
    const idx: number[] = [];
    for (let ax = nd - 2; ax >= 0; ax--) {
      idx[ax] = r % shape[ax]!;
      r = Math.floor(r / shape[ax]!);
    }
    for (const x of moving) {
      let off = 0;
      for (let ax = 0; ax < nd - 1; ax++) off += idx[ax]! * x.strides[ax]!;
      const step = x.strides[nd - 1]!;
      off += c * step;
      if (step === 1) x.tile.set(x.data.subarray(off, off + seg), t);
      else x.tile.fill(x.data[off]!, t, t + seg);
    }
    t += seg;
    f += seg;
  }
}

/** 'ew-reduce' as cpu-js computes it, for sums and means of float expressions over views
 * whose rows are contiguous or broadcast (step 1 or 0 along the last output axis). */
export function ewReduceWasm(inputs: Chunk[], p: EwReduceParams, ctx: KernelContext): Chunk {
  const cpuJs = (): Chunk =>
    (ewReduceKernels['ew-reduce'] as unknown as Kernel<EwReduceParams>)(inputs, p, ctx);
  const r = p.reduce;
  const fold = FOLDS[r.op];
  if (fold !== 'sum' || r.castTo !== undefined) return cpuJs();
  if (!inputs.every((b) => b instanceof NDArray && isFloat(b.dtype))) return cpuJs();
  if (p.views.some((v) => v?.step.some((s) => s < 0))) return cpuJs();
  const ev = viewEvaluator(inputs, p);
  const dtype = ev.dtype;
  const nd = ev.shape.length;
  // cpu-js's two paths round a root whose dtype differs from p.dtype differently
  if (!isFloat(dtype) || nd === 0 || ('op' in p.expr && p.expr.dtype !== dtype)) return cpuJs();
  const runs = runLayout(ev.shape, r.axes);
  if (!runs.reduced || runs.n < MIN_RUN) return cpuJs();
  const scalar = ev.full.map((st) => st.every((x) => x === 0));
  if (ev.full.some((st, k) => !scalar[k] && st[nd - 1] !== 1 && st[nd - 1] !== 0)) return cpuJs();
  const loop = wasmLoop(
    p.expr,
    ev.ops.map((o) => o.dtype),
    scalar,
    dtype,
  );
  if (loop === null) return cpuJs();
  const outBase = ev.ops.length * EW_TILE * 8;
  foldFn(fold, dtype, outBase); // compiled (and scratch grown) before views of it are taken
  const moving: Moving[] = [];
  for (const k of loop.used) {
    const tile = slotView(ev.ops[k]!.dtype, k);
    const data = numberData(ev.ops[k]!.data, r.op);
    if (scalar[k]) tile[0] = data[0]!;
    else moving.push({ data, strides: ev.full[k]!, tile });
  }
  const { accDtype, identity } = monoidSetup(r.op, dtype, r.dtype);
  const acc = numberData(allocate(accDtype, runs.outSize), r.op).fill(identity);
  forEachPosition(runs.outer, (s, o) => {
    acc[o] = foldRun(
      fold,
      dtype,
      outBase,
      runs.n,
      acc[o]!,
      (j, len) => {
        fillTile(moving, ev.shape, s + j, len);
        loop.run(len);
      },
      EW_TILE,
    );
  });
  const { shape: outShape, count } = reducedShape(ev.shape, r.axes);
  return [new NDArray(acc, outShape, accDtype), scalarBlock(count)];
}

/** The fused reduction kernels of cpu-wasm. */
export const ewReduceKernelsWasm: Record<string, Kernel<never>> = {
  'ew-reduce': ewReduceWasm as Kernel<never>,
};
