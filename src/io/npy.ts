// fromNpy: a lazy array over a NumPy .npy file. The header is read when the array is made;
// each block is read from the file by the task that needs it (like np.load with mmap_mode).

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkOptions } from '../array/check-options.ts';
import { sourceArray } from '../array/creation.ts';
import { checkDType, type DType, itemsize } from '../array/dtype.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import { shapeSize } from '../array/ndarray.ts';
import type { ChunkSpec, Chunks } from '../chunking/types.ts';
import { ValueError } from '../errors.ts';
import { checkFilePath } from './check-path.ts';
import { NPY_PREAMBLE_BYTES, type NpyHeader, npyPreamble, parseNpyHeader } from './npy-header.ts';
import type { NpyReadParams } from './npy-read.ts';

/** Options of `fromNpy`: the chunking of the array read from the file, and its dtype. */
export interface FromNpyOptions {
  /** Chunk spec (default 'auto': blocks of about config.chunkBytes). */
  chunks?: ChunkSpec | Chunks;
  /**
   * Cast the file's values to this dtype as blocks are read (default: the file's dtype, so
   * an int64 or uint64 file, NumPy's default integer from `np.save(np.arange(n))`, reads as
   * int64 or uint64, exactly). From a 64-bit integer file to another integer dtype every
   * value must fit it (a block holding one that does not raises ValueError when read, never
   * wraps); to a float dtype values round to nearest, exact for float64 up to 2^53. Other
   * files cast as `astype`.
   */
  dtype?: DType;
}

/** A .npy header with what identifies the file it was read from (see NpyReadParams). */
export interface NpyFileHeader extends NpyHeader {
  readonly size: number;
  readonly mtimeMs: number;
  /** The file's bytes before the data (magic to padding), as latin1 text. */
  readonly headerBytes: string;
}

/** The header of the .npy file at `path`, checked against the file's size. */
export function readNpyHeader(path: string): NpyFileHeader {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw new ValueError(`fromNpy: cannot open ${JSON.stringify(path)}: ${(e as Error).message}`, {
      cause: e,
    });
  }
  try {
    const where = JSON.stringify(path);
    const head = new Uint8Array(NPY_PREAMBLE_BYTES);
    const got = readSync(fd, head, 0, head.length, 0);
    const { headerStart, headerLength, utf8 } = npyPreamble(head.subarray(0, got), where);
    const text = new Uint8Array(headerLength);
    readSync(fd, text, 0, headerLength, headerStart);
    const header = parseNpyHeader(
      new TextDecoder(utf8 ? 'utf-8' : 'latin1').decode(text),
      headerStart + headerLength,
      where,
    );
    const { size, mtimeMs } = fstatSync(fd);
    const need = header.dataOffset + shapeSize(header.shape) * itemsize(header.dtype);
    if (size < need) {
      throw new ValueError(
        `fromNpy: ${where} is truncated: ${size} bytes, its header needs ${need}`,
      );
    }
    const all = new Uint8Array(header.dataOffset);
    readSync(fd, all, 0, all.length, 0);
    return { ...header, size, mtimeMs, headerBytes: new TextDecoder('latin1').decode(all) };
  } finally {
    closeSync(fd);
  }
}

/**
 * A lazy array over the .npy file at `path`: the header is read now (shape, dtype), every
 * block is read from the file by its own task, on whichever worker runs it. Little- and
 * big-endian, C- and Fortran-ordered files of the dtypes tessera stores are read (int64 and
 * uint64 too, as BigInt storage), cast on read to the `dtype` asked for (see FromNpyOptions).
 * @example
 * const x = fromNpy('recording.npy', { chunks: [8, 2 ** 20] });
 * const means = await x.mean({ axis: 1 }).compute();
 * const ids = fromNpy('ids.npy'); // saved by np.save(np.arange(n)): int64
 * const idx = fromNpy('ids.npy', { dtype: 'int32' }); // cast on read, every value checked
 */
export function fromNpy(path: string, npyOpts?: FromNpyOptions): LazyArray<true> {
  const opts = checkOptions('fromNpy', npyOpts);
  const file = resolve(checkFilePath('fromNpy', path));
  const asked = opts.dtype === undefined ? undefined : checkDType('fromNpy', opts.dtype);
  const h = readNpyHeader(file);
  const fileDtype = h.dtype;
  const dtype: DType = asked ?? fileDtype;
  const fileShape = h.fortran ? [...h.shape].reverse() : h.shape;
  return sourceArray(
    'fromNpy',
    'npy-read',
    h.shape,
    dtype,
    opts.chunks,
    [file, h.size, h.mtimeMs, h.headerBytes, dtype],
    (start, count): NpyReadParams => ({
      path: file,
      file: { size: h.size, mtimeMs: h.mtimeMs, header: h.headerBytes },
      dataOffset: h.dataOffset,
      fileShape,
      fileDtype,
      dtype,
      bigEndian: h.bigEndian,
      fortran: h.fortran,
      start,
      count,
    }),
  );
}
