// 'overlap-block': one block extended by halos gathered from its neighbour blocks, with the
// array edges filled by a boundary rule (mirror, wrap, repeat or a constant per axis).
// Any dtype: an int64 or uint64 block's constants are BigInts (a fraction truncates); complex
// blocks are extended part by part (a constant c is c + 0i).

import {
  allocate,
  type DType,
  isBigDType,
  isComplex,
  realDType,
  type TypedArray,
} from '../../../array/dtype.ts';
import { float16Bits } from '../../../array/float16.ts';
import { numberToBig } from '../../../array/int64.ts';
import { cStrides, NDArray, shapeSize } from '../../../array/ndarray.ts';
import type { AxisRun } from '../../../chunking/overlap-plan.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';
import { fillSame, setSame } from './storage.ts';

/**
 * Params of 'overlap-block'. Along each axis the output positions are `runs` over that
 * axis's neighbour slots; the task's inputs are the neighbours of every slot combination,
 * in C order over `slots`. Where an axis's slot is -1 the value is that axis's constant
 * (the last such axis wins, as when Dask pads one axis after another). A lone run of
 * count -1 copies the whole extent of an axis of unknown size.
 */
export interface OverlapBlockParams {
  readonly runs: readonly (readonly AxisRun[])[];
  readonly slots: readonly number[];
  readonly constants: readonly (number | null)[];
}

/** The runs with a lone count of -1 (an axis of unknown size, not overlapped) made the
 * input's whole extent. */
function wholeRuns(runs: readonly AxisRun[], extent: number): readonly AxisRun[] {
  return runs.length === 1 && runs[0]!.count < 0 ? [{ ...runs[0]!, count: extent }] : runs;
}

/** Runs expanded to a slot and a local index per output position. */
function expand(all: readonly AxisRun[], extent: number) {
  const runs = wholeRuns(all, extent);
  const n = runs.reduce((s, r) => s + r.count, 0);
  const slot = new Int32Array(n);
  const local = new Int32Array(n);
  let i = 0;
  for (const r of runs) {
    for (let j = 0; j < r.count; j++, i++) {
      slot[i] = r.slot;
      local[i] = r.start + j * r.step;
    }
  }
  return { slot, local };
}

/**
 * A constant as a block of `dtype` stores it: 0/1 for bool, the bits for float16, a BigInt
 * for int64 and uint64 (truncated as a cast), converted once per task.
 */
function storedConstant(v: number, dtype: DType): number | bigint {
  if (dtype === 'bool') return v !== 0 ? 1 : 0;
  if (dtype === 'float16') return float16Bits(v);
  return isBigDType(dtype) ? numberToBig(v) : v;
}

/** Part `k` (0: re, 1: im) of a complex block as a real block of the parts' dtype. */
function partBlock(x: NDArray, k: number): NDArray {
  const dtype = realDType(x.dtype);
  const out = allocate(dtype, x.size) as TypedArray;
  for (let i = 0; i < x.size; i++) out[i] = x.data[2 * i + k]!;
  return new NDArray(out, x.shape, dtype);
}

/** overlapBlock of complex blocks: their real parts with the constants, imaginary with 0. */
function overlapComplex(srcs: readonly NDArray[], p: OverlapBlockParams): NDArray {
  const re = overlapBlock(
    srcs.map((x) => partBlock(x, 0)),
    p,
  );
  const zeros = p.constants.map((c) => (c === null ? null : 0));
  const im = overlapBlock(
    srcs.map((x) => partBlock(x, 1)),
    { ...p, constants: zeros },
  );
  const dtype = srcs[0]!.dtype;
  const out = allocate(dtype, re.size);
  for (let i = 0; i < re.size; i++) {
    out[2 * i] = re.data[i]!;
    out[2 * i + 1] = im.data[i]!;
  }
  return new NDArray(out, re.shape, dtype);
}

function overlapBlock(inputs: Chunk[], p: OverlapBlockParams): NDArray {
  const srcs = inputs.map((c) => arrayBlock(c, 'overlap'));
  const dtype = srcs[0]!.dtype;
  if (isComplex(dtype)) return overlapComplex(srcs, p);
  const axes = p.runs.map((r, ax) => expand(r, srcs[0]!.shape[ax]!));
  const shape = axes.map((a) => a.slot.length);
  const nd = shape.length;
  const out = allocate(dtype, shapeSize(shape));
  const result = new NDArray(out, shape, dtype);
  if (out.length === 0) return result;
  if (nd === 0) {
    out[0] = srcs[0]!.data[0]!;
    return result;
  }
  const strides = srcs.map((s) => cStrides(s.shape));
  const constants = p.constants.map((c) => storedConstant(c ?? 0, dtype));
  const idx = new Array<number>(nd).fill(0);
  const last = nd - 1;
  const lastRuns = wholeRuns(p.runs[last]!, srcs[0]!.shape[last]!);
  const lastSlots = p.slots[last]!;
  const outer = new Array<number>(lastSlots).fill(0);
  let o = 0;
  for (;;) {
    // the outer axes' combined slot, offset (per candidate input) or constant
    let constAxis = -1;
    let base = 0;
    for (let ax = 0; ax < last; ax++) {
      const s = axes[ax]!.slot[idx[ax]!]!;
      if (s < 0) constAxis = ax;
      else base = base * p.slots[ax]! + s;
    }
    for (let s = 0; constAxis < 0 && s < lastSlots; s++) {
      const st = strides[base * lastSlots + s]!;
      let off = 0;
      for (let ax = 0; ax < last; ax++) off += axes[ax]!.local[idx[ax]!]! * st[ax]!;
      outer[s] = off;
    }
    // a row of the output: the last axis's runs, each a constant, a copy or a reversed copy
    for (const r of lastRuns) {
      if (r.slot < 0 || constAxis >= 0) {
        fillSame(out, constants[r.slot < 0 ? last : constAxis]!, o, o + r.count);
        o += r.count;
        continue;
      }
      const k = base * lastSlots + r.slot;
      const src = srcs[k]!.data;
      const st = strides[k]![last]!;
      const at = outer[r.slot]! + r.start * st;
      if (r.step * st === 1) {
        setSame(out, src.subarray(at, at + r.count), o);
        o += r.count;
      } else {
        const step = r.step * st;
        for (let j = 0, a = at; j < r.count; j++, o++, a += step) out[o] = src[a]!;
      }
    }
    let ax = last - 1;
    for (; ax >= 0; ax--) {
      if (++idx[ax]! < shape[ax]!) break;
      idx[ax] = 0;
    }
    if (ax < 0) return result;
  }
}

/** Overlap kernels, registered in backends/cpu-js/registry. */
export const overlapKernels: Record<string, Kernel<never>> = {
  /** One block with halos from its neighbours and the boundary rule at the array's edges. */
  'overlap-block': overlapBlock as Kernel<never>,
};
