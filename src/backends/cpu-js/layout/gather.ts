// Kernels that move elements between blocks: indexing, rechunk merges, take, masks, setitem.
// Plain loops over C-contiguous blocks; a `null` count means "the input block's whole extent".
// Any dtype: int64 and uint64 blocks (BigInt storage) copy as number ones do; complex elements
// are (re, im) pairs of storage slots.

import { castData } from '../../../array/cast.ts';
import {
  allocate,
  type DType,
  elementWidth,
  isBigDType,
  isComplex,
  type NumberArray,
  type TypedArray,
} from '../../../array/dtype.ts';
import { float16Bits } from '../../../array/float16.ts';
import { numberToBig } from '../../../array/int64.ts';
import { cStrides, NDArray, shapeSize } from '../../../array/ndarray.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';
import { copyBox } from './copy-box.ts';
import { sliceND } from './slice.ts';
import { setSame } from './storage.ts';

/** Resolve `null` counts (unknown sizes) to the rest of the input block's extent. */
function resolveCounts(x: NDArray, start: readonly number[], count: readonly (number | null)[]) {
  return count.map((c, ax) => (c === null ? x.shape[ax]! - start[ax]! : c));
}

/** Params of 'getitem': a strided selection, then the output axes (source axis, or -1 = new). */
export interface GetitemParams {
  readonly start: readonly number[];
  readonly step: readonly number[];
  readonly count: readonly (number | null)[];
  readonly axes: readonly number[];
}

/** One piece of a 'rechunk-merge': a box of input `input` copied to `offset` in the output. */
export interface MergePiece {
  readonly input: number;
  readonly start: readonly number[];
  readonly count: readonly (number | null)[];
  readonly offset: readonly number[];
}

/** Params of 'take': for each output index along `axis`, the input slot and local index. */
export interface TakeParams {
  readonly axis: number;
  readonly slot: readonly number[];
  readonly local: readonly number[];
  /** Put the gathered axis first in the output (NumPy's split advanced index). */
  readonly front?: boolean;
}

/** Params of 'set-region': a strided region of the block, the value's axes, or a scalar. */
export interface SetRegionParams {
  readonly start: readonly number[];
  readonly step: readonly number[];
  readonly count: readonly (number | null)[];
  /** Per value axis (right-aligned), the block axis it runs along, or -1 for a new axis. */
  readonly keep: readonly number[];
  readonly scalar?: number;
}

function cast(dtype: DType, v: number): number {
  return dtype === 'bool' ? (v !== 0 ? 1 : 0) : v;
}

/**
 * A scalar as a block of `dtype` stores it: 0/1 for bool, the bits for float16, a BigInt
 * for int64 and uint64 (truncated as a cast).
 */
function storedScalar(dtype: DType, v: number): number | bigint {
  if (dtype === 'float16') return float16Bits(v);
  return isBigDType(dtype) ? numberToBig(v) : cast(dtype, v);
}

/**
 * The value block's data as `out` stores it: converted to out's dtype when a plain store
 * would not convert it (BigInts on one side and numbers on the other, or float16 bits on
 * one side only), so the stores need no conversion per element.
 */
function valueData(value: NDArray, out: NDArray): TypedArray {
  const a = value.dtype;
  const b = out.dtype;
  const convert = a !== b && (isBigDType(a) || isBigDType(b) || a === 'float16' || b === 'float16');
  return convert ? castData(value.data, a, b) : value.data;
}

/**
 * Strides into `value` for each of `nd` axes of a region whose value coordinates are the
 * axes `keep` (right-aligned broadcasting: missing and size-1 axes get stride 0).
 */
function broadcastStrides(value: NDArray, nd: number, keep: readonly number[]): number[] {
  const st = new Array<number>(nd).fill(0);
  const vs = cStrides(value.shape);
  const lead = keep.length - value.shape.length;
  for (let j = 0; j < value.shape.length; j++) {
    const ax = keep[j + lead]!;
    if (ax >= 0 && value.shape[j] !== 1) st[ax] = vs[j]!;
  }
  return st;
}

/** Visit every point of a strided region: `visit(dstOffset, valueOffset)`. */
function walkRegion(
  shape: readonly number[],
  start: readonly number[],
  step: readonly number[],
  count: readonly number[],
  vStrides: readonly number[],
  visit: (d: number, v: number) => void,
): void {
  const nd = shape.length;
  if (shapeSize(count) === 0) return;
  const ds = cStrides(shape);
  let d = 0;
  for (let ax = 0; ax < nd; ax++) d += start[ax]! * ds[ax]!;
  let v = 0;
  const idx = new Array<number>(nd).fill(0);
  for (;;) {
    visit(d, v);
    let ax = nd - 1;
    for (; ax >= 0; ax--) {
      idx[ax]!++;
      d += step[ax]! * ds[ax]!;
      v += vStrides[ax]!;
      if (idx[ax]! < count[ax]!) break;
      d -= count[ax]! * step[ax]! * ds[ax]!;
      v -= count[ax]! * vStrides[ax]!;
      idx[ax] = 0;
    }
    if (ax < 0) return;
  }
}

