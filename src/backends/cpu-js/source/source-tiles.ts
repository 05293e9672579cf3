// Source blocks written tile by tile: the kernels whose values depend only on the global
// element index (random, full, arange, linspace) or are read from a file region (npy-read)
// fill any sub-block of their block.

import type { DType, TypedArray } from '../../../array/dtype.ts';
import { type NpyReadParams, npyTileFill } from '../../../io/npy-read.ts';
import { fillSame } from '../layout/storage.ts';
import {
  type ArangeParams,
  arangeInto,
  type FullParams,
  type LinspaceParams,
  linspaceInto,
  storedFill,
} from './creation.ts';
import { type NormalParams, normalInto, type UniformParams, uniformInto } from './random.ts';

/** A source block that can write any of its sub-blocks. */
export interface TiledSource {
  readonly shape: readonly number[];
  readonly dtype: DType;
  /**
   * Write the sub-block at `start` of shape `tile` into `out` (exactly its size, C order):
   * the same values the block has there.
   */
  fill(out: TypedArray, start: readonly number[], tile: readonly number[]): void;
}

const shifted = (offset: readonly number[], start: readonly number[]): number[] =>
  offset.map((o, ax) => o + start[ax]!);

/**
 * The step `kernel` with `params` as a tiled source, or undefined when it is not a source
 * whose values depend only on the global element index.
 * @example
 * const src = tiledSource('arange', { start: 0, step: 2, offset: 3, count: 5, dtype: 'int32' });
 * src?.fill(new Int32Array(2), [1], [2]); // [8, 10]: elements 1 and 2 of the block
 */
export function tiledSource(kernel: string, params: unknown): TiledSource | undefined {
  switch (kernel) {
    case 'random-uniform': {
      const p = params as UniformParams;
      return {
        shape: p.shape,
        dtype: p.dtype,
        fill: (out, start, tile) =>
          uniformInto(out, { ...p, offset: shifted(p.offset, start), shape: tile }),
      };
    }
    case 'random-normal': {
      const p = params as NormalParams;
      return {
        shape: p.shape,
        dtype: p.dtype,
        fill: (out, start, tile) =>
          normalInto(out, { ...p, offset: shifted(p.offset, start), shape: tile }),
      };
    }
    case 'full': {
      const p = params as FullParams;
      const v = storedFill(p.value, p.dtype);
      return { shape: p.shape, dtype: p.dtype, fill: (out) => fillSame(out, v) };
    }
    case 'arange': {
      const p = params as ArangeParams;
      return {
        shape: [p.count],
        dtype: p.dtype,
        fill: (out, start, tile) =>
          arangeInto(out, { ...p, offset: p.offset + start[0]!, count: tile[0]! }),
      };
    }
    case 'linspace': {
      const p = params as LinspaceParams;
      return {
        shape: [p.count],
        dtype: p.dtype,
        fill: (out, start, tile) =>
          linspaceInto(out, { ...p, offset: p.offset + start[0]!, count: tile[0]! }),
      };
    }
    case 'npy-read': {
      const p = params as NpyReadParams;
      const fill = npyTileFill(p);
      return fill && { shape: p.count, dtype: p.dtype, fill };
    }
    default:
      return undefined;
  }
}
