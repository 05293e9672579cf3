// The kernel that reads one block of a .npy file: the block's region, read run by run with
// positioned reads (no whole-file load), byte-swapped for big-endian files and transposed
// for Fortran-ordered ones.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { castInto } from '../array/cast.ts';
import {
  allocate,
  bigIntRange,
  type DType,
  elementWidth,
  integerRange,
  isBigDType,
  isBigIntArray,
  itemsize,
  type TypedArray,
  typedArrayCtor,
} from '../array/dtype.ts';
import { cStrides, NDArray, shapeSize } from '../array/ndarray.ts';
import { permuteBlock } from '../backends/cpu-js/layout/layout.ts';
import { ValueError } from '../errors.ts';
import type { Chunk, Kernel } from '../kernels/types.ts';

/** Params of 'npy-read': the region `start` + `count` of the array stored at `dataOffset`. */
export interface NpyReadParams {
  readonly path: string;
  /** The file as fromNpy saw it: a read fails when it changed since (another file, rewritten). */
  readonly file: NpyFileIdentity;
  readonly dataOffset: number;
  /** The array's shape in file order (reversed for Fortran order). */
  readonly fileShape: readonly number[];
  /** The element type stored in the file. */
  readonly fileDtype: DType;
  /** The dtype of the blocks: fileDtype, or what its values are cast to on read. */
  readonly dtype: DType;
  readonly bigEndian: boolean;
  readonly fortran: boolean;
  /** The block's region in the array's (logical) axes. */
  readonly start: readonly number[];
  readonly count: readonly number[];
}

/** Size, mtime and header bytes (latin1 text) of a .npy file when fromNpy read it. */
export interface NpyFileIdentity {
  readonly size: number;
  readonly mtimeMs: number;
  readonly header: string;
}

/** Throw ValueError naming the path when the open file `fd` is not the one fromNpy read. */
function checkUnchanged(fd: number, path: string, file: NpyFileIdentity): void {
  const { size, mtimeMs } = fstatSync(fd);
  let what: string | undefined;
  if (size !== file.size) what = `its size went from ${file.size} to ${size} bytes`;
  else if (mtimeMs !== file.mtimeMs) what = 'its modification time changed';
  else {
    const head = new Uint8Array(file.header.length);
    const got = readSync(fd, head, 0, head.length, 0);
    if (got !== head.length || new TextDecoder('latin1').decode(head) !== file.header) {
      what = 'its header changed';
    }
  }
  if (what !== undefined) {
    throw new ValueError(
      `fromNpy: ${JSON.stringify(path)} changed since fromNpy read its header (${what}); call fromNpy again`,
    );
  }
}

/**
 * Read region `start`/`count` of a C-ordered array of `shape` (element size `size`) from
 * `fd` at `base` into `out`: whole runs of the innermost full axes at a time.
 */
function readRegion(
  fd: number,
  base: number,
  shape: readonly number[],
  size: number,
  start: readonly number[],
  count: readonly number[],
  out: Uint8Array,
): void {
  const n = shape.length;
  const strides = cStrides(shape);
  // Axes from `inner` on are read whole with the axis before: one run per outer index.
  let inner = n;
  while (inner > 0 && (inner === n || count[inner]! === shape[inner]!)) inner--;
  if (n === 0) inner = 0;
  const runElems = n === 0 ? 1 : count[inner]! * (inner + 1 < n ? strides[inner]! : 1);
  const runBytes = runElems * size;
  const outer = shapeSize(count.slice(0, inner));
  const idx = new Array<number>(inner).fill(0);
  let at = 0;
  for (let r = 0; r < outer; r++) {
    let elem = n === 0 ? 0 : start[inner]! * strides[inner]!;
    for (let a = 0; a < inner; a++) elem += (start[a]! + idx[a]!) * strides[a]!;
    readFully(fd, out, at, runBytes, base + elem * size);
    at += runBytes;
    for (let a = inner - 1; a >= 0; a--) {
      if (++idx[a]! < count[a]!) break;
      idx[a] = 0;
    }
  }
}

function readFully(fd: number, out: Uint8Array, at: number, bytes: number, pos: number): void {
  let done = 0;
  while (done < bytes) {
    const got = readSync(fd, out, at + done, bytes - done, pos + done);
    if (got === 0) throw new RangeError(`npy-read: the file ended at byte ${pos + done}`);
    done += got;
  }
}