function copyOf(x: NDArray): NDArray {
  const out = allocate(x.dtype, x.size);
  setSame(out, x.data);
  return new NDArray(out, x.shape, x.dtype);
}

function getitem(inputs: Chunk[], p: GetitemParams): NDArray {
  const x = arrayBlock(inputs[0], 'gather');
  const count = resolveCounts(x, p.start, p.count);
  const sel = sliceND(x, { start: p.start, step: p.step, count });
  const shape = p.axes.map((a) => (a < 0 ? 1 : count[a]!));
  return new NDArray(sel.data, shape, x.dtype);
}

function rechunkMerge(inputs: Chunk[], p: { pieces: readonly MergePiece[] }): NDArray {
  const first = arrayBlock(inputs[p.pieces[0]!.input], 'gather');
  const nd = first.shape.length;
  const boxes = p.pieces.map((pc) => {
    const src = arrayBlock(inputs[pc.input], 'gather');
    return { src, pc, count: resolveCounts(src, pc.start, pc.count) };
  });
  const shape = new Array<number>(nd).fill(0);
  for (const { pc, count } of boxes) {
    for (let ax = 0; ax < nd; ax++) shape[ax] = Math.max(shape[ax]!, pc.offset[ax]! + count[ax]!);
  }
  const out = new NDArray(allocate(first.dtype, shapeSize(shape)), shape, first.dtype);
  for (const { src, pc, count } of boxes) copyBox(out, pc.offset, src, pc.start, count);
  return out;
}

function take(inputs: Chunk[], p: TakeParams): NDArray {
  const blocks = inputs.map((c) => arrayBlock(c, 'gather'));
  const first = blocks[0]!;
  const n = p.slot.length;
  const shape = [...first.shape];
  shape[p.axis] = n;
  const out = allocate(first.dtype, shapeSize(shape));
  // complex elements are two floats: runs count storage slots
  const inner = shapeSize(shape.slice(p.axis + 1)) * elementWidth(first.dtype);
  const outer = shapeSize(shape.slice(0, p.axis));
  if (p.front) shape.unshift(...shape.splice(p.axis, 1));
  for (let k = 0; k < n; k++) {
    const src = blocks[p.slot[k]!]!;
    const m = src.shape[p.axis]!;
    const li = p.local[k]!;
    for (let o = 0; o < outer; o++) {
      const s = (o * m + li) * inner;
      const d = (p.front ? k * outer + o : o * n + k) * inner;
      if (inner === 1) out[d] = src.data[s]!;
      else setSame(out, src.data.subarray(s, s + inner), d);
    }
  }
  return new NDArray(out, shape, first.dtype);
}

/**
 * The value block as complex `out` stores it (a complex copy of real values, im 0; complex64
 * and complex128 converted to out's), or undefined for a scalar set.
 */
function complexValue(inputs: Chunk[], at: number, out: NDArray): TypedArray | undefined {
  const c = inputs[at];
  if (c === undefined) return undefined;
  const value = arrayBlock(c, 'gather');
  return value.dtype === out.dtype ? value.data : castData(value.data, value.dtype, out.dtype);
}

/** setRegion on a complex block: each element is the pair (2d, 2d + 1) of its storage. */
function setRegionComplex(inputs: Chunk[], p: SetRegionParams, out: NDArray): NDArray {
  const o = out.data as Float32Array | Float64Array;
  const count = resolveCounts(out, p.start, p.count);
  const src = complexValue(inputs, 1, out) as Float32Array | Float64Array | undefined;
  if (src === undefined) {
    const re = p.scalar ?? 0;
    const zeros = p.start.map(() => 0);
    walkRegion(out.shape, p.start, p.step, count, zeros, (d) => {
      o[2 * d] = re;
      o[2 * d + 1] = 0;
    });
    return out;
  }
  const vs = broadcastStrides(arrayBlock(inputs[1], 'gather'), out.shape.length, p.keep);
  walkRegion(out.shape, p.start, p.step, count, vs, (d, v) => {
    o[2 * d] = src[2 * v]!;
    o[2 * d + 1] = src[2 * v + 1]!;
  });
  return out;
}

