// Axis-level manipulation: expandDims, squeeze, flip and broadcastTo.
// Each output block comes from exactly one input block, so no op here moves data between blocks.

import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import { LazyArray } from '../array/lazy-array.ts';
import { formatTuple, formatValue } from '../chunking/format.ts';
import type { Size } from '../chunking/types.ts';
import { ChunkError, ShapeError, ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import { normalizeAxes } from './axis-args.ts';

/**
 * Insert unit axes at `axis` (positions in the result; a number or several).
 * @example
 * expandDims(zeros([3, 4]), { axis: [0, -1] }).shape; // [1, 3, 4, 1]
 */
export function expandDims<X extends ArrayLike>(
  x: X,
  opts: { axis: number | readonly number[] },
): LazyArray<KnownIn<[X]>> {
  const a = asLazy(x, 'expandDims');
  const count = Array.isArray(opts?.axis) ? opts.axis.length : 1;
  const axes = normalizeAxes('expandDims', opts?.axis, a.ndim + count).sort((p, q) => p - q);
  const chunks: Size[][] = a.chunks.map((c) => [...c]);
  for (const ax of axes) chunks.splice(ax, 0, [1]);
  const inserted = new Set(axes);
  const layer = defineLayer({
    op: 'expand-dims',
    token: [axes],
    deps: [a.layer],
    chunks,
    dtype: a.dtype,
    task: (b) => ({
      kernel: 'expand-dims',
      inputs: [[0, b.filter((_, ax) => !inserted.has(ax))]],
      params: { axes },
    }),
  });
  return new LazyArray(layer);
}

/**
 * Remove unit axes: the given ones (each must have size 1), else every axis of size 1.
 * @example
 * squeeze(zeros([1, 3, 1])).shape; // [3]
 */
export function squeeze<X extends ArrayLike>(
  x: X,
  opts: { axis?: number | readonly number[] } = {},
): LazyArray<KnownIn<[X]>> {
  const a = asLazy(x, 'squeeze');
  const shape = a.shape;
  let axes: number[];
  if (opts.axis === undefined) {
    axes = shape.flatMap((n, ax) => (n === 1 ? [ax] : []));
  } else {
    axes = normalizeAxes('squeeze', opts.axis, a.ndim);
    for (const ax of axes) {
      if (shape[ax] === null) {
        throw new ChunkError(
          `squeeze: axis ${ax} has unknown size; call computeChunkSizes(x) first`,
        );
      }
      if (shape[ax] !== 1) {
        throw new ShapeError(
          `squeeze: cannot remove axis ${formatValue(opts.axis)} (axis ${ax} has size ${shape[ax]}, not 1)`,
        );
      }
    }
  }
  if (axes.length === 0) return a;
  const drop = new Set(axes);
  const layer = defineLayer({
    op: 'squeeze',
    token: [axes],
    deps: [a.layer],
    chunks: a.chunks.filter((_, ax) => !drop.has(ax)).map((c) => [...c]),
    dtype: a.dtype,
    task: (b) => {
      const src: number[] = [];
      for (let ax = 0, k = 0; ax < a.ndim; ax++) src.push(drop.has(ax) ? 0 : b[k++]!);
      return { kernel: 'squeeze', inputs: [[0, src]], params: { axes } };
    },
  });
  return new LazyArray(layer);
}

/**
 * Reverse the order of elements along `axis` (every axis by default).
 * @example
 * flip(fromArray([1, 2, 3])); // [3, 2, 1] once computed
 */
export function flip<X extends ArrayLike>(
  x: X,
  opts: { axis?: number | readonly number[] | null } = {},
): LazyArray<KnownIn<[X]>> {
  const a = asLazy(x, 'flip');
  const axes =
    opts.axis === undefined || opts.axis === null
      ? a.chunks.map((_, ax) => ax)
      : normalizeAxes('flip', opts.axis, a.ndim);
  if (axes.length === 0) return a;
  const flipped = new Set(axes);
  const grid = a.numBlocks;
  const layer = defineLayer({
    op: 'flip',
    token: [axes],
    deps: [a.layer],
    chunks: a.chunks.map((c, ax) => (flipped.has(ax) ? [...c].reverse() : [...c])),
    dtype: a.dtype,
    // Block b reads block b only when every flipped axis has a single block.
    fusable: axes.every((ax) => grid[ax] === 1),
    task: (b) => ({
      kernel: 'flip',
      inputs: [[0, b.map((i, ax) => (flipped.has(ax) ? grid[ax]! - 1 - i : i))]],
      params: { axes },
    }),
  });
  return new LazyArray(layer);
}

/**
 * Broadcast to `shape` (NumPy rules, right-aligned). New and stretched axes are one chunk.
 * @example
 * broadcastTo(fromArray([1, 2, 3]), [4, 3]).chunks; // [[4], [3]]
 */
export function broadcastTo<X extends ArrayLike>(
  x: X,
  shape: readonly number[],
): LazyArray<KnownIn<[X]>> {
  const a = asLazy(x, 'broadcastTo');
  checkTargetShape(shape);
  const lead = shape.length - a.ndim;
  if (lead < 0) {
    throw new ShapeError(
      `broadcastTo: cannot broadcast shape ${formatTuple(a.shape)} to ${formatTuple(shape)} (fewer axes)`,
    );
  }
  const inShape = a.shape;
  const stretched = shape.map((n, ax) => ax < lead || (inShape[ax - lead] === 1 && n !== 1));
  for (let ax = lead; ax < shape.length; ax++) {
    const m = inShape[ax - lead];
    if (m === null) {
      throw new ChunkError(
        `broadcastTo: axis ${ax - lead} of the input has unknown size; call computeChunkSizes(x) first`,
      );
    }
    if (m !== shape[ax] && m !== 1) {
      throw new ShapeError(
        `broadcastTo: cannot broadcast shape ${formatTuple(inShape)} to ${formatTuple(shape)} (axis ${ax})`,
      );
    }
  }
  if (lead === 0 && !stretched.some(Boolean)) return a;
  const chunks = shape.map((n, ax) =>
    stretched[ax] ? [n] : [...(a.chunks[ax - lead] as number[])],
  );
  const layer = defineLayer({
    op: 'broadcast-to',
    token: [shape],
    deps: [a.layer],
    chunks,
    dtype: a.dtype,
    // Same grid and identity block mapping only when no axis is added.
    fusable: lead === 0,
    task: (b) => ({
      kernel: 'broadcast',
      inputs: [[0, b.slice(lead).map((i, k) => (stretched[k + lead] ? 0 : i))]],
      params: { shape: b.map((i, ax) => chunks[ax]![i]!) },
    }),
  });
  return new LazyArray(layer);
}

function checkTargetShape(shape: readonly number[]): void {
  if (!Array.isArray(shape) || shape.some((n) => !Number.isInteger(n) || n < 0)) {
    throw new ValueError(`broadcastTo: shape ${formatValue(shape)} is not a list of sizes >= 0`);
  }
}
