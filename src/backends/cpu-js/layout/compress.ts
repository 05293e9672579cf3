// Boolean selection kernels: the values where a same-shape mask is true, in C order. Two
// passes per task: count the mask's true elements, then copy into an output of that size.
// Complex elements are (re, im) pairs of storage slots, copied by a loop of their own.

import { allocate, isComplex, type TypedArray } from '../../../array/dtype.ts';
import { NDArray } from '../../../array/ndarray.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';

/** Params of 'compress-band': the block grid of axes 1… of one band (axis 0 is one block). */
export interface CompressBandParams {
  readonly grid: readonly number[];
}

// -v >>> 31 is 1 for a byte v > 0, else 0: a true without a branch (bool blocks are bytes)
function countTrue(m: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < m.length; i++) n += -m[i]! >>> 31;
  return n;
}

/**
 * Copy x[i] for i in [from, to) where m[i] is true into out from `o`; the new `o`.
 * Branch-free while out has room past o: every x[i] is written at out[o] and o advances only
 * on a true, so a random mask costs no mispredicted branches (about 3 x faster than a test
 * per element here); the last value is placed by the plain loop, so no write falls outside.
 */
function compressRun(
  out: TypedArray,
  o: number,
  x: TypedArray,
  m: Uint8Array,
  from: number,
  to: number,
): number {
  const last = out.length - 1;
  let i = from;
  for (; i < to && o < last; i++) {
    out[o] = x[i]!;
    o += -m[i]! >>> 31;
  }
  for (; i < to; i++) if (m[i] !== 0) out[o++] = x[i]!;
  return o;
}

/** compressRun for complex data: element i is the pair (2i, 2i + 1) of `x` and of `out`. */
function compressRunPairs(
  out: TypedArray,
  o: number,
  x: TypedArray,
  m: Uint8Array,
  from: number,
  to: number,
): number {
  const last = out.length / 2 - 1;
  let i = from;
  for (; i < to && o < last; i++) {
    out[2 * o] = x[2 * i]!;
    out[2 * o + 1] = x[2 * i + 1]!;
    o += -m[i]! >>> 31;
  }
  for (; i < to; i++) {
    if (m[i] === 0) continue;
    out[2 * o] = x[2 * i]!;
    out[2 * o + 1] = x[2 * i + 1]!;
    o++;
  }
  return o;
}

function compress(inputs: Chunk[]): NDArray {
  const x = arrayBlock(inputs[0], 'compress');
  const m = arrayBlock(inputs[1], 'compress').data as Uint8Array;
  const n = countTrue(m);
  const out = allocate(x.dtype, n);
  const run = isComplex(x.dtype) ? compressRunPairs : compressRun;
  run(out, 0, x.data, m, 0, m.length);
  return new NDArray(out, [n], x.dtype);
}

/** Per global index along an axis of the band: the block along that axis and the local index. */
function axisMap(extents: readonly number[]): { block: Int32Array; local: Int32Array } {
  const total = extents.reduce((a, b) => a + b, 0);
  const block = new Int32Array(total);
  const local = new Int32Array(total);
  let g = 0;
  extents.forEach((e, b) => {
    for (let i = 0; i < e; i++, g++) {
      block[g] = b;
      local[g] = i;
    }
  });
  return { block, local };
}

/**
 * One band of blocks (one block along axis 0, all blocks along the other axes, in C order;
 * then the mask's blocks in the same order): its selected values in C order of the band, so
 * the row bands a C-order selection needs are never materialized.
 */
function compressBand(inputs: Chunk[], p: CompressBandParams): NDArray {
  const nb = p.grid.reduce((a, b) => a * b, 1);
  const xs = inputs.slice(0, nb).map((c) => arrayBlock(c, 'compress-band'));
  const ms = inputs.slice(nb, 2 * nb).map((c) => arrayBlock(c, 'compress-band').data as Uint8Array);
  const first = xs[0]!;
  let n = 0;
  for (const m of ms) n += countTrue(m);
  const out = allocate(first.dtype, n);
  const nd = first.shape.length;
  const run = isComplex(first.dtype) ? compressRunPairs : compressRun;
  if (n === 0) return new NDArray(out, [n], first.dtype);
  if (nd <= 1) {
    run(out, 0, first.data, ms[0]!, 0, first.size);
    return new NDArray(out, [n], first.dtype);
  }
  // block extents along each axis 1…nd-1, read off the blocks of the grid's first row/column
  const gstr = new Array<number>(nd - 1);
  for (let a = nd - 2, acc = 1; a >= 0; a--) {
    gstr[a] = acc;
    acc *= p.grid[a]!;
  }
  const extents = p.grid.map((g, a) =>
    Array.from({ length: g }, (_, b) => xs[b * gstr[a]!]!.shape[a + 1]!),
  );
  const maps = extents.slice(0, -1).map(axisMap);
  const lastExt = extents[nd - 2]!;
  const rows = first.shape[0]!;
  // odometer over the band's rows (axis 0 and the middle axes, global indices)
  const mid = maps.map((mp) => mp.block.length);
  const idx = new Array<number>(nd - 1).fill(0);
  let o = 0;
  for (;;) {
    let base = 0;
    for (let a = 0; a < mid.length; a++) base += maps[a]!.block[idx[a + 1]!]! * gstr[a]!;
    for (let j = 0; j < lastExt.length; j++) {
      const k = base + j;
      const blk = xs[k]!;
      const sh = blk.shape;
      // row offset inside block k: axis 0 and the middle axes' local indices
      let r = idx[0]!;
      for (let a = 1; a < nd - 1; a++) r = r * sh[a]! + maps[a - 1]!.local[idx[a]!]!;
      const len = lastExt[j]!;
      o = run(out, o, blk.data, ms[k]!, r * len, r * len + len);
    }
    if (o >= n) break;
    let a = nd - 2;
    for (; a >= 0; a--) {
      idx[a]!++;
      if (idx[a]! < (a === 0 ? rows : mid[a - 1]!)) break;
      idx[a] = 0;
    }
    if (a < 0) break;
  }
  return new NDArray(out, [n], first.dtype);
}

/** Boolean selection kernels, registered in backends/cpu-js/registry. */
export const compressKernels: Record<string, Kernel<never>> = {
  /** Values where a same-shape mask block is true, flattened in C order. */
  compress: compress as Kernel<never>,
  /** Values where the mask is true over a band of blocks, in the band's C order. */
  'compress-band': compressBand as Kernel<never>,
};