/** whereSet on a complex block (pairs, as setRegionComplex). */
function whereSetComplex(inputs: Chunk[], p: { scalar?: number }, out: NDArray): NDArray {
  const o = out.data as Float32Array | Float64Array;
  const m = arrayBlock(inputs[1], 'gather').data as Uint8Array;
  const src = complexValue(inputs, 2, out) as Float32Array | Float64Array | undefined;
  if (src === undefined) {
    const re = p.scalar ?? 0;
    for (let i = 0; i < m.length; i++) {
      if (m[i] === 0) continue;
      o[2 * i] = re;
      o[2 * i + 1] = 0;
    }
    return out;
  }
  const nd = out.shape.length;
  const axes = Array.from({ length: nd }, (_, i) => i);
  const vs = broadcastStrides(arrayBlock(inputs[2], 'gather'), nd, axes);
  const zeros = axes.map(() => 0);
  const ones = axes.map(() => 1);
  walkRegion(out.shape, zeros, ones, out.shape, vs, (d, v) => {
    if (m[d] === 0) return;
    o[2 * d] = src[2 * v]!;
    o[2 * d + 1] = src[2 * v + 1]!;
  });
  return out;
}

function setRegion(inputs: Chunk[], p: SetRegionParams): NDArray {
  const out = copyOf(arrayBlock(inputs[0], 'gather'));
  const dt = out.dtype;
  if (isComplex(dt)) return setRegionComplex(inputs, p, out);
  const o = out.data;
  const count = resolveCounts(out, p.start, p.count);
  if (p.scalar !== undefined) {
    const v = storedScalar(dt, p.scalar);
    const zeros = p.start.map(() => 0);
    walkRegion(out.shape, p.start, p.step, count, zeros, (d) => {
      o[d] = v;
    });
    return out;
  }
  const value = arrayBlock(inputs[1], 'gather');
  const vs = broadcastStrides(value, out.shape.length, p.keep);
  const src = valueData(value, out);
  if (dt === 'bool') {
    const nums = src as NumberArray; // bool storage: valueData gave numbers
    walkRegion(out.shape, p.start, p.step, count, vs, (d, v) => {
      o[d] = cast(dt, nums[v]!);
    });
  } else {
    walkRegion(out.shape, p.start, p.step, count, vs, (d, v) => {
      o[d] = src[v]!;
    });
  }
  return out;
}

function whereSet(inputs: Chunk[], p: { scalar?: number }): NDArray {
  const out = copyOf(arrayBlock(inputs[0], 'gather'));
  const m = arrayBlock(inputs[1], 'gather').data as Uint8Array;
  const o = out.data;
  const dt = out.dtype;
  if (isComplex(dt)) return whereSetComplex(inputs, p, out);
  if (p.scalar !== undefined) {
    const v = storedScalar(dt, p.scalar);
    for (let i = 0; i < m.length; i++) if (m[i] !== 0) o[i] = v;
    return out;
  }
  const value = arrayBlock(inputs[2], 'gather');
  const nd = out.shape.length;
  const axes = Array.from({ length: nd }, (_, i) => i);
  const vs = broadcastStrides(value, nd, axes);
  const src = valueData(value, out);
  const zeros = axes.map(() => 0);
  const ones = axes.map(() => 1);
  if (dt === 'bool') {
    const nums = src as NumberArray; // bool storage: valueData gave numbers
    walkRegion(out.shape, zeros, ones, out.shape, vs, (d, v) => {
      if (m[d] !== 0) o[d] = cast(dt, nums[v]!);
    });
  } else {
    walkRegion(out.shape, zeros, ones, out.shape, vs, (d, v) => {
      if (m[d] !== 0) o[d] = src[v]!;
    });
  }
  return out;
}

/** Gather/scatter kernels, registered in backends/cpu-js/registry. */
export const gatherKernels: Record<string, Kernel<never>> = {
  /** The input block itself (a block that an operation leaves unchanged). */
  passthrough: ((inputs: Chunk[]) => inputs[0]!) as Kernel<never>,
  /** Strided selection, then integer axes dropped and new axes inserted. */
  getitem: getitem as Kernel<never>,
  /** Several input boxes copied into one new block. */
  'rechunk-merge': rechunkMerge as Kernel<never>,
  /** Gather along one axis from several input blocks. */
  take: take as Kernel<never>,
  /** A copy of the block with a strided region assigned from a scalar or a value block. */
  'set-region': setRegion as Kernel<never>,
  /** A copy of the block where mask is true takes a scalar or a broadcast value block. */
  'where-set': whereSet as Kernel<never>,
};