function swapBytes(bytes: Uint8Array, size: number): void {
  for (let i = 0; i < bytes.length; i += size) bytes.subarray(i, i + size).reverse();
}

/**
 * Fill `out` with the sub-block at `start` (relative to the task's block) of shape `tile`,
 * read from the file: what a tiled reduction of a C-ordered .npy block reads tile by tile.
 * Fortran-ordered files return undefined (their tiles are not runs of the file).
 * @example
 * const fill = npyTileFill(params);
 * fill?.(new Float64Array(16384), [0, 0], [16, 1024]);
 */
export function npyTileFill(
  p: NpyReadParams,
): ((out: TypedArray, start: readonly number[], tile: readonly number[]) => void) | undefined {
  if (p.fortran) return undefined;
  return (out, start, tile) =>
    readInto(
      p,
      p.start.map((s, ax) => s + start[ax]!),
      tile,
      out,
    );
}

/** Read region `start` + `count` (in file order) of the file's array into `out`, in place. */
function readInto(
  p: NpyReadParams,
  start: readonly number[],
  count: readonly number[],
  out: TypedArray,
): void {
  const fileDtype = p.fileDtype;
  const size = itemsize(fileDtype);
  const same = fileDtype === p.dtype;
  const bytes = same
    ? new Uint8Array(out.buffer, out.byteOffset, out.byteLength)
    : new Uint8Array((out.length / elementWidth(p.dtype)) * size);
  const fd = openSync(p.path, 'r');
  try {
    checkUnchanged(fd, p.path, p.file);
    readRegion(fd, p.dataOffset, p.fileShape, size, start, count, bytes);
  } finally {
    closeSync(fd);
  }
  // complex parts are two floats, each swapped on its own
  if (p.bigEndian && size > 1) swapBytes(bytes, size / elementWidth(fileDtype));
  if (!same) castFromFile(p, fileDtype, bytes, out);
}

function doesNotFit(p: NpyReadParams, v: bigint, from: DType): ValueError {
  return new ValueError(
    `fromNpy: ${JSON.stringify(p.path)} holds ${v} (${from}), which does not fit dtype '${p.dtype}'; read it as 'float64' or a wider integer dtype`,
  );
}

/**
 * Cast the file's values in `bytes` (little-endian, of `from`) into `out` (of `p.dtype`).
 * 64-bit integers go through exact BigInt range checks for integer targets, so a value
 * that does not fit raises instead of wrapping.
 */
function castFromFile(p: NpyReadParams, from: DType, bytes: Uint8Array, out: TypedArray): void {
  const n = out.length / elementWidth(p.dtype);
  if (!isBigDType(from)) {
    castInto(out, p.dtype, new (typedArrayCtor(from))(bytes.buffer), from);
    return;
  }
  const big = from === 'int64' ? new BigInt64Array(bytes.buffer) : new BigUint64Array(bytes.buffer);
  if (isBigIntArray(out)) {
    // int64 <-> uint64: copied exactly where the value fits
    const [lo, hi] = bigIntRange(p.dtype as 'int64' | 'uint64');
    for (let i = 0; i < n; i++) {
      const v = big[i]!;
      if (v < lo || v > hi) throw doesNotFit(p, v, from);
      out[i] = v;
    }
    return;
  }
  const range = integerRange(p.dtype);
  const values = new Float64Array(n);
  if (range !== undefined) {
    const lo = BigInt(range[0]);
    const hi = BigInt(range[1]);
    for (let i = 0; i < n; i++) {
      const v = big[i]!;
      if (v < lo || v > hi) throw doesNotFit(p, v, from);
      values[i] = Number(v);
    }
  } else {
    for (let i = 0; i < n; i++) values[i] = Number(big[i]!);
  }
  castInto(out, p.dtype, values, 'float64');
}

export const npyKernels: Record<string, Kernel<never>> = {
  'npy-read': ((_: Chunk[], p: NpyReadParams) => {
    const count = p.fortran ? [...p.count].reverse() : p.count;
    const start = p.fortran ? [...p.start].reverse() : p.start;
    const data = allocate(p.dtype, shapeSize(count));
    readInto(p, start, count, data);
    const block = new NDArray(data, count, p.dtype);
    if (!p.fortran) return block;
    return permuteBlock(
      block,
      count.map((_, i) => count.length - 1 - i),
    );
  }) as Kernel<never>,
};
