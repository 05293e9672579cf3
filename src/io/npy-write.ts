// Writing .npy files: the header NumPy's format 1.0 gives an array, and the kernels that
// write one block at its place in a file (positioned writes, C order) or a whole file.

import { closeSync, openSync, renameSync, writeSync } from 'node:fs';
import { type DType, itemsize } from '../array/dtype.ts';
import { cStrides, NDArray, shapeSize } from '../array/ndarray.ts';
import { arrayBlock } from '../kernels/array-block.ts';
import type { Chunk, Kernel } from '../kernels/types.ts';

const DESCR: Record<DType, string> = {
  float64: '<f8',
  float32: '<f4',
  float16: '<f2',
  int64: '<i8',
  int32: '<i4',
  int16: '<i2',
  int8: '|i1',
  uint64: '<u8',
  uint32: '<u4',
  uint16: '<u2',
  uint8: '|u1',
  bool: '|b1',
  complex64: '<c8',
  complex128: '<c16',
};

/**
 * The bytes before the data of a C-ordered, little-endian .npy file (format 1.0; 2.0 when
 * the header dict is too long), padded so the data starts at a multiple of 64.
 * @example
 * npyHeaderBytes('float64', [3, 4]).length; // 128
 */
export function npyHeaderBytes(dtype: DType, shape: readonly number[]): Uint8Array {
  const dims = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  const dict = `{'descr': '${DESCR[dtype]}', 'fortran_order': False, 'shape': ${dims}, }`;
  const v2 = dict.length + 11 > 65535;
  const fixed = v2 ? 12 : 10;
  const total = Math.ceil((fixed + dict.length + 1) / 64) * 64;
  const text = `${dict}${' '.repeat(total - fixed - dict.length - 1)}\n`;
  const out = new Uint8Array(total);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, v2 ? 2 : 1, 0]);
  const len = total - fixed;
  if (v2) new DataView(out.buffer).setUint32(8, len, true);
  else new DataView(out.buffer).setUint16(8, len, true);
  out.set(new TextEncoder().encode(text), fixed);
  return out;
}

/** Params of 'npy-write': the block's region of the array of `shape` stored at `dataOffset`. */
export interface NpyWriteParams {
  readonly path: string;
  readonly dataOffset: number;
  readonly shape: readonly number[];
  readonly start: readonly number[];
  readonly count: readonly number[];
}

/** Params of 'npy-file-write': the block as a whole .npy file, written then renamed. */
export interface NpyFileWriteParams {
  readonly partial: string;
  readonly path: string;
}

const bytesOf = (b: NDArray) => new Uint8Array(b.data.buffer, b.data.byteOffset, b.data.byteLength);

/** Write `block` at its region of the file: one positioned write per contiguous run. */
function writeRegion(fd: number, block: NDArray, p: NpyWriteParams): void {
  const size = itemsize(block.dtype);
  const st = cStrides(p.shape);
  // the run: the innermost axes the block spans whole, and the next one's extent
  let inner = p.shape.length;
  while (inner > 0 && p.count[inner - 1] === p.shape[inner - 1]) inner--;
  const run = inner === 0 ? shapeSize(p.count) : p.count[inner - 1]! * (st[inner - 1] ?? 1);
  const outer = p.count.slice(0, Math.max(0, inner - 1));
  const bytes = bytesOf(block);
  const n = shapeSize(outer);
  const idx = new Array<number>(outer.length).fill(0);
  for (let r = 0; r < n; r++) {
    let at = 0;
    for (let ax = 0; ax < p.shape.length; ax++) at += (p.start[ax]! + (idx[ax] ?? 0)) * st[ax]!;
    writeSync(fd, bytes, r * run * size, run * size, p.dataOffset + at * size);
    for (let ax = outer.length - 1; ax >= 0; ax--) {
      if (++idx[ax]! < outer[ax]!) break;
      idx[ax] = 0;
    }
  }
}

function countOf(block: NDArray): NDArray {
  const out = new Float64Array(1);
  out[0] = block.size;
  return new NDArray(out, [1], 'float64');
}

/** .npy writing kernels, registered in backends/cpu-js/registry. */
export const npyWriteKernels: Record<string, Kernel<never>> = {
  /** Writes the one input block at its region; returns a 1-element count of its elements. */
  'npy-write': ((inputs: Chunk[], p: NpyWriteParams) => {
    const block = arrayBlock(inputs[0], 'npy-write');
    const fd = openSync(p.path, 'r+');
    try {
      if (block.size > 0) writeRegion(fd, block, p);
    } finally {
      closeSync(fd);
    }
    return countOf(block);
  }) as Kernel<never>,
  /** Writes the block as a complete file under a partial name, then renames it. */
  'npy-file-write': ((inputs: Chunk[], p: NpyFileWriteParams) => {
    const block = arrayBlock(inputs[0], 'npy-write');
    const fd = openSync(p.partial, 'w');
    try {
      writeSync(fd, npyHeaderBytes(block.dtype, block.shape));
      writeSync(fd, bytesOf(block));
    } finally {
      closeSync(fd);
    }
    renameSync(p.partial, p.path);
    return countOf(block);
  }) as Kernel<never>,
};
