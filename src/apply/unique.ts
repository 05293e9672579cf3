// uniqueValues, uniqueCounts, uniqueInverse and uniqueAll (Array API): each block's
// distinct values in parallel, one merge task over all of them (unknown size), and inverse
// indices per block by binary search in the merged values. NaNs are distinct, as the standard says.

import { type ArrayLike, asLazy } from '../array/from-array.ts';
import { LazyArray } from '../array/lazy-array.ts';
import { chunkOffsets } from '../chunking/blocks.ts';
import { formatValue } from '../chunking/format.ts';
import type { Size } from '../chunking/types.ts';
import { ChunkError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { BlockRef, Layer } from '../graph/layer.ts';
import { astype } from './elementwise-logic.ts';
import { reshape } from './reshape.ts';

interface Parts {
  readonly flat: LazyArray;
  readonly blocks: Layer;
  readonly merged: Layer;
  readonly shape: number[];
  readonly widened: boolean;
}

function parts(fn: string, x: ArrayLike): Parts {
  let a = asLazy(x, fn);
  const shape = a.shape;
  if (shape.some((s) => s === null)) {
    throw new ChunkError(
      `${fn}: x of shape ${formatValue(shape)} has unknown sizes; call computeChunkSizes(x) first`,
    );
  }
  const widened = a.dtype === 'float16';
  if (widened) a = astype(a, 'float32');
  const flat = a.ndim === 1 ? a : reshape(a, [-1]);
  const sizes = flat.chunks[0] as number[];
  const offsets = chunkOffsets(sizes);
  const blocks = defineLayer({
    op: `${fn}-block`,
    deps: [flat.layer],
    chunks: [sizes.map((): Size => null)],
    dtype: flat.dtype,
    task: (b) => ({
      kernel: 'unique-block',
      inputs: [[0, b]],
      params: { offset: offsets[b[0]!]! },
    }),
  });
  const merged = defineLayer({
    op: `${fn}-merge`,
    deps: [blocks],
    chunks: [[null]],
    dtype: flat.dtype,
    task: () => ({ kernel: 'unique-merge', inputs: sizes.map((_s, i): BlockRef => [0, [i]]) }),
  });
  return { flat, blocks, merged, shape: shape as number[], widened };
}

function pick(p: Parts, index: number, label: string): LazyArray {
  const layer = defineLayer({
    op: label,
    token: [index],
    deps: [p.merged],
    chunks: [[null]],
    dtype: index === 0 ? p.merged.dtype : 'int32',
    task: () => ({ kernel: 'pick', inputs: [[0, [0]]], params: { index } }),
  });
  const y = new LazyArray(layer);
  return index === 0 && p.widened ? astype(y, 'float16') : y;
}

function inverse(p: Parts): LazyArray {
  const n = p.flat.numBlocks[0]!;
  const layer = defineLayer({
    op: 'unique-inverse',
    deps: [p.flat.layer, p.merged, p.blocks],
    chunks: p.flat.chunks,
    dtype: 'int32',
    task: (b) => {
      const j = b[0]!;
      const inputs: BlockRef[] = [
        [0, b],
        [1, [0]],
      ];
      for (let i = 0; i < j && i < n; i++) inputs.push([2, [i]]);
      return { kernel: 'unique-inverse', inputs };
    },
  });
  const flat = new LazyArray(layer);
  return p.shape.length === 1 ? flat : reshape(flat, p.shape);
}

/**
 * The distinct values of `x`, sorted, as a 1-D array of unknown length (NaNs each count
 * as distinct and come last).
 * @example
 * await compute(uniqueValues(fromArray([3, 1, 3, 2], { chunks: 2 }))); // [1, 2, 3]
 */
export function uniqueValues(x: ArrayLike): LazyArray {
  return pick(parts('uniqueValues', x), 0, 'unique-values');
}

/**
 * The distinct values of `x` and how often each occurs (int32), both of unknown length.
 * @example
 * const { values, counts } = uniqueCounts(fromArray([3, 1, 3])); // [1, 3] and [1, 2]
 */
export function uniqueCounts(x: ArrayLike): { values: LazyArray; counts: LazyArray } {
  const p = parts('uniqueCounts', x);
  return { values: pick(p, 0, 'unique-values'), counts: pick(p, 1, 'unique-counts') };
}

/**
 * The distinct values of `x` and, for each element of x, the index of its value among
 * them (int32, x's shape): `take(values, inverseIndices)` rebuilds x.
 * @example
 * const { values, inverseIndices } = uniqueInverse(fromArray([3, 1, 3])); // [1, 3] and [1, 0, 1]
 */
export function uniqueInverse(x: ArrayLike): { values: LazyArray; inverseIndices: LazyArray } {
  const p = parts('uniqueInverse', x);
  return { values: pick(p, 0, 'unique-values'), inverseIndices: inverse(p) };
}

/**
 * uniqueCounts and uniqueInverse together, plus `indices`: the flat (C-order) index of each
 * value's first occurrence in x.
 * @example
 * const u = uniqueAll(fromArray([3, 1, 3])); // values [1, 3], indices [1, 0], counts [1, 2]
 */
export function uniqueAll(x: ArrayLike): {
  values: LazyArray;
  indices: LazyArray;
  inverseIndices: LazyArray;
  counts: LazyArray;
} {
  const p = parts('uniqueAll', x);
  return {
    values: pick(p, 0, 'unique-values'),
    indices: pick(p, 2, 'unique-indices'),
    inverseIndices: inverse(p),
    counts: pick(p, 1, 'unique-counts'),
  };
}
