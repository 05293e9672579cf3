// reshape: chunk-aware, after Dask's reshape_rechunk (see chunking/reshape-plan.ts).
// The input is rechunked only on axes that need it; each output block reshapes one input block.

import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import { LazyArray } from '../array/lazy-array.ts';
import { formatTuple, formatValue } from '../chunking/format.ts';
import { planReshape } from '../chunking/reshape-plan.ts';
import { ChunkError, ShapeError, ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import { rechunk } from './rechunk.ts';

/**
 * Give an array a new shape with the same elements in C order; one size may be -1
 * (inferred). Rechunks only the axes that must be whole for blocks to map one to one.
 * @example
 * const x = fromArray(new Float64Array(24), { shape: [6, 4], chunks: [2, 4] });
 * reshape(x, [-1]).chunks; // [[8, 8, 8]], no rechunk
 */
export function reshape<X extends ArrayLike>(
  x: X,
  shape: readonly number[],
): LazyArray<KnownIn<[X]>> {
  const a = asLazy(x, 'reshape');
  const inShape = a.shape;
  if (inShape.some((n) => n === null)) {
    throw new ChunkError(
      `reshape: the input's shape ${formatTuple(inShape)} has unknown sizes; call computeChunkSizes(x) first`,
    );
  }
  const known = inShape as number[];
  const outShape = resolveShape(shape, known);
  if (outShape.length === known.length && outShape.every((n, i) => n === known[i])) return a;
  const size = outShape.reduce((p, n) => p * n, 1);
  if (size === 0) return reshapeEmpty(a, outShape) as LazyArray<KnownIn<[X]>>;
  const plan = planReshape(known, outShape, a.chunks as number[][]);
  const same = plan.inChunks.every(
    (c, ax) => c.length === a.chunks[ax]!.length && c.every((s, i) => s === a.chunks[ax]![i]),
  );
  const src = same ? a : rechunk(a, plan.inChunks);
  const { outChunks, groups } = plan;
  const layer = defineLayer({
    op: 'reshape',
    token: [outShape],
    deps: [src.layer],
    chunks: outChunks,
    dtype: a.dtype,
    task: (b) => {
      const inBlock = new Array<number>(known.length).fill(0);
      for (const g of groups) {
        const from = g.blocks[b[g.outAxes[0]!]!]!;
        g.inAxes.forEach((ax, k) => {
          inBlock[ax] = from[k]!;
        });
      }
      return {
        kernel: 'reshape',
        inputs: [[0, inBlock]],
        params: { shape: b.map((i, ax) => outChunks[ax]![i]!) },
      };
    },
  });
  return new LazyArray(layer);
}

/** Validate the requested shape and infer its -1 entry. */
function resolveShape(shape: readonly number[], inShape: readonly number[]): number[] {
  if (!Array.isArray(shape) || shape.some((n) => !Number.isInteger(n) || n < -1)) {
    throw new ValueError(
      `reshape: shape ${formatValue(shape)} is not a list of sizes (one may be -1)`,
    );
  }
  const size = inShape.reduce((p, n) => p * n, 1);
  const free = shape.filter((n) => n === -1).length;
  if (free > 1) throw new ValueError(`reshape: shape ${formatTuple(shape)} has more than one -1`);
  const rest = shape.reduce((p, n) => (n === -1 ? p : p * n), 1);
  if (free === 1) {
    if (rest === 0 || size % rest !== 0) {
      throw new ShapeError(
        `reshape: cannot reshape an array of size ${size} into shape ${formatTuple(shape)}`,
      );
    }
    return shape.map((n) => (n === -1 ? size / rest : n));
  }
  if (rest !== size) {
    throw new ShapeError(
      `reshape: cannot reshape an array of size ${size} into shape ${formatTuple(shape)}`,
    );
  }
  return [...shape];
}

/** An empty result: one block per axis, read from the (empty) first input block. */
function reshapeEmpty(a: LazyArray, outShape: readonly number[]): LazyArray {
  const layer = defineLayer({
    op: 'reshape',
    token: [outShape],
    deps: [a.layer],
    chunks: outShape.map((n) => [n]),
    dtype: a.dtype,
    task: () => ({
      kernel: 'reshape',
      inputs: [[0, a.chunks.map(() => 0)]],
      params: { shape: [...outShape] },
    }),
  });
  return new LazyArray(layer);
}
